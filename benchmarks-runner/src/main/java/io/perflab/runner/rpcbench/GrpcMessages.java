package io.perflab.runner.rpcbench;

import io.grpc.Drainable;
import io.grpc.KnownLength;
import io.grpc.MethodDescriptor;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;

/**
 * The benchmark service's methods for gRPC, {@code Calculator/Add} and {@code Calculator/Echo}, with the
 * engine's message layout ({@link CalculatorMessages}) so that each call does the same work on every stack.
 *
 * <p>Messages are plain byte arrays: no protobuf, no code generation. The marshaller's stream is
 * {@link KnownLength} and {@link Drainable}, as gRPC's own protobuf marshaller is, so gRPC sizes the message
 * without reading it and copies the array once into its frame.
 */
final class GrpcMessages {

    static final String SERVICE = "Calculator";
    static final MethodDescriptor.Marshaller<byte[]> BYTES = new ByteArrayMarshaller();
    static final MethodDescriptor<byte[], byte[]> ADD = unary("Add");
    static final MethodDescriptor<byte[], byte[]> ECHO = unary("Echo");

    private GrpcMessages() {
    }

    private static MethodDescriptor<byte[], byte[]> unary(String method) {
        return MethodDescriptor.<byte[], byte[]>newBuilder()
                .setType(MethodDescriptor.MethodType.UNARY)
                .setFullMethodName(MethodDescriptor.generateFullMethodName(SERVICE, method))
                .setRequestMarshaller(BYTES)
                .setResponseMarshaller(BYTES)
                .build();
    }

    /** The method a workload calls. */
    static MethodDescriptor<byte[], byte[]> method(Workload workload) {
        return workload.echo() ? ECHO : ADD;
    }

    /** The request of one call: {@code x, 1} for Add, {@code responseBytes} and a zero payload for Echo. */
    static byte[] request(Workload workload, int x) {
        if (workload.echo()) {
            byte[] request = new byte[4 + workload.requestBytes()];
            ByteBuffer.wrap(request).putInt(workload.responseBytes());
            return request;
        }
        return ByteBuffer.allocate(8).putInt(x).putInt(1).array();
    }

    /** The server's answer to {@code Calculator/Add}. */
    static byte[] add(byte[] request) {
        throwIfMalformed(CalculatorMessages.addRequestProblem(request.length));
        ByteBuffer in = ByteBuffer.wrap(request);
        return ByteBuffer.allocate(CalculatorMessages.ADD_ANSWER_BYTES).putInt(in.getInt() + in.getInt()).array();
    }

    /** The server's answer to {@code Calculator/Echo}. */
    static byte[] echo(byte[] request) {
        throwIfMalformed(CalculatorMessages.echoRequestProblem(request.length));
        int responseBytes = ByteBuffer.wrap(request).getInt();
        throwIfMalformed(CalculatorMessages.echoAnswerProblem(responseBytes));
        byte[] response = new byte[responseBytes];
        int header = CalculatorMessages.ECHO_HEADER_BYTES;
        System.arraycopy(request, header, response, 0, Math.min(responseBytes, request.length - header));
        return response;
    }

    private static void throwIfMalformed(String problem) {
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
    }

    /**
     * Checks a response as the engine's client does: the sum for Add, the length for Echo.
     *
     * @return the sum (Add) or the length (Echo)
     * @throws IllegalStateException saying how the response differs from what the workload expects
     */
    static int check(Workload workload, byte[] response) {
        String problem = CalculatorMessages.answerProblem(workload, response.length);
        if (problem != null) {
            throw new IllegalStateException(problem);
        }
        return workload.echo() ? response.length : ByteBuffer.wrap(response).getInt();
    }

    /** byte[] ↔ message bytes, with a stream gRPC can size and drain without copying through a buffer. */
    static final class ByteArrayMarshaller implements MethodDescriptor.Marshaller<byte[]> {

        @Override
        public InputStream stream(byte[] value) {
            return new ArrayStream(value);
        }

        @Override
        public byte[] parse(InputStream stream) {
            try {
                if (stream instanceof KnownLength) {
                    int length = stream.available();
                    byte[] value = stream.readNBytes(length);
                    if (value.length != length) {
                        throw new IllegalStateException("message ended after " + value.length + " of " + length
                                + " bytes");
                    }
                    return value;
                }
                return stream.readAllBytes();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    private static final class ArrayStream extends ByteArrayInputStream implements KnownLength, Drainable {

        ArrayStream(byte[] value) {
            super(value);
        }

        @Override
        public int drainTo(OutputStream target) throws IOException {
            int drained = count - pos;
            target.write(buf, pos, drained);
            pos = count;
            return drained;
        }
    }
}
