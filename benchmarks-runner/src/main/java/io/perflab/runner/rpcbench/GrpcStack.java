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
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

/**
 * rpc-bench on gRPC-java (grpc-netty-shaded), configured as its users would at their best and with the engine's
 * topology: a server with one boss and {@code serverReactors} worker event loops (epoll where available) and an
 * executor of {@code workerThreads} threads (0: {@code directExecutor}, handlers on the event loops, as the
 * engine's handlers run on its reactors); plaintext. Each connection is its own {@link ManagedChannel} (one event
 * loop, one connection); sync calls are {@link ClientCalls#blockingUnaryCall}, async ones
 * {@link ClientCalls#asyncUnaryCall} with completions on the channel's event loop ({@code directExecutor}), as the
 * engine's run on its client reactor. Every call has the engine's 10 s deadline, and both ends accept messages as
 * large as a workload's payloads ({@link #maxMessageBytes}). Messages are described in {@link GrpcMessages}.
 *
 * <p>The event loops are built here rather than by the engine's {@code Transports}: gRPC runs on its own shaded
 * copy of Netty, whose classes are not the engine's.
 */
final class GrpcStack implements RpcStack {

    private static final boolean EPOLL = Epoll.isAvailable();

    private final Workload workload;
    private final MethodDescriptor<byte[], byte[]> method;
    private final EventLoopGroup boss;
    private final EventLoopGroup serverLoops;
    private final ExecutorService serverExecutor;
    private final Server server;
    private final List<ManagedChannel> channels = new ArrayList<>();
    private final List<EventLoopGroup> clientLoops = new ArrayList<>();

    GrpcStack(Workload workload) {
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
                .maxInboundMessageSize(maxMessageBytes(workload))
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

    /**
     * The largest message the server and the clients accept: Echo's request header and the largest payload a
     * workload may ask for ({@link WorkloadSettings#MAX_PAYLOAD_BYTES}), or this workload's own if larger. gRPC's
     * default of 4 MiB refused a 5 MB answer with {@code RESOURCE_EXHAUSTED}, a limit the other stacks do not have.
     */
    static int maxMessageBytes(Workload workload) {
        long payload = Math.max(WorkloadSettings.MAX_PAYLOAD_BYTES,
                Math.max(workload.requestBytes(), workload.responseBytes()));
        return (int) Math.min(CalculatorMessages.ECHO_HEADER_BYTES + payload, Integer.MAX_VALUE);
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

    /**
     * A channel with its own event loop and connection. A channel connects on its first call: that call is made
     * here, in the setup, as the other stacks connect before their load starts; it also loads gRPC's classes
     * outside the warmup's first window.
     */
    @Override
    public Connection connect(int index) {
        EventLoopGroup loop = newGroup(1, "grpc-bench-client-loop-" + index);
        clientLoops.add(loop);
        InetSocketAddress address = (InetSocketAddress) server.getListenSockets().get(0);
        ManagedChannel channel = NettyChannelBuilder.forAddress(address)
                .usePlaintext()
                .maxInboundMessageSize(maxMessageBytes(workload))
                .eventLoopGroup(loop)
                .channelType(clientChannel())
                .directExecutor()
                .build();
        channels.add(channel);
        GrpcMessages.check(workload, ClientCalls.blockingUnaryCall(channel, method, callOptions(),
                GrpcMessages.request(workload, 0)));
        return new ChannelConnection(channel);
    }

    @Override
    public void close() {
        channels.forEach(ManagedChannel::shutdownNow);
        for (ManagedChannel channel : channels) {
            awaitQuietly(() -> channel.awaitTermination(5, TimeUnit.SECONDS));
        }
        server.shutdownNow();
        awaitQuietly(() -> server.awaitTermination(5, TimeUnit.SECONDS));
        clientLoops.forEach(loop -> loop.shutdownGracefully(0, 1, TimeUnit.SECONDS));
        shutDownGroupsAndExecutor();
    }

    private CallOptions callOptions() {
        return CallOptions.DEFAULT.withDeadlineAfter(Load.CALL_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
    }

    private static String describe(Throwable error) {
        Status status = Status.fromThrowable(error);
        return status.getCode() + ": " + (status.getDescription() == null ? error : status.getDescription());
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

    /** One client's channel. */
    private final class ChannelConnection implements Connection {
        private final ManagedChannel channel;

        ChannelConnection(ManagedChannel channel) {
            this.channel = channel;
        }

        @Override
        public void call(int x) throws CallFailedException {
            byte[] response;
            try {
                response = ClientCalls.blockingUnaryCall(channel, method, callOptions(),
                        GrpcMessages.request(workload, x));
            } catch (StatusRuntimeException e) {
                throw new CallFailedException(describe(e));
            }
            try {
                GrpcMessages.check(workload, response);
            } catch (IllegalStateException e) {
                throw new CallFailedException(e.getMessage());
            }
        }

        @Override
        public AsyncCaller asyncCaller(CallListener listener) {
            return new ChainCaller(listener);
        }

        /** One chain's calls; gRPC calls this observer back on the channel's event loop. */
        private final class ChainCaller implements AsyncCaller, StreamObserver<byte[]> {
            private final CallListener listener;
            /** What was wrong with the answer of the current call, or null while it is fine (or yet to come). */
            private String wrongAnswer;
            private boolean answered;

            ChainCaller(CallListener listener) {
                this.listener = listener;
            }

            @Override
            public void call(int x) {
                answered = false;
                wrongAnswer = null;
                ClientCalls.asyncUnaryCall(channel.newCall(method, callOptions()),
                        GrpcMessages.request(workload, x), this);
            }

            @Override
            public void onNext(byte[] response) {
                try {
                    GrpcMessages.check(workload, response);
                    answered = true;
                } catch (IllegalStateException e) {
                    wrongAnswer = e.getMessage();
                }
            }

            @Override
            public void onError(Throwable error) {
                listener.failed(describe(error));
            }

            @Override
            public void onCompleted() {
                if (answered) {
                    listener.answered();
                } else {
                    listener.failed(wrongAnswer != null ? wrongAnswer : "completed without an answer");
                }
            }
        }
    }
}
