package io.perflab.runner.rpcbench;

import io.netty.channel.Channel;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A bare-Netty client connection under load, on its own event loop, its calls handed to its
 * {@link NettyClientHandler}. A blocking call is written by the calling thread (Netty hands the write to the
 * event loop) and parks the thread until the handler, on the event loop, has its answer. A call chain's calls
 * are written from the event loop, as each answer comes in, and flushed once per read batch.
 *
 * <p>A call without an answer by its deadline closes the connection: answers carry no call ids, so its late answer
 * would complete the next call, and every call after it would take its predecessor's answer with two calls in
 * flight where the bench counts one. The call fails saying so, and so does every later call: each such failure is
 * {@linkplain CallFailedException#connectionLost() a lost connection}, on which calling on is pointless, and a
 * chain is told so ({@link RpcStack.CallListener#connectionLost}). The handler keeps every call's deadline
 * ({@link NettyClientHandler}); a blocking call's thread, which waits anyway, keeps the same one and gives up
 * itself should the event loop be late.
 */
final class NettyConnection implements RpcStack.Connection {

    /**
     * Why a call on a closed connection fails at once: once closed, the channel's pipeline loses its handlers, so
     * a call written to it would reach no {@link NettyClientHandler} to fail it.
     */
    private static final String CONNECTION_CLOSED = "connection closed";

    private final Channel channel;
    private final NettyMessages messages;
    private final long callTimeoutMillis;
    /** Replaced when a call is given up, so that what the handler later tells the old one reaches no new call. */
    private BlockingCall blockingCall = new BlockingCall();

    NettyConnection(Channel channel, NettyMessages messages) {
        this(channel, messages, Load.CALL_TIMEOUT_MILLIS);
    }

    NettyConnection(Channel channel, NettyMessages messages, long callTimeoutMillis) {
        this.channel = channel;
        this.messages = messages;
        this.callTimeoutMillis = callTimeoutMillis;
    }

    @Override
    public void call(int x) throws CallFailedException {
        blockingCall.call(x);
    }

    @Override
    public RpcStack.AsyncCaller asyncCaller(RpcStack.CallListener listener) {
        return new ChainCall(listener);
    }

    /** The calling thread's end of the connection: one call at a time, the thread parked until it ends. */
    private final class BlockingCall extends NettyClientHandler.Call {
        private volatile Thread waiter;
        private volatile boolean hasAnswer;
        private volatile String error;

        void call(int x) throws CallFailedException {
            if (!channel.isActive()) {
                throw CallFailedException.connectionLost(CONNECTION_CLOSED);
            }
            request(messages.request(channel.alloc(), x));
            waiter = Thread.currentThread();
            hasAnswer = false;
            error = null;
            channel.writeAndFlush(this);
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(callTimeoutMillis);
            while (!hasAnswer && error == null) {
                long remaining = deadline - System.nanoTime();
                if (remaining <= 0) {
                    String reason = "no answer within " + callTimeoutMillis + " ms; the connection is closed, as "
                            + "its answers carry no call ids and the late answer would be taken for the next call's";
                    blockingCall = new BlockingCall();
                    channel.pipeline().fireUserEventTriggered(new NettyClientHandler.Close(reason));
                    throw CallFailedException.connectionLost(reason);
                }
                LockSupport.parkNanos(this, remaining);
            }
            if (!hasAnswer) {
                // a wrong answer fails its call only; a closed connection fails every call after it too
                throw channel.isActive() ? new CallFailedException(error) : CallFailedException.connectionLost(error);
            }
        }

        @Override
        void answered() {
            hasAnswer = true;
            LockSupport.unpark(waiter);
        }

        @Override
        void failed(String description) {
            error = description;
            LockSupport.unpark(waiter);
        }
    }

    /** One call chain's calls: written from the event loop once the chain runs, outcomes told to its listener. */
    private final class ChainCall extends NettyClientHandler.Call implements RpcStack.AsyncCaller {
        private final RpcStack.CallListener listener;

        ChainCall(RpcStack.CallListener listener) {
            this.listener = listener;
        }

        @Override
        public void call(int x) {
            if (!channel.isActive()) {
                listener.connectionLost(CONNECTION_CLOSED);
                return;
            }
            request(messages.request(channel.alloc(), x));
            if (channel.eventLoop().inEventLoop()) {
                channel.write(this);
            } else {
                channel.writeAndFlush(this); // the chain's first call, from the thread that starts the load
            }
        }

        @Override
        void answered() {
            listener.answered();
        }

        @Override
        void failed(String description) {
            // a wrong answer fails its call only; a closed connection fails every call after it too
            if (channel.isActive()) {
                listener.failed(description);
            } else {
                listener.connectionLost(description);
            }
        }
    }
}
