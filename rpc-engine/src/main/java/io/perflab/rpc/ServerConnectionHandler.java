package io.perflab.rpc;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoop;
import io.netty.util.internal.PlatformDependent;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Server end of one connection: parses request headers, dispatches to the service pool (or runs
 * the method on this reactor when there are no workers) and writes responses. Only this channel's
 * event loop writes; workers hand finished calls back to it.
 *
 * <p>{@code flush=consolidated}: responses coming back from workers go through a queue drained by
 * one event-loop task that writes all of them and flushes once; responses produced while reading
 * are flushed once per read loop. {@code flush=immediate}: every response is written and flushed
 * by its own task. {@code callObjects=recycled}: inbound calls come from a pool owned by this event
 * loop (taken while reading, returned after the response is written).
 */
final class ServerConnectionHandler extends ChannelInboundHandlerAdapter implements Runnable {

    private static final Logger log = LoggerFactory.getLogger(ServerConnectionHandler.class);
    private static final int MAX_POOLED_CALLS = 1024;

    private final ServerMetrics metrics;
    private final LongSupplier nanoClock;
    private final int serviceQueueLength;
    private final MethodTable methods;
    private final ServicePool pool;
    private final boolean consolidated;
    private final int callBufferInitialBytes;
    private final int maxFrameBytes;
    private final int responseMaxCapacity;
    private final ArrayDeque<InboundCall> recycledCalls;
    private final Queue<InboundCall> responseQueue;
    private final AtomicBoolean drainScheduled = new AtomicBoolean();
    private ChannelHandlerContext ctx;
    private EventLoop loop;
    private ByteBufAllocator alloc;
    private boolean flushPending;
    private boolean readInProgress;

    ServerConnectionHandler(MethodTable methods, ServicePool pool, EngineOptions options, ServerConfig config,
                            ServerMetrics metrics, LongSupplier nanoClock) {
        this.metrics = metrics;
        this.nanoClock = nanoClock;
        this.serviceQueueLength = config.serviceQueueLength();
        this.methods = methods;
        this.pool = pool;
        this.consolidated = options.flush() == EngineOptions.Flush.CONSOLIDATED;
        this.maxFrameBytes = config.maxFrameBytes();
        // a response buffer holds at most a frame (its length field and maxFrameBytes), and starts no larger
        this.responseMaxCapacity = (int) Math.min((long) WireFormat.LENGTH_FIELD_BYTES + maxFrameBytes,
                Integer.MAX_VALUE);
        this.callBufferInitialBytes = Math.min(options.callBufferInitialBytes(), responseMaxCapacity);
        this.recycledCalls = options.callObjects() == EngineOptions.CallObjects.RECYCLED ? new ArrayDeque<>() : null;
        this.responseQueue = consolidated && pool != null ? PlatformDependent.newMpscQueue() : null;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        this.loop = ctx.channel().eventLoop();
        this.alloc = ctx.alloc();
    }

    ServerMetrics metrics() {
        return metrics;
    }

    ByteBufAllocator alloc() {
        return alloc;
    }

    /** Monotonic time for queue deadlines ({@code System::nanoTime} except in tests). */
    long nanoTime() {
        return nanoClock.getAsLong();
    }

    int callBufferInitialBytes() {
        return callBufferInitialBytes;
    }

    int maxFrameBytes() {
        return maxFrameBytes;
    }

