package io.perflab.runner.rpcbench;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import java.nio.channels.ClosedChannelException;
import java.util.ArrayDeque;

/**
 * The bare-Netty client's end of a connection: writes each {@link Call}'s request frame and completes the calls
 * with the answers in the order they were written, as the frames carry no call ids. Answers are checked against
 * the workload ({@link NettyMessages}); a wrong one fails its call only. A closed connection fails every
 * outstanding call and every later one, with the reason when one is known. A caller that gives up on a call
 * closes the connection with a {@link Close} event: with no call ids, the late answer would otherwise complete
 * the next call. Calls written from the event loop are flushed once per read batch. Only the event loop runs this
 * handler, so the outstanding calls need no locking. Per channel.
 */
final class NettyClientHandler extends ChannelDuplexHandler {

    /**
     * A call written to a connection: its request frame and where its outcome goes. Reusable call after call: each
     * time, the caller sets the request and writes the call; the handler takes the request and writes it.
     */
    abstract static class Call {
        private ByteBuf request;

        /** Sets the request frame of the next write of this call. */
        final void request(ByteBuf frame) {
            request = frame;
        }

        final ByteBuf takeRequest() {
            ByteBuf taken = request;
            request = null;
            return taken;
        }

        /** The answer came and is what the workload expects. */
        abstract void answered();

        /** The call failed: a wrong answer, or the connection closed. */
        abstract void failed(String description);
    }

    /**
     * A user event that closes the connection, failing its outstanding calls and every later one with
     * {@code reason}; fired from any thread, it is handled on the event loop.
     */
    record Close(String reason) {
    }

    private final NettyMessages messages;
    private final ArrayDeque<Call> outstanding = new ArrayDeque<>();
    private String closedReason;

    NettyClientHandler(NettyMessages messages) {
        this.messages = messages;
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        Call call = (Call) msg;
        ByteBuf request = call.takeRequest();
        if (closedReason != null) {
            request.release();
            promise.tryFailure(new ClosedChannelException());
            call.failed(closedReason);
            return;
        }
        outstanding.add(call);
        ctx.write(request, promise);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf answer = (ByteBuf) msg;
        Call call = outstanding.poll();
        String problem;
        try {
            if (call == null) {
                return; // an answer to no call: the server answered more often than it was asked
            }
            problem = messages.answerProblem(answer);
        } finally {
            answer.release();
        }
        if (problem == null) {
            call.answered();
        } else {
            call.failed(problem);
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        ctx.flush();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
        if (event instanceof Close close) {
            if (closedReason == null) {
                closedReason = close.reason();
            }
            ctx.close();
            return;
        }
        ctx.fireUserEventTriggered(event);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (closedReason == null) {
            closedReason = "connection failed: " + (cause.getMessage() != null ? cause.getMessage() : cause);
        }
        ctx.close();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (closedReason == null) {
            closedReason = "connection closed";
        }
        Call call;
        while ((call = outstanding.poll()) != null) {
            call.failed(closedReason);
        }
        ctx.fireChannelInactive();
    }
}
