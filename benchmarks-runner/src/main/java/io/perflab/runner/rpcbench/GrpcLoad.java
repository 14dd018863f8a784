package io.perflab.runner.rpcbench;

import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.IoHandlerFactory;
import io.grpc.netty.shaded.io.netty.channel.MultiThreadIoEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.ServerChannel;
import io.grpc.netty.shaded.io.netty.channel.epoll.Epoll;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollIoHandler;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollServerSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.nio.NioIoHandler;
import io.grpc.netty.shaded.io.netty.channel.socket.SocketChannel;
import io.grpc.netty.shaded.io.netty.channel.socket.nio.NioServerSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.socket.nio.NioSocketChannel;
import io.grpc.netty.shaded.io.netty.util.concurrent.DefaultThreadFactory;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.HdrHistogram.SingleWriterRecorder;

/**
 * rpc-bench on gRPC-java (grpc-netty-shaded), configured as its users would at their best and with the engine's
 * topology: a server with one boss and {@code serverReactors} worker event loops (epoll where available) and an
 * executor of {@code workerThreads} threads (0: {@code directExecutor}, handlers on the event loops, as the
 * engine's handlers run on its reactors); plaintext. Each sync client thread has its own {@link ManagedChannel}
 * (one event loop, one connection) and calls {@link ClientCalls#blockingUnaryCall}; in async mode
 * {@code clientThreads} channels carry {@code asyncConcurrency} call chains of {@link ClientCalls#asyncUnaryCall},
 * completions on the channel's event loop ({@code directExecutor}), as the engine's run on its client reactor.
 * Every call has the engine's 10 s deadline. Messages are described in {@link GrpcMessages}.
 */
abstract class GrpcLoad extends Load {

    private static final boolean EPOLL = Epoll.isAvailable();

    final Workload workload;
    final MethodDescriptor<byte[], byte[]> method;
    private final EventLoopGroup boss;
    private final EventLoopGroup serverLoops;
    private final ExecutorService serverExecutor;
    private final Server server;
    private final List<ManagedChannel> channels = new ArrayList<>();
    private final List<EventLoopGroup> clientLoops = new ArrayList<>();

