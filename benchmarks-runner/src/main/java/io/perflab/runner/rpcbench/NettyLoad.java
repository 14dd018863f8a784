package io.perflab.runner.rpcbench;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.flush.FlushConsolidationHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.SingleWriterRecorder;

/**
 * rpc-bench on bare Netty: the floor for any Netty-based engine. Same transport (epoll where available), same
 * pooled allocator as the engine's default, same threads: {@code serverReactors} server event loops, one event
 * loop per client, and — when {@code workerThreads} is above 0 — a hand-off of every request to a pool of that
 * many threads, which build the response and hand it back to the event loop, as the engine's service pool does.
 * What it leaves out is the engine's call management: no call ids, methods, deadlines, status or call tracking.
 *
 * <p>Wire format, both ways:
 * <pre>
 * +----------------+---------------------------+
 * | length: int32  | body: length bytes        |
 * +----------------+---------------------------+
 * </pre>
 * The server answers what the workload calls, with the engine's message layout: Add's body is
 * {@code int32 x, int32 y} and its answer {@code int32 x + y}; Echo's body is {@code int32 responseBytes} then the
 * payload, and its answer {@code responseBytes} bytes, the payload's first bytes padded with zeros.
 *
 * <p>Sync mode: each client thread writes one frame and parks until its connection's handler has the answer.
 * Async mode: each connection keeps its share of {@code asyncConcurrency} frames outstanding; with no call ids,
 * answers are matched to requests in order (exact with one worker or none; with several workers answers may
 * overtake each other, which only shifts latencies between calls of the same connection).
 */
abstract class NettyLoad extends Load {

    private static final int MAX_FRAME_BYTES = 64 * 1024 * 1024;
    private static final int LENGTH_BYTES = 4;
    private static final boolean EPOLL = Epoll.isAvailable();
    /** The engine's default allocator: pooled, with thread caches for every thread (callers and workers too). */
    private static final ByteBufAllocator ALLOCATOR = new PooledByteBufAllocator(
            PooledByteBufAllocator.defaultPreferDirect(),
            PooledByteBufAllocator.defaultNumHeapArena(), PooledByteBufAllocator.defaultNumDirectArena(),
            PooledByteBufAllocator.defaultPageSize(), PooledByteBufAllocator.defaultMaxOrder(),
            PooledByteBufAllocator.defaultSmallCacheSize(), PooledByteBufAllocator.defaultNormalCacheSize(),
            true);

    final Workload workload;
    private final EventLoopGroup boss;
    private final EventLoopGroup serverLoops;
    private final ExecutorService workers;
    private final Channel serverChannel;
    private final List<EventLoopGroup> clientLoops = new ArrayList<>();
    private final List<Channel> clientChannels = new ArrayList<>();

