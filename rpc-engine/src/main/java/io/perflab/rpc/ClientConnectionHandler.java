package io.perflab.rpc;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoop;
import io.netty.util.collection.IntObjectHashMap;
import io.netty.util.concurrent.ScheduledFuture;
import io.netty.util.internal.PlatformDependent;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Client end of one connection: tracks calls in flight by call id (responses may come in any
 * order), enforces deadlines, and fails every pending call when the connection goes away. The
 * pending-call map is touched only by this channel's event loop; callers hand calls over.
 * Over 300 lines: the call table, deadlines, batching of writes and failure of pending calls are one state.
 *
 * <p>Deadlines: one event-loop task per connection runs at the earliest deadline of the calls it had
 * pending when it was scheduled, fails those whose deadline has passed with {@code TIMED_OUT}, and is
 * scheduled again for the earliest deadline still pending; a response arriving later is dropped. A call
 * with a later deadline than the scheduled run (the usual case: every call of a connection carries the
 * same timeout) costs a comparison, not a timer; and a connection whose calls are answered in time
 * wakes its event loop once per timeout rather than on a fixed tick.
 *
 * <p>{@code flush=consolidated}: callers append to a queue and the first one schedules a drain task
 * that writes every queued request and flushes once. {@code flush=immediate}: each call is its own
 * event-loop task that writes and flushes. {@code callObjects=recycled}: calls (with their
 * completion) come from a bounded pool of this connection.
 */
final class ClientConnectionHandler extends ChannelInboundHandlerAdapter implements Runnable {

    private static final Logger log = LoggerFactory.getLogger(ClientConnectionHandler.class);
    private static final int CALL_POOL_SIZE = 1024;

    private final RpcClient client;
    private final boolean consolidated;
    private final EngineOptions.Completion completionKind;
    private final Queue<OutboundCall> callPool;
    private final Queue<OutboundCall> outbound;
    private final AtomicBoolean drainScheduled = new AtomicBoolean();
    private final IntObjectHashMap<OutboundCall> pending = new IntObjectHashMap<>();
    private final List<OutboundCall> expired = new ArrayList<>();
    private final String remote;
    private volatile Channel channel;
    private volatile RpcStatus closedStatus;
    private volatile String closedReason;
    private ChannelHandlerContext ctx;
    private EventLoop loop;
    private ByteBufAllocator alloc;
    /** The task that expires calls, scheduled for {@link #nextExpiryNanos}; null when none is. */
    private ScheduledFuture<?> timeoutTask;
    private long nextExpiryNanos;

    ClientConnectionHandler(RpcClient client, EngineOptions options, String remote) {
        this.client = client;
        this.remote = remote;
        this.consolidated = options.flush() == EngineOptions.Flush.CONSOLIDATED;
        this.completionKind = options.completion();
        this.callPool = options.callObjects() == EngineOptions.CallObjects.RECYCLED
                ? PlatformDependent.newFixedMpmcQueue(CALL_POOL_SIZE) : null;
        this.outbound = consolidated ? PlatformDependent.newMpscQueue() : null;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        this.channel = ctx.channel();
        this.loop = ctx.channel().eventLoop();
        this.alloc = ctx.alloc();
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        ctx.writeAndFlush(Unpooled.wrappedBuffer(WireFormat.PREAMBLE), ctx.voidPromise());
        ctx.fireChannelActive();
    }

    ByteBufAllocator alloc() {
        return alloc;
    }

    /** Whether new calls may still use this connection. */
    boolean isUsable() {
        return closedStatus == null && channel.isActive();
    }

    OutboundCall acquire() {
        if (callPool != null) {
            OutboundCall call = callPool.poll();
            if (call != null) {
                return call;
            }
        }
        return new OutboundCall(this, Completion.create(completionKind));
    }

    /** Returns a completed call whose outcome has been read. */
    void release(OutboundCall call) {
        if (callPool != null) {
            call.clear();
            callPool.offer(call);
        }
    }

    /** From the calling thread: hand a prepared call to the event loop. */
    void submit(OutboundCall call) {
        RpcStatus closed = closedStatus;
        if (closed != null) {
            call.complete(closed, null, closedReason);
            return;
        }
        if (consolidated) {
            outbound.offer(call);
            if (drainScheduled.compareAndSet(false, true)) {
                try {
                    loop.execute(this);
                } catch (RejectedExecutionException e) {
                    failQueuedAfterShutdown();
                }
            }
        } else {
            try {
                loop.execute(call);
            } catch (RejectedExecutionException e) {
                call.complete(RpcStatus.SHUTDOWN, null, "client is shut down");
            }
        }
    }

    /** Drain task of {@code flush=consolidated}: write every queued request, flush once. */
    @Override
    public void run() {
        drainScheduled.set(false);
        drainOutbound();
    }

    private void drainOutbound() {
        if (outbound == null) {
            return;
        }
        boolean wrote = false;
        OutboundCall call;
        synchronized (outbound) {
            while ((call = outbound.poll()) != null) {
                wrote |= registerAndWrite(call, false);
            }
        }
        if (wrote) {
            ctx.flush();
        }
    }

