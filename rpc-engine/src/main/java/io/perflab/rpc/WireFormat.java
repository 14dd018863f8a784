package io.perflab.rpc;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/**
 * Constants and frame writers of the wire format drawn in the package documentation. A frame is
 * written into one buffer: the length and header are reserved first, the body is appended, then
 * {@link #finishFrame} fills in the length.
 */
final class WireFormat {

    /** Connection preamble: "PRPC" then the protocol version. */
    static final byte[] PREAMBLE = {'P', 'R', 'P', 'C', 1};
    static final int LENGTH_FIELD_BYTES = 4;

    /** Request header after the length prefix: call id, timeout, flags, method length. */
    static final int MIN_REQUEST_FRAME_BYTES = 4 + 4 + 1 + 1;
    /** Response header after the length prefix: call id, status. */
    static final int MIN_RESPONSE_FRAME_BYTES = 4 + 1;
    static final int RESPONSE_HEADER_BYTES = LENGTH_FIELD_BYTES + MIN_RESPONSE_FRAME_BYTES;
    static final int MAX_METHOD_NAME_BYTES = 255;

    private WireFormat() {
    }

    /** Starts a request frame; the caller appends the body, then calls {@link #finishFrame}. */
    static void beginRequest(ByteBuf frame, int callId, int timeoutMillis, byte[] method) {
        frame.writeInt(0)
                .writeInt(callId)
                .writeInt(timeoutMillis)
                .writeByte(0)
                .writeByte(method.length)
                .writeBytes(method);
    }

    /** Reserves the response header; the body follows at the writer index. */
    static void beginResponse(ByteBuf frame) {
        frame.writerIndex(frame.writerIndex() + RESPONSE_HEADER_BYTES);
    }

    /** Fills the header of a response frame started with {@link #beginResponse} at index 0. */
    static void finishResponse(ByteBuf frame, int callId, RpcStatus status) {
        frame.setInt(0, frame.writerIndex() - LENGTH_FIELD_BYTES);
        frame.setInt(4, callId);
        frame.setByte(8, status.code());
    }

    static void finishFrame(ByteBuf frame) {
        frame.setInt(0, frame.writerIndex() - LENGTH_FIELD_BYTES);
    }

    /** A complete response frame whose body is an UTF-8 message. */
    static ByteBuf errorResponse(ByteBufAllocator alloc, int callId, RpcStatus status, String message) {
        ByteBuf frame = alloc.ioBuffer(RESPONSE_HEADER_BYTES + message.length() * 3);
        beginResponse(frame);
        frame.writeCharSequence(message, java.nio.charset.StandardCharsets.UTF_8);
        finishResponse(frame, callId, status);
        return frame;
    }
}
