package io.perflab.rpc;

import java.net.InetSocketAddress;

/**
 * Calls methods on one remote over the client's shared connection. Thread-safe; cheap to create.
 * Every call has a timeout in milliseconds (1 .. {@link Integer#MAX_VALUE}) enforced by the
 * client, and ends with a value or an {@link RpcException} carrying its {@link RpcStatus}.
 */
public final class RpcProxy {

    private final RpcClient client;
    private final InetSocketAddress remote;
    private volatile ClientConnectionHandler connection;

    RpcProxy(RpcClient client, InetSocketAddress remote) {
        this.client = client;
        this.remote = remote;
    }

    public InetSocketAddress remote() {
        return remote;
    }

    /**
     * Synchronous call: waits (as the {@code completion} option says) for the answer. If the
     * thread is interrupted while waiting, the call is cancelled, {@code CANCELLED} is thrown and
     * the interrupt status is kept; if the answer came with the interrupt, it is returned (or its
     * status thrown) and the interrupt status is kept as well.
     *
     * @throws RpcException for any status other than {@code OK}
     */
    @SuppressWarnings("unchecked")
    public <T> T call(RpcMethodRef method, RequestWriter request, ResponseReader<T> response, long timeoutMillis) {
        int timeout = checkTimeout(timeoutMillis);
        ClientConnectionHandler c = connection();
        OutboundCall call = c.acquire();
        call.prepare(client.nextCallId(), method, request, response, timeout, null, client.options()
                .callBufferInitialBytes(), client.maxFrameBytes());
        c.submit(call);
        Completion completion = call.completion;
        if (!completion.awaitInterruptibly()) {
            c.cancel(call.callId);
            completion.awaitUninterruptibly();
            Thread.currentThread().interrupt();
        }
        RpcStatus status = call.status;
        Object result = call.result;
        String detail = call.detail;
        c.release(call);
        if (status == RpcStatus.OK) {
            return (T) result;
        }
        throw new RpcException(status, detail);
    }

    /**
     * Asynchronous call: {@code callback} runs once on the client event loop (or on this thread if
     * the call fails before it could be sent).
     *
     * @return a token for {@link #cancel(long)}
     */
    public <T> long callAsync(RpcMethodRef method, RequestWriter request, ResponseReader<T> response,
                              long timeoutMillis, RpcCallback<? super T> callback) {
        int timeout = checkTimeout(timeoutMillis);
        ClientConnectionHandler c;
        try {
            c = connection();
        } catch (RpcException e) {
            callback.onFailure(e);
            return 0;
        }
        OutboundCall call = c.acquire();
        int callId = client.nextCallId();
        if (callback instanceof RpcFuture<?> future) {
            future.bind(this, callId);
        }
        call.prepare(callId, method, request, response, timeout, callback, client.options().callBufferInitialBytes(),
                client.maxFrameBytes());
        c.submit(call);
        return Integer.toUnsignedLong(callId);
    }

    /** Asynchronous call as a future; cancelling the future cancels the call. */
    public <T> RpcFuture<T> callFuture(RpcMethodRef method, RequestWriter request, ResponseReader<T> response,
                                       long timeoutMillis) {
        RpcFuture<T> future = new RpcFuture<>();
        callAsync(method, request, response, timeoutMillis, future);
        return future;
    }

    /**
     * Cancels an asynchronous call: unless it completed already, it completes with {@code CANCELLED}
     * and a later response is dropped.
     */
    public void cancel(long token) {
        ClientConnectionHandler c = connection;
        if (c != null && token != 0) {
            c.cancel((int) token);
        }
    }

    private ClientConnectionHandler connection() {
        ClientConnectionHandler c = connection;
        if (c == null || !c.isUsable()) {
            c = client.connection(remote);
            connection = c;
        }
        return c;
    }

    private static int checkTimeout(long timeoutMillis) {
        if (timeoutMillis < 1 || timeoutMillis > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("timeout must be 1.." + Integer.MAX_VALUE + " ms, got " + timeoutMillis);
        }
        return (int) timeoutMillis;
    }
}
