package io.perflab.runner.rpcbench;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.flush.FlushConsolidationHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.perflab.rpc.EngineOptions;
import io.perflab.rpc.Transports;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * rpc-bench on bare Netty, the floor for any Netty-based engine: the bootstraps and threads of its server and
 * clients. The engine's default transport, channels and allocator ({@link Transports}: epoll where available,
 * pooled with thread caches for every thread) and the engine's threads: {@code serverReactors} server event
 * loops behind one boss, one event loop per client connection, and — when {@code workerThreads} is above 0 — a
 * pool of that many workers that build the answers and hand them back to the event loop, as the engine's service
 * pool does. What it leaves out is the engine's call management: no call ids, methods, status or call tracking;
 * only the client keeps the engine's call deadline ({@link NettyClientHandler}), and a call past it closes its
 * connection.
 *
 * <p>Pipelines: server {@code [FlushConsolidationHandler (with workers)] → NettyFrameDecoder →
 * NettyServerHandler}; client {@code NettyFrameDecoder → NettyClientHandler}. Frames are drawn in
 * {@link NettyFrameDecoder} and {@link NettyMessages}.
 */
final class NettyStack implements RpcStack {

    private static final EngineOptions.Transport TRANSPORT =
            Transports.effective(EngineOptions.defaults().transport());
    private static final ByteBufAllocator ALLOCATOR = Transports.allocator(EngineOptions.defaults().allocator());

    private final NettyMessages messages;
    private final EventLoopGroup boss;
    private final EventLoopGroup serverLoops;
    private final ExecutorService workers;
    private final Channel serverChannel;
    private final List<EventLoopGroup> clientLoops = new ArrayList<>();
    private final List<Channel> clientChannels = new ArrayList<>();

    NettyStack(Workload workload) {
        messages = new NettyMessages(workload);
        boss = Transports.newGroup(TRANSPORT, 1, "netty-bench-boss");
        serverLoops = Transports.newGroup(TRANSPORT, workload.serverReactors(), "netty-bench-server");
        workers = workload.workerThreads() == 0 ? null
                : Executors.newFixedThreadPool(workload.workerThreads(),
                        new DefaultThreadFactory("netty-bench-worker", true));
        ServerWork work = ServerWork.of(workload.serverWorkNanos());
        ServerBootstrap bootstrap = new ServerBootstrap().group(boss, serverLoops)
                .channel(Transports.serverChannel(TRANSPORT))
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
                        channel.pipeline().addLast(new NettyFrameDecoder(),
                                new NettyServerHandler(messages, workers, work));
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

    /** A connection on its own event loop, as each engine client has its own reactor. */
    @Override
    public Connection connect(int index) {
        EventLoopGroup loop = Transports.newGroup(TRANSPORT, 1, "netty-bench-client-loop-" + index);
        clientLoops.add(loop);
        Channel channel = new Bootstrap().group(loop).channel(Transports.clientChannel(TRANSPORT))
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.ALLOCATOR, ALLOCATOR)
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel channel) {
                        channel.pipeline().addLast(new NettyFrameDecoder(), new NettyClientHandler(messages));
                    }
                })
                .connect(serverChannel.localAddress()).syncUninterruptibly().channel();
        clientChannels.add(channel);
        return new NettyConnection(channel, messages);
    }

    @Override
    public void close() {
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
}
