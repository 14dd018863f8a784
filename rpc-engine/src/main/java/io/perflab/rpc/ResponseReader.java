package io.perflab.rpc;

import io.netty.buffer.ByteBuf;

/**
 * Decodes a response body on the client event loop. {@code body} is valid only during the call.
 * An exception fails the call with {@link RpcStatus#INVALID_REQUEST}.
 */
@FunctionalInterface
public interface ResponseReader<T> {
    T read(ByteBuf body) throws Exception;

    /** Ignores the body and yields its length. */
    ResponseReader<Integer> LENGTH = ByteBuf::readableBytes;
}
