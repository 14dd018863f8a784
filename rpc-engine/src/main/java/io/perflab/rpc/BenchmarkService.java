package io.perflab.rpc;

import io.netty.buffer.ByteBuf;

/**
 * The built-in benchmark service {@code Calculator}, after Kudu's rpc-bench CalculatorService, and
 * client helpers that call it.
 *
 * <ul>
 *   <li>{@code Calculator.Add}: request {@code int32 x, int32 y}; response {@code int32 x + y}.</li>
 *   <li>{@code Calculator.Echo}: request {@code int32 responseBytes} then any payload; response
 *       {@code responseBytes} bytes: the payload's first bytes, padded with zeros if it is shorter. A negative
 *       {@code responseBytes}, or one larger than a response frame carries ({@code maxFrameBytes} less the
 *       response header), is refused with {@code INVALID_REQUEST} before anything is allocated.</li>
 *   <li>{@code Calculator.Sleep}: request {@code int32 millis}; sleeps that long, empty response; a negative
 *       {@code millis} is refused with {@code INVALID_REQUEST}.</li>
 * </ul>
 */
public final class BenchmarkService {

    public static final String SERVICE_NAME = "Calculator";
    public static final RpcMethodRef ADD = RpcMethodRef.of(SERVICE_NAME, "Add");
    public static final RpcMethodRef ECHO = RpcMethodRef.of(SERVICE_NAME, "Echo");
    public static final RpcMethodRef SLEEP = RpcMethodRef.of(SERVICE_NAME, "Sleep");

    private static final ResponseReader<Integer> INT_RESULT = ByteBuf::readInt;
    private static final ResponseReader<Void> NO_RESULT = body -> null;

    private BenchmarkService() {
    }

    /** The service to register on a server. */
    public static ServiceDefinition definition() {
        return definition(() -> { });
    }

    /**
     * The service with {@code work} done by {@code Add} and {@code Echo} before they answer: a benchmark's known
     * cost per call (rpc-bench's {@code serverWorkNanos}), run on whichever thread runs the handler.
     */
    public static ServiceDefinition definition(Runnable work) {
        return ServiceDefinition.builder(SERVICE_NAME)
                .method("Add", (request, response) -> {
                    work.run();
                    handleAdd(request, response);
                })
                .method("Echo", (request, response) -> {
                    work.run();
                    handleEcho(request, response);
                })
                .method("Sleep", BenchmarkService::handleSleep)
                .build();
    }

    /** Synchronous {@code Calculator.Add}. */
    public static int add(RpcProxy proxy, int x, int y, long timeoutMillis) {
        return proxy.call(ADD, body -> body.writeInt(x).writeInt(y), INT_RESULT, timeoutMillis);
    }

    /** Asynchronous {@code Calculator.Add}; returns the cancellation token. */
    public static long addAsync(RpcProxy proxy, int x, int y, long timeoutMillis, RpcCallback<Integer> callback) {
        return proxy.callAsync(ADD, body -> body.writeInt(x).writeInt(y), INT_RESULT, timeoutMillis, callback);
    }

    /**
     * Synchronous {@code Calculator.Echo} with a zero-filled payload of {@code requestBytes}.
     *
     * @return the number of response bytes received ({@code responseBytes})
     */
    public static int echo(RpcProxy proxy, int requestBytes, int responseBytes, long timeoutMillis) {
        return proxy.call(ECHO, body -> body.writeInt(responseBytes).writeZero(requestBytes), ResponseReader.LENGTH,
                timeoutMillis);
    }

    /** Asynchronous {@link #echo(RpcProxy, int, int, long)}; the callback gets the response length. */
    public static long echoAsync(RpcProxy proxy, int requestBytes, int responseBytes, long timeoutMillis,
                                 RpcCallback<Integer> callback) {
        return proxy.callAsync(ECHO, body -> body.writeInt(responseBytes).writeZero(requestBytes),
                ResponseReader.LENGTH, timeoutMillis, callback);
    }

    /** Synchronous {@code Calculator.Echo} of {@code payload}; returns the response bytes. */
    public static byte[] echo(RpcProxy proxy, byte[] payload, int responseBytes, long timeoutMillis) {
        return proxy.call(ECHO, body -> body.writeInt(responseBytes).writeBytes(payload), body -> {
            byte[] bytes = new byte[body.readableBytes()];
            body.readBytes(bytes);
            return bytes;
        }, timeoutMillis);
    }

    /** Synchronous {@code Calculator.Sleep}. */
    public static void sleep(RpcProxy proxy, int millis, long timeoutMillis) {
        proxy.call(SLEEP, body -> body.writeInt(millis), NO_RESULT, timeoutMillis);
    }

    private static void handleAdd(ByteBuf request, ByteBuf response) {
        if (request.readableBytes() != 8) {
            throw new RpcException(RpcStatus.INVALID_REQUEST, "Calculator.Add expects 8 bytes (int32 x, int32 y), got "
                    + request.readableBytes());
        }
        response.writeInt(request.readInt() + request.readInt());
    }

    private static void handleEcho(ByteBuf request, ByteBuf response) {
        if (request.readableBytes() < 4) {
            throw new RpcException(RpcStatus.INVALID_REQUEST, "Calculator.Echo expects int32 responseBytes, got "
                    + request.readableBytes() + " bytes");
        }
        int responseBytes = request.readInt();
        if (responseBytes < 0) {
            throw new RpcException(RpcStatus.INVALID_REQUEST, "Calculator.Echo responseBytes is negative: "
                    + responseBytes);
        }
        if (responseBytes > response.maxWritableBytes()) {
            throw new RpcException(RpcStatus.INVALID_REQUEST, "Calculator.Echo responseBytes " + responseBytes
                    + " exceeds " + response.maxWritableBytes() + ", the largest response a frame of this "
                    + "server's maxFrameBytes carries");
        }
        int copied = Math.min(responseBytes, request.readableBytes());
        response.writeBytes(request, copied);
        response.writeZero(responseBytes - copied);
    }

    private static void handleSleep(ByteBuf request, ByteBuf response) throws InterruptedException {
        if (request.readableBytes() != 4) {
            throw new RpcException(RpcStatus.INVALID_REQUEST, "Calculator.Sleep expects int32 millis, got "
                    + request.readableBytes() + " bytes");
        }
        int millis = request.readInt();
        if (millis < 0) {
            throw new RpcException(RpcStatus.INVALID_REQUEST, "Calculator.Sleep millis is negative: " + millis);
        }
        Thread.sleep(millis);
    }
}
