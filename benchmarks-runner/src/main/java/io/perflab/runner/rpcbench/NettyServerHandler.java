package io.perflab.runner.rpcbench;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.flush.FlushConsolidationHandler;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The bare-Netty server's end of a connection: answers each request ({@link NettyMessages}) on the event loop,
 * its writes flushed once per read batch; or, given workers, hands each request to a worker, which builds the
 * answer and hands it back to the event loop with {@code writeAndFlush} (batched by a
 * {@link FlushConsolidationHandler} in front of the decoder), as the engine's service pool does. A request that
 * cannot be answered closes the connection with one log line. Per channel.
 */
final class NettyServerHandler extends ChannelInboundHandlerAdapter {

    private static final Logger log = LoggerFactory.getLogger(NettyServerHandler.class);

    private final NettyMessages messages;
    private final Executor workers;
    private final Runnable work;
    private boolean closing;

    /**
     * @param workers where answers are built; null to build them on the event loop
     * @param work what the server does for each call before it answers ({@link ServerWork})
     */
    NettyServerHandler(NettyMessages messages, Executor workers, Runnable work) {
        this.messages = messages;
        this.workers = workers;
        this.work = work;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf request = (ByteBuf) msg;
        if (closing) {
            request.release();
            return;
        }
        String problem = messages.requestProblem(request);
        if (problem != null) {
            request.release();
            closing = true;
            log.warn("closing connection {}: {}", ctx.channel().remoteAddress(), problem);
            ctx.close();
        } else if (workers == null) {
            work.run();
            ctx.write(messages.answer(ctx.alloc(), request));
        } else {
            workers.execute(() -> {
                work.run();
                ctx.writeAndFlush(messages.answer(ctx.alloc(), request));
            });
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (workers == null) {
            ctx.flush();
        }
    }

    /** A broken connection or a frame the decoder refused (it logged why): the connection is done. */
    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        closing = true;
        ctx.close();
    }
}
