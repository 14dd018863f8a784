package io.perflab.rpc;

import io.netty.buffer.ByteBuf;

/** Appends a request body to the call's frame buffer; runs on the calling thread. */
@FunctionalInterface
public interface RequestWriter {
    void write(ByteBuf body);

    /** A request with no body. */
    RequestWriter EMPTY = body -> { };
}
