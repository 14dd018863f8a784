package io.perflab.runner.rpcbench;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Splits the bare-Netty stack's byte stream into frames, both ways: a 4-byte big-endian length, then that many
 * bytes of body ({@link NettyMessages} says what the bodies hold). Emits each body without its length, as a
 * retained slice of the input, so nothing is copied:
 * <pre>
 * BEFORE DECODE (12 bytes)                AFTER DECODE (8 bytes)
 * +------------------+-----------------+      +-----------------+
 * | length: int32    | body            |      | body            |
 * | 0x00000008       | 8 bytes         | ---> | 8 bytes         |
 * +------------------+-----------------+      +-----------------+
 * </pre>
 * The length must lie in {@code [0, maxFrameBytes]} (64 MiB by default, the engine's limit). It is checked as
 * soon as its 4 bytes are in, before anything waits for the body, and only bytes that actually arrived are
 * buffered, so a huge or negative length costs no memory: it closes the connection at once with one log line,
 * and an exception naming it goes down the pipeline (a client's outstanding calls fail with that reason).
 * Whatever arrives after a violation is dropped. Per channel.
 */
final class NettyFrameDecoder extends LengthFieldBasedFrameDecoder {

    static final int LENGTH_BYTES = 4;
    static final int MAX_FRAME_BYTES = 64 * 1024 * 1024;

    private static final Logger log = LoggerFactory.getLogger(NettyFrameDecoder.class);

    private final int maxFrameBytes;
    private boolean failed;

    NettyFrameDecoder() {
        this(MAX_FRAME_BYTES);
    }

    /** A decoder of frames whose length is at most {@code maxFrameBytes}, not counting the length itself. */
    NettyFrameDecoder(int maxFrameBytes) {
        super(maxFrameBytes + LENGTH_BYTES, 0, LENGTH_BYTES, 0, LENGTH_BYTES);
        this.maxFrameBytes = maxFrameBytes;
    }

    @Override
    protected Object decode(ChannelHandlerContext ctx, ByteBuf in) throws Exception {
        if (failed) {
            in.skipBytes(in.readableBytes());
            return null;
        }
        if (in.readableBytes() >= LENGTH_BYTES) {
            int length = in.getInt(in.readerIndex());
            if (length < 0 || length > maxFrameBytes) {
                fail(ctx, in, "frame length " + length + " outside [0, " + maxFrameBytes + "]");
                return null;
            }
        }
        return super.decode(ctx, in);
    }

    private void fail(ChannelHandlerContext ctx, ByteBuf in, String reason) {
        failed = true;
        in.skipBytes(in.readableBytes());
        log.warn("closing connection {}: {}", ctx.channel().remoteAddress(), reason);
        ctx.fireExceptionCaught(new CorruptedFrameException(reason));
        ctx.close();
    }
}