    private void failQueuedAfterShutdown() {
        OutboundCall call;
        synchronized (outbound) {
            while ((call = outbound.poll()) != null) {
                call.complete(RpcStatus.SHUTDOWN, null, "client is shut down");
            }
        }
    }

    /** On the event loop: track the call and write its request. */
    boolean registerAndWrite(OutboundCall call, boolean flush) {
        RpcStatus closed = closedStatus;
        if (closed != null || !channel.isActive()) {
            call.complete(closed != null ? closed : RpcStatus.NETWORK_ERROR, null,
                    closedReason != null ? closedReason : "connection to " + remote + " is closed");
            return false;
        }
        pending.put(call.callId, call);
        expireBy(call.deadlineNanos);
        ByteBuf request = call.request;
        call.request = null;
        if (flush) {
            ctx.writeAndFlush(request, ctx.voidPromise());
        } else {
            ctx.write(request, ctx.voidPromise());
        }
        return true;
    }

    /** On the event loop: makes sure the expiry task runs no later than {@code deadlineNanos}. */
    private void expireBy(long deadlineNanos) {
        if (timeoutTask != null) {
            if (deadlineNanos - nextExpiryNanos >= 0) {
                return;
            }
            timeoutTask.cancel(false);
        }
        nextExpiryNanos = deadlineNanos;
        timeoutTask = loop.schedule(this::expireCalls, Math.max(0, deadlineNanos - System.nanoTime()),
                TimeUnit.NANOSECONDS);
    }

    /** The expiry task: fails the calls past their deadline, then waits for the earliest one still pending. */
    private void expireCalls() {
        timeoutTask = null;
        long now = System.nanoTime();
        boolean waiting = false;
        long earliest = 0;
        for (OutboundCall call : pending.values()) {
            if (now - call.deadlineNanos >= 0) {
                expired.add(call);
            } else if (!waiting || call.deadlineNanos - earliest < 0) {
                earliest = call.deadlineNanos;
                waiting = true;
            }
        }
        for (OutboundCall call : expired) {
            pending.remove(call.callId);
            call.complete(RpcStatus.TIMED_OUT, null, call.method + " timed out after " + call.timeoutMillis + " ms");
        }
        expired.clear();
        if (waiting) {
            expireBy(earliest);
        }
    }

    /** From any thread: cancel the call with this id if it has not completed yet. */
    void cancel(int callId) {
        try {
            loop.execute(() -> {
                drainOutbound();
                OutboundCall call = pending.remove(callId);
                if (call != null) {
                    call.complete(RpcStatus.CANCELLED, null, call.method + " cancelled by the caller");
                }
            });
        } catch (RejectedExecutionException e) {
            // shut down: every call has failed already
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf frame = (ByteBuf) msg;
        int callId = frame.readInt();
        int code = frame.readByte();
        OutboundCall call = pending.remove(callId);
        if (call == null) {
            frame.release(); // answered after its deadline or cancellation
            return;
        }
        RpcStatus status = RpcStatus.fromWireCode(code);
        if (status == null) {
            frame.release();
            String reason = "response for call " + callId + " has unknown status code " + code;
            log.warn("closing connection to {}: {}", remote, reason);
            call.complete(RpcStatus.NETWORK_ERROR, null, reason);
            closedReason = reason;
            ctx.close();
            return;
        }
        Object result = null;
        String detail = null;
        try {
            if (status == RpcStatus.OK) {
                result = call.reader.read(frame);
            } else {
                detail = frame.toString(StandardCharsets.UTF_8);
            }
        } catch (Exception e) {
            status = RpcStatus.INVALID_REQUEST;
            detail = "cannot decode the response of " + call.method + ": " + e;
        } finally {
            frame.release();
        }
        call.complete(status, result, detail);
    }

    /** From any thread: close; pending and later calls fail with {@code status}. */
    void close(RpcStatus status, String reason) {
        if (closedStatus == null) {
            closedReason = reason;
            closedStatus = status;
        }
        channel.close();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (closedStatus == null) {
            if (closedReason == null) {
                closedReason = "connection to " + remote + " closed";
            }
            closedStatus = RpcStatus.NETWORK_ERROR;
        }
        RpcStatus status = closedStatus;
        String reason = closedReason;
        if (outbound != null) {
            OutboundCall call;
            synchronized (outbound) {
                while ((call = outbound.poll()) != null) {
                    call.complete(status, null, reason);
                }
            }
        }
        if (!pending.isEmpty()) {
            List<OutboundCall> calls = new ArrayList<>(pending.values());
            pending.clear();
            for (OutboundCall call : calls) {
                call.complete(status, null, reason);
            }
        }
        if (timeoutTask != null) {
            timeoutTask.cancel(false);
            timeoutTask = null;
        }
        client.forget(this);
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (closedReason == null) {
            closedReason = "connection to " + remote + " failed: " + cause;
        }
        log.warn("closing connection to {}: {}", remote, String.valueOf(cause));
        ctx.close();
    }

    void protocolError(String reason) {
        closedReason = "connection to " + remote + " closed: " + reason;
    }
}
