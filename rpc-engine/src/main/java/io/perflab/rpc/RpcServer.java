package io.perflab.rpc;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.ssl.SslContext;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server: an acceptor, {@code serverReactors} event loops serving connections, and a service
 * pool of {@code workerThreads} behind a queue of {@code serviceQueueLength} calls.
 *
 * <pre>{@code
 * try (RpcServer server = RpcServer.builder()
 *         .options(EngineOptions.defaults())
 *         .config(ServerConfig.defaults().withWorkerThreads(1))
 *         .addService(BenchmarkService.definition())
 *         .start()) {
 *     int port = server.port();
 * }
 * }</pre>
 */
public final class RpcServer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(RpcServer.class);

    private final EngineOptions options;
    private final ServerConfig config;
    private final EngineOptions.Transport transport;
    private final ServerMetrics metrics = new ServerMetrics();
    private final MethodTable methods;
    private final ServicePool pool;
    private final EventLoopGroup acceptor;
    private final EventLoopGroup reactors;
    private final ChannelGroup channels = new DefaultChannelGroup("rpc-server", GlobalEventExecutor.INSTANCE);
    private final Channel serverChannel;
    private final InetSocketAddress address;
    private volatile boolean closed;

    private RpcServer(Builder b) {
        this.options = b.options;
        this.config = b.config;
        this.transport = Transports.effective(options.transport());
        this.methods = new MethodTable(b.services);
        this.pool = config.workerThreads() > 0
                ? new ServicePool(config.workerThreads(), config.serviceQueueLength(), "rpc-server-worker") : null;
        SslContext ssl = options.tls() ? TlsSupport.serverContext() : null;
        this.acceptor = Transports.newGroup(transport, 1, "rpc-server-acceptor");
        this.reactors = Transports.newGroup(transport, config.serverReactors(), "rpc-server-reactor");
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(acceptor, reactors)
                .channel(Transports.serverChannel(transport))
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.ALLOCATOR, Transports.allocator(options.allocator()))
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        channels.add(ch);
                        metrics.connectionsAccepted.increment();
                        ChannelPipeline p = ch.pipeline();
                        if (ssl != null) {
                            p.addLast("tls", ssl.newHandler(ch.alloc()));
                        }
                        p.addLast("frames", new RpcFrameDecoder(WireFormat.MIN_REQUEST_FRAME_BYTES,
                                config.maxFrameBytes(), true, reason -> metrics.protocolErrors.increment()));
                        p.addLast("calls", new ServerConnectionHandler(methods, pool, options, config, metrics,
                                b.nanoClock));
                    }
                });
        try {
            this.serverChannel = bootstrap.bind(new InetSocketAddress(b.host, b.port)).syncUninterruptibly().channel();
        } catch (RuntimeException e) {
            shutdownThreads();
            throw new IllegalStateException("cannot listen on " + b.host.getHostAddress() + ":" + b.port + ": " + e, e);
        }
        this.address = (InetSocketAddress) serverChannel.localAddress();
        log.debug("RPC server on {} with {} {}", address, options, config.describe());
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The bound port (the ephemeral one when started on port 0). */
    public int port() {
        return address.getPort();
    }

    public InetSocketAddress address() {
        return address;
    }

    public EngineOptions options() {
        return options;
    }

    public ServerConfig config() {
        return config;
    }

    /** The transport in use: {@code nio} when {@code epoll} was requested but is unavailable. */
    public EngineOptions.Transport transport() {
        return transport;
    }

    public ServerMetrics metrics() {
        return metrics;
    }

    /** Stops accepting, closes every connection (pending calls fail on their clients) and stops threads. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        serverChannel.close().awaitUninterruptibly();
        channels.close().awaitUninterruptibly();
        shutdownThreads();
    }

    private void shutdownThreads() {
        if (pool != null) {
            pool.close();
        }
        acceptor.shutdownGracefully(0, 2, TimeUnit.SECONDS);
        reactors.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly();
        acceptor.terminationFuture().awaitUninterruptibly();
    }

    /** Collects options, sizing, address and services, then {@link #start()}s. */
    public static final class Builder {
        private EngineOptions options = EngineOptions.defaults();
        private ServerConfig config = ServerConfig.defaults();
        private InetAddress host = InetAddress.getLoopbackAddress();
        private int port;
        private final List<ServiceDefinition> services = new ArrayList<>();
        private LongSupplier nanoClock = System::nanoTime;

        private Builder() {
        }

        public Builder options(EngineOptions options) {
            this.options = Objects.requireNonNull(options, "options");
            return this;
        }

        public Builder config(ServerConfig config) {
            this.config = Objects.requireNonNull(config, "config");
            return this;
        }

        /** Address to listen on; default the loopback address. */
        public Builder host(InetAddress host) {
            this.host = Objects.requireNonNull(host, "host");
            return this;
        }

        /** Port to listen on; 0 (default) picks an ephemeral port, see {@link RpcServer#port()}. */
        public Builder port(int port) {
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("port must be 0..65535, got " + port);
            }
            this.port = port;
            return this;
        }

        /** Replaces the clock of queue deadlines; for tests that control time. */
        Builder nanoClock(LongSupplier nanoClock) {
            this.nanoClock = Objects.requireNonNull(nanoClock, "nanoClock");
            return this;
        }

        public Builder addService(ServiceDefinition service) {
            services.add(Objects.requireNonNull(service, "service"));
            return this;
        }

        /**
         * Binds and starts serving.
         *
         * @throws IllegalStateException if the address cannot be bound
         */
        public RpcServer start() {
            if (services.isEmpty()) {
                throw new IllegalStateException("no services registered; add at least one with addService");
            }
            return new RpcServer(this);
        }
    }
}
