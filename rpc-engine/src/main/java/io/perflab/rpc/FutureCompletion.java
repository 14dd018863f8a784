package io.perflab.rpc;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/** {@code completion=future}: a new {@link CompletableFuture} per call, waited on with {@code get()}. */
final class FutureCompletion extends Completion {

    private volatile CompletableFuture<Void> future = new CompletableFuture<>();

    @Override
    void reset() {
        future = new CompletableFuture<>();
    }

    @Override
    void signal() {
        future.complete(null);
    }

    @Override
    boolean awaitInterruptibly() {
        try {
            future.get();
            return true;
        } catch (InterruptedException e) {
            return signalledAfterInterrupt(future.isDone());
        } catch (ExecutionException e) {
            throw new IllegalStateException("completion future failed", e);
        }
    }

    @Override
    void awaitUninterruptibly() {
        future.join();
        Thread.interrupted();
    }
}
