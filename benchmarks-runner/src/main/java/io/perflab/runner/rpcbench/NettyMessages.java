package io.perflab.runner.rpcbench;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/**
 * The bare-Netty stack's frames: {@link CalculatorMessages}' bodies behind the length of
 * {@link NettyFrameDecoder}, each frame written into one buffer, length first. All integers are big-endian.
 * <pre>
 * Add request (client to server)               Add answer (server to client)
 * +-------------+-----------+-----------+      +-------------+-------------+
 * | length = 8  | x: int32  | y: int32  |      | length = 4  | x + y: int32|
 * +-------------+-----------+-----------+      +-------------+-------------+
 *
 * Echo request (client to server)
 * +----------------+----------------------+-----------------------+
 * | length = 4 + n | responseBytes: int32 | payload: n bytes      |
 * +----------------+----------------------+-----------------------+
 *
 * Echo answer (server to client)
 * +------------------------+-----------------------------------------------------+
 * | length = responseBytes | the payload's first bytes, padded with zeros        |
 * +------------------------+-----------------------------------------------------+
 * </pre>
 * There are no call ids, methods, deadlines or status: the workload says which method every frame of a run
 * calls, and a connection's answers are matched to its requests in order (exact with one worker or none; with
 * several, answers may overtake each other, which only shifts latencies between calls of one connection).
 */
final class NettyMessages {

    private final Workload workload;

    NettyMessages(Workload workload) {
        this.workload = workload;
    }

    /** The method every call of the workload calls, named as the engine names it in its errors. */
    String method() {
        return workload.echo() ? "Calculator.Echo" : "Calculator.Add";
    }

    /** One request frame: {@code x, 1} for Add, {@code responseBytes} and a zero payload for Echo. */
    ByteBuf request(ByteBufAllocator alloc, int x) {
        int lengthBytes = NettyFrameDecoder.LENGTH_BYTES;
        if (workload.echo()) {
            int body = CalculatorMessages.ECHO_HEADER_BYTES + workload.requestBytes();
            return alloc.buffer(lengthBytes + body).writeInt(body).writeInt(workload.responseBytes())
                    .writeZero(workload.requestBytes());
        }
        int body = CalculatorMessages.ADD_REQUEST_BYTES;
        return alloc.buffer(lengthBytes + body).writeInt(body).writeInt(x).writeInt(1);
    }

    /** Why a request body (a decoded frame) cannot be answered, or null if it can. */
    String requestProblem(ByteBuf request) {
        if (!workload.echo()) {
            return CalculatorMessages.addRequestProblem(request.readableBytes());
        }
        String problem = CalculatorMessages.echoRequestProblem(request.readableBytes());
        return problem != null ? problem
                : CalculatorMessages.echoAnswerProblem(request.getInt(request.readerIndex()));
    }

    /**
     * The answer frame to a request body that {@link #requestProblem} accepted: the sum for Add, the asked length
     * of the payload for Echo. Releases the request.
     */
    ByteBuf answer(ByteBufAllocator alloc, ByteBuf request) {
        int lengthBytes = NettyFrameDecoder.LENGTH_BYTES;
        try {
            if (workload.echo()) {
                int responseBytes = request.readInt();
                int copied = Math.min(responseBytes, request.readableBytes());
                return alloc.buffer(lengthBytes + responseBytes).writeInt(responseBytes)
                        .writeBytes(request, copied).writeZero(responseBytes - copied);
            }
            int body = CalculatorMessages.ADD_ANSWER_BYTES;
            return alloc.buffer(lengthBytes + body).writeInt(body).writeInt(request.readInt() + request.readInt());
        } finally {
            request.release();
        }
    }

    /** Why an answer body (a decoded frame) is not what the workload expects, or null if it is. */
    String answerProblem(ByteBuf answer) {
        return CalculatorMessages.answerProblem(workload, answer.readableBytes());
    }
}
