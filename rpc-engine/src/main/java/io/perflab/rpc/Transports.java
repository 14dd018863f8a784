package io.perflab.rpc;

import io.netty.buffer.AdaptiveByteBufAllocator;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
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
import io.netty.util.concurrent.DefaultThreadFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Netty pieces selected by the {@code transport} and {@code allocator} options. Public so that a load
 * generator on bare Netty (benchmarks-runner's {@code --stack netty}) runs on exactly the engine's event loops,
 * channels and allocator.
 */
public final class Transports {

    private static final Logger log = LoggerFactory.getLogger(Transports.class);
    private static volatile boolean fallbackLogged;

    private Transports() {
    }

    /** The transport actually used: epoll falls back to nio, with a logged reason, where unavailable. */
    public static EngineOptions.Transport effective(EngineOptions.Transport requested) {
        if (requested == EngineOptions.Transport.EPOLL && !Epoll.isAvailable()) {
            if (!fallbackLogged) {
                fallbackLogged = true;
                log.warn("transport=epoll unavailable, using nio: {}", String.valueOf(Epoll.unavailabilityCause()));
            }
            return EngineOptions.Transport.NIO;
        }
        return requested;
    }

    /** {@code threads} event loops of {@code transport}, on daemon threads named after {@code name}. */
    public static EventLoopGroup newGroup(EngineOptions.Transport transport, int threads, String name) {
        IoHandlerFactory factory = transport == EngineOptions.Transport.EPOLL
                ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        return new MultiThreadIoEventLoopGroup(threads, new DefaultThreadFactory(name, true), factory);
    }

    public static Class<? extends ServerChannel> serverChannel(EngineOptions.Transport transport) {
        return transport == EngineOptions.Transport.EPOLL ? EpollServerSocketChannel.class
                : NioServerSocketChannel.class;
    }

    public static Class<? extends SocketChannel> clientChannel(EngineOptions.Transport transport) {
        return transport == EngineOptions.Transport.EPOLL ? EpollSocketChannel.class : NioSocketChannel.class;
    }

    /**
     * The allocator of the {@code allocator} option, shared by every server and client of the JVM.
     * Netty gives thread caches only to its own threads by default; the engine's pooled and adaptive
     * allocators give them to every thread, because requests are encoded on the callers' threads and
     * responses on the service pool's.
     */
    public static ByteBufAllocator allocator(EngineOptions.Allocator allocator) {
        return switch (allocator) {
            case POOLED -> PooledHolder.INSTANCE;
            case UNPOOLED -> UnpooledByteBufAllocator.DEFAULT;
            case ADAPTIVE -> AdaptiveHolder.INSTANCE;
        };
    }

    private static final class PooledHolder {
        static final ByteBufAllocator INSTANCE = new PooledByteBufAllocator(
                PooledByteBufAllocator.defaultPreferDirect(),
                PooledByteBufAllocator.defaultNumHeapArena(), PooledByteBufAllocator.defaultNumDirectArena(),
                PooledByteBufAllocator.defaultPageSize(), PooledByteBufAllocator.defaultMaxOrder(),
                PooledByteBufAllocator.defaultSmallCacheSize(), PooledByteBufAllocator.defaultNormalCacheSize(),
                true);
    }

    private static final class AdaptiveHolder {
        static final ByteBufAllocator INSTANCE = new AdaptiveByteBufAllocator(true, true);
    }
}
