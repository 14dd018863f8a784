package io.perflab.rpc;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Splits the byte stream into frames (see the package documentation): emits each frame without its
 * length prefix as a retained slice of the input, so nothing is copied. The claimed length is
 * checked against {@code [minFrameBytes, maxFrameBytes]} before anything waits for the frame, and
 * only bytes that actually arrived are ever buffered. On the server the connection preamble is
 * checked byte by byte first, so a non-PerfLab client (such as an HTTP request) is refused at once.
 *
 * <p>A violation logs one line, stops decoding and closes the connection. Per channel.
 */
final class RpcFrameDecoder extends ByteToMessageDecoder {

    private static final Logger log = LoggerFactory.getLogger(RpcFrameDecoder.class);

    private final int minFrameBytes;
    private final int maxFrameBytes;
    private final Consumer<String> onProtocolError;
    private int preambleBytesSeen;
    private boolean failed;

    /**
     * @param expectPreamble whether the peer must open with {@link WireFormat#PREAMBLE} (server side)
     * @param onProtocolError told the reason when the connection is closed for a violation
     */
    RpcFrameDecoder(int minFrameBytes, int maxFrameBytes, boolean expectPreamble, Consumer<String> onProtocolError) {
        this.minFrameBytes = minFrameBytes;
        this.maxFrameBytes = maxFrameBytes;
        this.onProtocolError = onProtocolError;
        this.preambleBytesSeen = expectPreamble ? 0 : WireFormat.PREAMBLE.length;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (failed) {
            in.skipBytes(in.readableBytes());
            return;
        }
        while (preambleBytesSeen < WireFormat.PREAMBLE.length) {
            if (!in.isReadable()) {
                return;
            }
            byte b = in.readByte();
            if (b != WireFormat.PREAMBLE[preambleBytesSeen]) {
                fail(ctx, in, String.format(
                        "not a PerfLab RPC client: byte %d of the preamble is 0x%02x, expected 0x%02x",
                        preambleBytesSeen, b & 0xff, WireFormat.PREAMBLE[preambleBytesSeen]));
                return;
            }
            preambleBytesSeen++;
        }
        if (in.readableBytes() < WireFormat.LENGTH_FIELD_BYTES) {
            return;
        }
        int length = in.getInt(in.readerIndex());
        if (length < minFrameBytes || length > maxFrameBytes) {
            fail(ctx, in, "frame length " + length + " outside [" + minFrameBytes + ", " + maxFrameBytes + "]");
            return;
        }
        if (in.readableBytes() - WireFormat.LENGTH_FIELD_BYTES < length) {
            return;
        }
        in.skipBytes(WireFormat.LENGTH_FIELD_BYTES);
        out.add(in.readRetainedSlice(length));
    }

    private void fail(ChannelHandlerContext ctx, ByteBuf in, String reason) {
        failed = true;
        in.skipBytes(in.readableBytes());
        log.warn("closing connection {}: {}", ctx.channel().remoteAddress(), reason);
        onProtocolError.accept(reason);
        ctx.close();
    }
}
