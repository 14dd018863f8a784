package io.perflab.rpc;

import io.netty.buffer.ByteBuf;

/**
 * Server side of one method. Runs on a worker thread (or on the reactor when
 * {@code workerThreads = 0}), so it may block only if workers are configured.
 *
 * <p>Read the request body from {@code request} (valid only during the call; do not retain it) and
 * append the response body to {@code response} with its {@code write…} methods; the response cannot grow
 * past what one frame of the server's {@code maxFrameBytes} carries ({@code response.maxWritableBytes()}
 * says how much more fits), and a write past that fails with {@code REMOTE_ERROR}. To reject a request
 * throw {@link RpcException} with {@link RpcStatus#INVALID_REQUEST}; reading past the end of the
 * request ({@link IndexOutOfBoundsException} from {@code request}) is also answered
 * {@code INVALID_REQUEST}. Any other exception, an {@code IndexOutOfBoundsException} of another buffer or
 * array included, is answered {@link RpcStatus#REMOTE_ERROR} with its message.
 */
@FunctionalInterface
public interface MethodHandler {
    void handle(ByteBuf request, ByteBuf response) throws Exception;
}