    /** The most a response buffer may hold: one frame. */
    int responseMaxCapacity() {
        return responseMaxCapacity;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf frame = (ByteBuf) msg;
        readInProgress = true;
        int callId = frame.readInt();
        int timeoutMillis = frame.readInt();
        int flags = frame.readByte();
        int methodLength = frame.readUnsignedByte();
        if (methodLength == 0 || methodLength > frame.readableBytes() || timeoutMillis < 0) {
            String reason = "malformed request header (call id " + callId + ", method name length " + methodLength
                    + ", " + frame.readableBytes() + " bytes left, timeout " + timeoutMillis + " ms)";
            frame.release();
            metrics.protocolErrors.increment();
            log.warn("closing connection {}: {}", ctx.channel().remoteAddress(), reason);
            ctx.close();
            return;
        }
        MethodHandler handler = methods.lookup(frame, frame.readerIndex(), methodLength);
        if (handler == null) {
            String name = frame.toString(frame.readerIndex(), methodLength, StandardCharsets.US_ASCII);
            frame.release();
            writeOnLoop(WireFormat.errorResponse(alloc, callId, RpcStatus.NO_SUCH_METHOD,
                    "no method '" + name + "' on this server; it has " + methods.fullNames()));
            return;
        }
        frame.skipBytes(methodLength);
        if (flags != 0) {
            frame.release();
            writeOnLoop(WireFormat.errorResponse(alloc, callId, RpcStatus.INVALID_REQUEST,
                    "unknown request flags 0x" + Integer.toHexString(flags & 0xff)));
            return;
        }
        InboundCall call = acquire();
        call.init(callId, timeoutMillis, timeoutMillis > 0 ? nanoClock.getAsLong() : 0, handler, frame);
        if (pool == null) {
            call.execute();
        } else if (!pool.offer(call)) {
            metrics.queueOverflows.increment();
            call.discard();
            recycle(call);
            writeOnLoop(WireFormat.errorResponse(alloc, callId, RpcStatus.SERVER_TOO_BUSY,
                    "service queue full (" + serviceQueueLength + " calls)"));
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        readInProgress = false;
        if (flushPending) {
            flushPending = false;
            ctx.flush();
        }
        ctx.fireChannelReadComplete();
    }

    /** From the thread that ran the call: get its response written by the event loop. */
    void sendResponse(InboundCall call) {
        if (loop.inEventLoop()) {
            writeResponse(call);
            return;
        }
        try {
            if (consolidated) {
                responseQueue.offer(call);
                if (drainScheduled.compareAndSet(false, true)) {
                    loop.execute(this);
                }
            } else {
                loop.execute(call);
            }
        } catch (RejectedExecutionException e) {
            // The server is shutting down; the connection is gone with its event loop.
            call.discard();
        }
    }

    /** On the event loop: write one call's response. */
    void writeResponse(InboundCall call) {
        ByteBuf response = call.takeResponse();
        recycle(call);
        writeOnLoop(response);
    }

    /** Drains the consolidated response queue: write everything, flush once. */
    @Override
    public void run() {
        drainScheduled.set(false);
        InboundCall call;
        boolean wrote = false;
        while ((call = responseQueue.poll()) != null) {
            ByteBuf response = call.takeResponse();
            recycle(call);
            ctx.write(response, ctx.voidPromise());
            wrote = true;
        }
        if (wrote) {
            ctx.flush();
        }
    }

    /** On the event loop: consolidated writes made while reading are flushed at the end of the read loop. */
    private void writeOnLoop(ByteBuf response) {
        if (consolidated && readInProgress) {
            ctx.write(response, ctx.voidPromise());
            flushPending = true;
        } else {
            ctx.writeAndFlush(response, ctx.voidPromise());
        }
    }

    /** Calls waiting in this connection's pool (0 with {@code callObjects=fresh}). */
    int pooledCalls() {
        return recycledCalls == null ? 0 : recycledCalls.size();
    }

    private InboundCall acquire() {
        if (recycledCalls != null) {
            InboundCall call = recycledCalls.pollFirst();
            if (call != null) {
                return call;
            }
        }
        return new InboundCall(this);
    }

    private void recycle(InboundCall call) {
        if (recycledCalls != null && recycledCalls.size() < MAX_POOLED_CALLS) {
            call.clear();
            recycledCalls.addFirst(call);
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        log.warn("closing connection {}: {}", ctx.channel().remoteAddress(), String.valueOf(cause));
        ctx.close();
    }
}