    private NettyLoad(Workload workload) {
        this.workload = workload;
        boss = newGroup(1, "netty-bench-boss");
        serverLoops = newGroup(workload.serverReactors(), "netty-bench-server");
        workers = workload.workerThreads() == 0 ? null
                : Executors.newFixedThreadPool(workload.workerThreads(),
                        new DefaultThreadFactory("netty-bench-worker", true));
        ServerWork work = ServerWork.of(workload.serverWorkNanos());
        ServerBootstrap bootstrap = new ServerBootstrap().group(boss, serverLoops)
                .channel(serverChannelType())
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.ALLOCATOR, ALLOCATOR)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel channel) {
                        if (workers != null) {
                            // answers come back from the workers one by one: flush them in batches, as the
                            // engine's reactor does, instead of one write system call per answer
                            channel.pipeline().addLast(new FlushConsolidationHandler(
                                    FlushConsolidationHandler.DEFAULT_EXPLICIT_FLUSH_AFTER_FLUSHES, true));
                        }
                        channel.pipeline().addLast(frameDecoder(), new ServerHandler(workload.echo(), workers, work));
                    }
                });
        try {
            serverChannel = bootstrap.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
                    .syncUninterruptibly().channel();
        } catch (RuntimeException e) {
            shutDownServer();
            throw e;
        }
    }

    static Load open(Workload workload) {
        NettyLoad load = workload.mode() == CallMode.SYNC ? new Sync(workload) : new Async(workload);
        return connected(load);
    }


    /** A connection on its own event loop, as each engine client has its own reactor. */
    final Channel newConnection(int index, ChannelHandler handler) {
        EventLoopGroup loop = newGroup(1, "netty-bench-client-loop-" + index);
        clientLoops.add(loop);
        SocketAddress address = serverChannel.localAddress();
        Channel channel = new Bootstrap().group(loop).channel(clientChannelType())
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.ALLOCATOR, ALLOCATOR)
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel channel) {
                        channel.pipeline().addLast(frameDecoder(), handler);
                    }
                })
                .connect(address).syncUninterruptibly().channel();
        clientChannels.add(channel);
        return channel;
    }

    /** One request frame: {@code x, 1} for Add, {@code responseBytes} and a zero payload for Echo. */
    final ByteBuf request(ByteBufAllocator alloc, int x) {
        if (workload.echo()) {
            int body = 4 + workload.requestBytes();
            return alloc.buffer(LENGTH_BYTES + body).writeInt(body).writeInt(workload.responseBytes())
                    .writeZero(workload.requestBytes());
        }
        return alloc.buffer(LENGTH_BYTES + 8).writeInt(8).writeInt(x).writeInt(1);
    }

    /** Checks an answer as the engine's client does (the sum for Add, the length for Echo) and releases it. */
    final int readAnswer(ByteBuf frame) {
        try {
            if (workload.echo()) {
                if (frame.readableBytes() != workload.responseBytes()) {
                    throw new IllegalStateException("Echo answered " + frame.readableBytes() + " bytes, expected "
                            + workload.responseBytes());
                }
                return frame.readableBytes();
            }
            if (frame.readableBytes() != 4) {
                throw new IllegalStateException("Add answered " + frame.readableBytes() + " bytes, expected 4");
            }
            return frame.readInt();
        } finally {
            frame.release();
        }
    }

    @Override
    void release() {
        clientChannels.forEach(channel -> channel.close().awaitUninterruptibly(1, TimeUnit.SECONDS));
        clientLoops.forEach(loop -> loop.shutdownGracefully(0, 1, TimeUnit.SECONDS));
        serverChannel.close().awaitUninterruptibly(1, TimeUnit.SECONDS);
        shutDownServer();
    }

    private void shutDownServer() {
        serverLoops.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        boss.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        if (workers != null) {
            workers.shutdownNow();
        }
    }

    private static LengthFieldBasedFrameDecoder frameDecoder() {
        return new LengthFieldBasedFrameDecoder(MAX_FRAME_BYTES, 0, LENGTH_BYTES, 0, LENGTH_BYTES);
    }

    private static EventLoopGroup newGroup(int threads, String name) {
        IoHandlerFactory factory = EPOLL ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        return new MultiThreadIoEventLoopGroup(threads, new DefaultThreadFactory(name, true), factory);
    }

    private static Class<? extends ServerChannel> serverChannelType() {
        return EPOLL ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
    }

    private static Class<? extends SocketChannel> clientChannelType() {
        return EPOLL ? EpollSocketChannel.class : NioSocketChannel.class;
    }

    /**
     * Answers each frame: on the event loop (writes flushed once per read batch), or on a worker, which hands the
     * answer back to the event loop with {@code writeAndFlush} (batched by a {@link FlushConsolidationHandler}).
     */
    static final class ServerHandler extends ChannelInboundHandlerAdapter {
        private final boolean echo;
        private final ExecutorService workers;
        private final Runnable work;

        ServerHandler(boolean echo, ExecutorService workers, Runnable work) {
            this.echo = echo;
            this.workers = workers;
            this.work = work;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf frame = (ByteBuf) msg;
            if (workers == null) {
                ctx.write(answer(ctx.alloc(), frame));
            } else {
                workers.execute(() -> ctx.writeAndFlush(answer(ctx.alloc(), frame)));
            }
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            if (workers == null) {
                ctx.flush();
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }

        private ByteBuf answer(ByteBufAllocator alloc, ByteBuf frame) {
            work.run();
            try {
                if (echo) {
                    int responseBytes = frame.readInt();
                    int copied = Math.min(responseBytes, frame.readableBytes());
                    return alloc.buffer(LENGTH_BYTES + responseBytes).writeInt(responseBytes)
                            .writeBytes(frame, copied).writeZero(responseBytes - copied);
                }
                return alloc.buffer(LENGTH_BYTES + 4).writeInt(4).writeInt(frame.readInt() + frame.readInt());
            } finally {
                frame.release();
            }
        }
    }

    /** Sync mode: one thread, one connection, one frame in flight each. */
    private static final class Sync extends NettyLoad {

        Sync(Workload workload) {
            super(workload);
        }

        @Override
        void connect() {
            for (int i = 0; i < workload.clientThreads(); i++) {
                Caller caller = new Caller();
                Channel channel = newConnection(i, caller);
                SingleWriterRecorder recorder = newRecorder();
                Thread thread = new Thread(() -> callInLoop(channel, caller, recorder), "netty-bench-client-" + i);
                thread.setDaemon(true);
                clientThreads.add(thread);
            }
        }

        private void callInLoop(Channel channel, Caller caller, SingleWriterRecorder recorder) {
            int x = 0;
            while (proceed()) {
                long start = System.nanoTime();
                String error = caller.call(channel, request(channel.alloc(), x++));
                if (error == null) {
                    record(recorder, start);
                } else {
                    fail(error);
                }
            }
        }

        /**
         * The calling thread's end of a connection: it writes a frame and parks until the handler, on the event
         * loop, has read the answer and unparked it.
         */
        private final class Caller extends ChannelInboundHandlerAdapter {
            private volatile Thread waiter;
            private volatile boolean answered;
            private volatile String error;

            /** Sends {@code request} and waits for the answer; returns null, or what went wrong. */
            String call(Channel channel, ByteBuf request) {
                if (error != null) {
                    request.release();
                    return error;
                }
                waiter = Thread.currentThread();
                answered = false;
                channel.writeAndFlush(request);
                long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(CALL_TIMEOUT_MILLIS);
                while (!answered && error == null) {
                    long remaining = deadline - System.nanoTime();
                    if (remaining <= 0) {
                        return "no answer within " + CALL_TIMEOUT_MILLIS + " ms";
                    }
                    LockSupport.parkNanos(this, remaining);
                }
                return answered ? null : error;
            }

            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                try {
                    readAnswer((ByteBuf) msg);
                    answered = true;
                } catch (IllegalStateException e) {
                    error = e.getMessage();
                }
                LockSupport.unpark(waiter);
            }

            @Override
            public void channelInactive(ChannelHandlerContext ctx) {
                error = "connection closed";
                LockSupport.unpark(waiter);
            }

            @Override
            public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                error = "connection failed: " + cause;
                ctx.close();
            }
        }
    }

    /** Async mode: each connection keeps its share of the outstanding frames, refilled from its event loop. */
    private static final class Async extends NettyLoad {
        private final List<Pipeline> pipelines = new ArrayList<>();

        Async(Workload workload) {
            super(workload);
        }

        @Override
        void connect() {
            int connections = workload.clientThreads();
            for (int i = 0; i < connections; i++) {
                int share = workload.asyncConcurrency() / connections
                        + (i < workload.asyncConcurrency() % connections ? 1 : 0);
                Pipeline pipeline = new Pipeline(share, newRecorder());
                pipeline.channel = newConnection(i, pipeline);
                pipelines.add(pipeline);
            }
            chainsEnded = new CountDownLatch(workload.asyncConcurrency());
        }

        @Override
        void start() {
            pipelines.forEach(Pipeline::start);
        }

        /**
         * The frames in flight on one connection and their start times, oldest first; event-loop confined. Each
         * answer records the oldest start and, while running, sends the next frame; writes are flushed once per
         * read batch.
         */
        private final class Pipeline extends ChannelInboundHandlerAdapter {
            private final int chains;
            private final SingleWriterRecorder recorder;
            private final long[] starts;
            private int head;
            private int inFlight;
            private int x;
            private Channel channel;

            Pipeline(int chains, SingleWriterRecorder recorder) {
                this.chains = chains;
                this.recorder = recorder;
                this.starts = new long[Math.max(1, chains)];
            }

            void start() {
                channel.eventLoop().execute(() -> {
                    for (int i = 0; i < chains; i++) {
                        send();
                    }
                    channel.flush();
                });
            }

            private void send() {
                starts[(head + inFlight) % starts.length] = System.nanoTime();
                inFlight++;
                channel.write(request(channel.alloc(), x++));
            }

            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                if (inFlight == 0) {
                    ((ByteBuf) msg).release();
                    return;
                }
                long start = starts[head];
                head = (head + 1) % starts.length;
                inFlight--;
                try {
                    readAnswer((ByteBuf) msg);
                } catch (IllegalStateException e) {
                    fail(e.getMessage());
                    chainsEnded.countDown();
                    return;
                }
                record(recorder, start);
                if (!running) {
                    chainsEnded.countDown();
                } else if (!deferWhilePaused(this::sendLater)) {
                    send();
                }
            }

            /** A chain deferred while the load was paused: its next frame, sent from the event loop. */
            private void sendLater() {
                channel.eventLoop().execute(() -> {
                    if (running) {
                        send();
                        channel.flush();
                    } else {
                        chainsEnded.countDown();
                    }
                });
            }

            @Override
            public void channelReadComplete(ChannelHandlerContext ctx) {
                ctx.flush();
            }

            @Override
            public void channelInactive(ChannelHandlerContext ctx) {
                while (inFlight > 0) {
                    inFlight--;
                    fail("connection closed");
                    chainsEnded.countDown();
                }
            }

            @Override
            public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                ctx.close();
            }
        }
    }
}
