package io.perflab.rpc;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The client: {@code reactors} event loops and one connection per remote address (a client has
 * one {@link EngineOptions}, so this is one connection per (remote, options)), shared by every
 * {@link RpcProxy} for that remote and reopened on the next call after it failed.
 *
 * <pre>{@code
 * try (RpcClient client = RpcClient.create(EngineOptions.defaults())) {
 *     RpcProxy proxy = client.proxy(server.address());
 *     int sum = BenchmarkService.add(proxy, 2, 3, 1000);
 * }
 * }</pre>
 */
public final class RpcClient implements AutoCloseable {

    private final EngineOptions options;
    private final EngineOptions.Transport transport;
    private final int maxFrameBytes;
    private final int connectTimeoutMillis;
    private final EventLoopGroup group;
    private final Bootstrap bootstrap;
    private final Map<InetSocketAddress, ClientConnectionHandler> connections = new ConcurrentHashMap<>();
    private final AtomicInteger nextCallId = new AtomicInteger();
    private final Object connectLock = new Object();
    private volatile boolean closed;

    private RpcClient(Builder b) {
        if (b.options.completion() == EngineOptions.Completion.FUTEX) {
            FutexCompletion.requireAvailable();
        }
        this.options = b.options;
        this.maxFrameBytes = b.maxFrameBytes;
        this.connectTimeoutMillis = b.connectTimeoutMillis;
        this.transport = Transports.effective(options.transport());
        this.group = Transports.newGroup(transport, b.reactors, "rpc-client-reactor");
        SslContext ssl = options.tls() ? TlsSupport.clientContext() : null;
        this.bootstrap = new Bootstrap()
                .group(group)
                .channel(Transports.clientChannel(transport))
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, connectTimeoutMillis)
                .option(ChannelOption.ALLOCATOR, Transports.allocator(options.allocator()));
        this.ssl = ssl;
    }

    private final SslContext ssl;

    public static RpcClient create(EngineOptions options) {
        return builder().options(options).build();
    }

    public static Builder builder() {
        return new Builder();
    }

    public EngineOptions options() {
        return options;
    }

    /** The transport in use: {@code nio} when {@code epoll} was requested but is unavailable. */
    public EngineOptions.Transport transport() {
        return transport;
    }

    /** A proxy for calls to {@code remote}; the connection opens on the first call. */
    public RpcProxy proxy(InetSocketAddress remote) {
        return new RpcProxy(this, Objects.requireNonNull(remote, "remote"));
    }

    int nextCallId() {
        return nextCallId.incrementAndGet();
    }

    int maxFrameBytes() {
        return maxFrameBytes;
    }

    /**
     * The open connection to {@code remote}, connecting if there is none.
     *
     * @throws RpcException {@code SHUTDOWN} after {@link #close()}, {@code NETWORK_ERROR} if it cannot connect
     */
    ClientConnectionHandler connection(InetSocketAddress remote) {
        ClientConnectionHandler c = connections.get(remote);
        if (c != null && c.isUsable()) {
            return c;
        }
        synchronized (connectLock) {
            if (closed) {
                throw new RpcException(RpcStatus.SHUTDOWN, "client is shut down");
            }
            c = connections.get(remote);
            if (c != null && c.isUsable()) {
                return c;
            }
            c = connect(remote);
            connections.put(remote, c);
            return c;
        }
    }

    private ClientConnectionHandler connect(InetSocketAddress remote) {
        String name = remote.getHostString() + ":" + remote.getPort();
        ChannelFuture f = bootstrap.clone().handler(new ChannelInitializer<SocketChannel>() {
            @Override
            protected void initChannel(SocketChannel ch) {
                ChannelPipeline p = ch.pipeline();
                if (ssl != null) {
                    p.addLast("tls", ssl.newHandler(ch.alloc()));
                }
                ClientConnectionHandler handler = new ClientConnectionHandler(RpcClient.this, options, name);
                p.addLast("frames", new RpcFrameDecoder(WireFormat.MIN_RESPONSE_FRAME_BYTES, maxFrameBytes, false,
                        handler::protocolError));
                p.addLast("calls", handler);
            }
        }).connect(remote);
        if (!f.awaitUninterruptibly(connectTimeoutMillis + 1000L) || !f.isSuccess()) {
            f.channel().close();
            throw new RpcException(RpcStatus.NETWORK_ERROR, "cannot connect to " + name + ": "
                    + (f.cause() != null ? f.cause().getMessage() : "timed out"), f.cause());
        }
        Channel ch = f.channel();
        SslHandler tls = ch.pipeline().get(SslHandler.class);
        if (tls != null) {
            var handshake = tls.handshakeFuture();
            if (!handshake.awaitUninterruptibly(connectTimeoutMillis) || !handshake.isSuccess()) {
                ch.close();
                throw new RpcException(RpcStatus.NETWORK_ERROR, "TLS handshake with " + name + " failed: "
                        + (handshake.cause() != null ? handshake.cause().getMessage() : "timed out"),
                        handshake.cause());
            }
        }
        return ch.pipeline().get(ClientConnectionHandler.class);
    }

    void forget(ClientConnectionHandler connection) {
        connections.values().remove(connection);
    }

    /** Closes every connection (their pending calls fail with {@code SHUTDOWN}) and stops the reactors. */
    @Override
    public void close() {
        synchronized (connectLock) {
            if (closed) {
                return;
            }
            closed = true;
        }
        for (ClientConnectionHandler c : new ArrayList<>(connections.values())) {
            c.close(RpcStatus.SHUTDOWN, "client is shut down");
        }
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly();
    }

    /** Options, reactor count and limits of a client. */
    public static final class Builder {
        private EngineOptions options = EngineOptions.defaults();
        private int reactors = 1;
        private int maxFrameBytes = ServerConfig.DEFAULT_MAX_FRAME_BYTES;
        private int connectTimeoutMillis = 5000;

        private Builder() {
        }

        public Builder options(EngineOptions options) {
            this.options = Objects.requireNonNull(options, "options");
            return this;
        }

        /** Client event loops (default 1); connections to different remotes spread over them. */
        public Builder reactors(int reactors) {
            if (reactors < 1) {
                throw new IllegalArgumentException("client reactors must be at least 1, got " + reactors);
            }
            this.reactors = reactors;
            return this;
        }

        /** Largest accepted response frame (default 64 MiB); also caps requests. */
        public Builder maxFrameBytes(int maxFrameBytes) {
            if (maxFrameBytes < WireFormat.MIN_REQUEST_FRAME_BYTES) {
                throw new IllegalArgumentException("maxFrameBytes must be at least "
                        + WireFormat.MIN_REQUEST_FRAME_BYTES + ", got " + maxFrameBytes);
            }
            this.maxFrameBytes = maxFrameBytes;
            return this;
        }

        public Builder connectTimeoutMillis(int millis) {
            if (millis < 1) {
                throw new IllegalArgumentException("connectTimeoutMillis must be positive, got " + millis);
            }
            this.connectTimeoutMillis = millis;
            return this;
        }

        public RpcClient build() {
            return new RpcClient(this);
        }
    }
}
