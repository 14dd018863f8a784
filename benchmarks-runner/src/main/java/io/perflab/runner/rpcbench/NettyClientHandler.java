package io.perflab.runner.rpcbench;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.util.concurrent.ScheduledFuture;
import io.netty.util.concurrent.Ticker;
import java.nio.channels.ClosedChannelException;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;

/**
 * The bare-Netty client's end of a connection: writes each {@link Call}'s request frame and completes the calls
 * with the answers in the order they were written, as the frames carry no call ids. Answers are checked against
 * the workload ({@link NettyMessages}); a wrong one fails its call only. A closed connection fails every
 * outstanding call and every later one, with the reason when one is known. A caller that gives up on a call
 * closes the connection with a {@link Close} event: with no call ids, the late answer would otherwise complete
 * the next call. Calls written from the event loop are flushed once per read batch. Only the event loop runs this
 * handler, so the outstanding calls need no locking. Per channel.
 *
 * <p>Deadlines: every call has {@code callTimeoutMillis} from its write to its answer, the engine's call timeout
 * ({@link Load#CALL_TIMEOUT_MILLIS}). As in the engine's {@code ClientConnectionHandler}, one sweep per connection
 * runs on the event loop at the earliest deadline and is scheduled again for the earliest one still outstanding;
 * here that is always the oldest call, as calls are answered in the order they were written and all have the same
 * timeout, so the sweep looks at that call alone. A call written while the sweep is scheduled costs a clock read,
 * not a timer, and a connection whose calls are answered in time wakes its event loop once per timeout. A call
 * past its deadline closes the connection, as a caller that gives up does, and every outstanding call fails with
 * a reason that names it and its timeout.
 */
final class NettyClientHandler extends ChannelDuplexHandler {

    /**
     * A call written to a connection: its request frame and where its outcome goes. Reusable call after call: each
     * time, the caller sets the request and writes the call; the handler takes the request and writes it.
     */
    abstract static class Call {
        private ByteBuf request;
        /** When this call, as last written, times out, on the event loop's clock. */
        private long deadlineNanos;
        /** Which call of its connection this is, counted from 1 in the order written, to name it when it times out. */
        private long number;

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
    private final long callTimeoutMillis;
    private final long callTimeoutNanos;
    private final ArrayDeque<Call> outstanding = new ArrayDeque<>();
    private String closedReason;
    /** The event loop's clock, which its scheduled tasks keep to (a test's embedded channel moves it by hand). */
    private Ticker ticker;
    private long callsWritten;
    /** The sweep of calls past their deadline, scheduled no later than the oldest call's; null when none is. */
    private ScheduledFuture<?> sweep;

    NettyClientHandler(NettyMessages messages) {
        this(messages, Load.CALL_TIMEOUT_MILLIS);
    }

    NettyClientHandler(NettyMessages messages, long callTimeoutMillis) {
        this.messages = messages;
        this.callTimeoutMillis = callTimeoutMillis;
        this.callTimeoutNanos = TimeUnit.MILLISECONDS.toNanos(callTimeoutMillis);
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        ticker = ctx.executor().ticker();
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
        call.number = ++callsWritten;
        call.deadlineNanos = ticker.nanoTime() + callTimeoutNanos;
        outstanding.add(call);
        if (sweep == null) {
            sweepAt(ctx, call.deadlineNanos);
        }
        ctx.write(request, promise);
    }

    private void sweepAt(ChannelHandlerContext ctx, long deadlineNanos) {
        sweep = ctx.executor().schedule(() -> failIfOverdue(ctx), deadlineNanos - ticker.nanoTime(),
                TimeUnit.NANOSECONDS);
    }

    /**
     * The sweep: closes the connection if its oldest call is past its deadline, else waits for that deadline. With
     * no call outstanding it waits for none; the next call written schedules it again.
     */
    private void failIfOverdue(ChannelHandlerContext ctx) {
        sweep = null;
        Call oldest = outstanding.peek();
        if (oldest == null || closedReason != null) {
            return;
        }
        if (ticker.nanoTime() - oldest.deadlineNanos < 0) {
            sweepAt(ctx, oldest.deadlineNanos);
            return;
        }
        int others = outstanding.size() - 1;
        closedReason = messages.method() + " call " + oldest.number + " of this connection timed out after "
                + callTimeoutMillis + " ms; the connection is closed"
                + (others == 0 ? "" : ", failing " + others + (others == 1 ? " other call" : " other calls")
                        + " in flight")
                + ", as its answers carry no call ids and the late answer would be taken for the next call's";
        ctx.close();
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
        if (sweep != null) {
            sweep.cancel(false);
            sweep = null;
        }
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
