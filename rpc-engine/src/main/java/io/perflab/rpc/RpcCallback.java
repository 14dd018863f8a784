package io.perflab.rpc;

/**
 * Completion of an asynchronous call. Exactly one method is called, once, on the client event
 * loop: it must not block.
 */
public interface RpcCallback<T> {
    void onSuccess(T value);

    void onFailure(RpcException error);
}