    private GrpcLoad(Workload workload) {
        this.workload = workload;
        this.method = GrpcMessages.method(workload);
        boss = newGroup(1, "grpc-bench-boss");
        serverLoops = newGroup(workload.serverReactors(), "grpc-bench-server");
        serverExecutor = workload.workerThreads() == 0 ? null
                : Executors.newFixedThreadPool(workload.workerThreads(),
                        new DefaultThreadFactory("grpc-bench-worker", true));
        NettyServerBuilder builder = NettyServerBuilder
                .forAddress(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
                .bossEventLoopGroup(boss)
                .workerEventLoopGroup(serverLoops)
                .channelType(serverChannel())
                .addService(service(ServerWork.of(workload.serverWorkNanos())));
        if (serverExecutor == null) {
            builder.directExecutor();
        } else {
            builder.executor(serverExecutor);
        }
        try {
            server = builder.build().start();
        } catch (IOException e) {
            shutDownGroupsAndExecutor();
            throw new UncheckedIOException("gRPC server did not start: " + e.getMessage(), e);
        }
    }

    static Load open(Workload workload) {
        GrpcLoad load = workload.mode() == CallMode.SYNC ? new Sync(workload) : new Async(workload);
        return connected(load);
    }


    private static ServerServiceDefinition service(Runnable work) {
        return ServerServiceDefinition.builder(GrpcMessages.SERVICE)
                .addMethod(GrpcMessages.ADD, ServerCalls.asyncUnaryCall(answer(GrpcMessages::add, work)))
                .addMethod(GrpcMessages.ECHO, ServerCalls.asyncUnaryCall(answer(GrpcMessages::echo, work)))
                .build();
    }

    private static ServerCalls.UnaryMethod<byte[], byte[]> answer(UnaryOperator<byte[]> handler, Runnable work) {
        return (request, responses) -> {
            work.run();
            byte[] response;
            try {
                response = handler.apply(request);
            } catch (IllegalArgumentException e) {
                responses.onError(Status.INVALID_ARGUMENT.withDescription(e.getMessage()).asRuntimeException());
                return;
            }
            responses.onNext(response);
            responses.onCompleted();
        };
    }

    /** A channel with its own event loop and connection, as each engine client has its own reactor. */
    ManagedChannel newChannel(int index) {
        EventLoopGroup loop = newGroup(1, "grpc-bench-client-loop-" + index);
        clientLoops.add(loop);
        InetSocketAddress address = (InetSocketAddress) server.getListenSockets().get(0);
        ManagedChannel channel = NettyChannelBuilder.forAddress(address)
                .usePlaintext()
                .eventLoopGroup(loop)
                .channelType(clientChannel())
                .directExecutor()
                .build();
        channels.add(channel);
        // a channel connects on its first call: make that call here, in the setup, as the other stacks connect
        // before their load starts; it also loads gRPC's classes outside the warmup's first window
        GrpcMessages.check(workload, ClientCalls.blockingUnaryCall(channel, method, callOptions(),
                GrpcMessages.request(workload, 0)));
        return channel;
    }

    CallOptions callOptions() {
        return CallOptions.DEFAULT.withDeadlineAfter(CALL_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
    }

    void fail(Throwable error) {
        Status status = Status.fromThrowable(error);
        fail(status.getCode() + ": " + (status.getDescription() == null ? error : status.getDescription()));
    }

    @Override
    void release() {
        channels.forEach(ManagedChannel::shutdownNow);
        for (ManagedChannel channel : channels) {
            awaitQuietly(() -> channel.awaitTermination(5, TimeUnit.SECONDS));
        }
        server.shutdownNow();
        awaitQuietly(() -> server.awaitTermination(5, TimeUnit.SECONDS));
        clientLoops.forEach(loop -> loop.shutdownGracefully(0, 1, TimeUnit.SECONDS));
        shutDownGroupsAndExecutor();
    }

    private void shutDownGroupsAndExecutor() {
        serverLoops.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        boss.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        if (serverExecutor != null) {
            serverExecutor.shutdownNow();
        }
    }

    private interface Await {
        boolean await() throws InterruptedException;
    }

    private static void awaitQuietly(Await await) {
        try {
            await.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static EventLoopGroup newGroup(int threads, String name) {
        IoHandlerFactory factory = EPOLL ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        return new MultiThreadIoEventLoopGroup(threads, new DefaultThreadFactory(name, true), factory);
    }

    private static Class<? extends ServerChannel> serverChannel() {
        return EPOLL ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
    }

    private static Class<? extends SocketChannel> clientChannel() {
        return EPOLL ? EpollSocketChannel.class : NioSocketChannel.class;
    }

    /** Sync mode: one thread, one channel, one blocking call at a time each. */
    private static final class Sync extends GrpcLoad {

        Sync(Workload workload) {
            super(workload);
        }

        @Override
        void connect() {
            for (int i = 0; i < workload.clientThreads(); i++) {
                ManagedChannel channel = newChannel(i);
                SingleWriterRecorder recorder = newRecorder();
                Thread thread = new Thread(() -> callInLoop(channel, recorder), "grpc-bench-client-" + i);
                thread.setDaemon(true);
                clientThreads.add(thread);
            }
        }

        private void callInLoop(ManagedChannel channel, SingleWriterRecorder recorder) {
            int x = 0;
            while (proceed()) {
                long start = System.nanoTime();
                try {
                    byte[] response = ClientCalls.blockingUnaryCall(channel, method, callOptions(),
                            GrpcMessages.request(workload, x++));
                    GrpcMessages.check(workload, response);
                    record(recorder, start);
                } catch (StatusRuntimeException | IllegalStateException e) {
                    fail(e);
                }
            }
        }
    }

    /** Async mode: call chains spread over the channels, each completion issuing the chain's next call. */
    private static final class Async extends GrpcLoad {
        private final List<Chain> chains = new ArrayList<>();

        Async(Workload workload) {
            super(workload);
        }

        @Override
        void connect() {
            List<ManagedChannel> perClient = new ArrayList<>();
            List<SingleWriterRecorder> recordersPerClient = new ArrayList<>();
            for (int i = 0; i < workload.clientThreads(); i++) {
                perClient.add(newChannel(i));
                recordersPerClient.add(newRecorder());
            }
            for (int i = 0; i < workload.asyncConcurrency(); i++) {
                chains.add(new Chain(perClient.get(i % perClient.size()),
                        recordersPerClient.get(i % perClient.size())));
            }
            chainsEnded = new CountDownLatch(chains.size());
        }

        @Override
        void start() {
            chains.forEach(Chain::next);
        }

        /**
         * One outstanding call at a time; completions run on the channel's event loop, the only writer of its
         * recorder. A failed call ends its chain.
         */
        private final class Chain implements StreamObserver<byte[]> {
            private final ManagedChannel channel;
            private final SingleWriterRecorder recorder;
            private long start;
            private int x;
            private boolean answered;
            private boolean ended;

            Chain(ManagedChannel channel, SingleWriterRecorder recorder) {
                this.channel = channel;
                this.recorder = recorder;
            }

            void next() {
                if (!running) {
                    end();
                    return;
                }
                if (deferWhilePaused(this::next)) {
                    return;
                }
                answered = false;
                start = System.nanoTime();
                ClientCalls.asyncUnaryCall(channel.newCall(method, callOptions()),
                        GrpcMessages.request(workload, x++), this);
            }

            @Override
            public void onNext(byte[] response) {
                try {
                    GrpcMessages.check(workload, response);
                    answered = true;
                } catch (IllegalStateException e) {
                    fail(e.getMessage());
                }
            }

            @Override
            public void onError(Throwable error) {
                fail(error);
                end();
            }

            @Override
            public void onCompleted() {
                if (!answered) {
                    end();
                    return;
                }
                record(recorder, start);
                next();
            }

            private void end() {
                if (!ended) {
                    ended = true;
                    chainsEnded.countDown();
                }
            }
        }
    }
}
