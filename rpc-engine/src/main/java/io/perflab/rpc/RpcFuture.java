package io.perflab.rpc;

import java.util.concurrent.CompletableFuture;

/** The future of {@link RpcProxy#callFuture}: fails with {@link RpcException}; cancelling cancels the call. */
public final class RpcFuture<T> extends CompletableFuture<T> implements RpcCallback<T> {

    private volatile RpcProxy proxy;
    private volatile int callId;

    RpcFuture() {
    }

    void bind(RpcProxy proxy, int callId) {
        this.callId = callId;
        this.proxy = proxy;
    }

    @Override
    public void onSuccess(T value) {
        complete(value);
    }

    @Override
    public void onFailure(RpcException error) {
        completeExceptionally(error);
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        boolean cancelled = super.cancel(mayInterruptIfRunning);
        RpcProxy p = proxy;
        if (cancelled && p != null) {
            p.cancel(Integer.toUnsignedLong(callId));
        }
        return cancelled;
    }
}
