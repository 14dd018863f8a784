package io.perflab.rpc;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A test service whose {@code Gate.Block} method holds its worker until {@link #open()}, so tests
 * can fill the worker and queue deterministically. {@code Gate.Count} counts its invocations.
 */
final class Gate {

    static final RpcMethodRef BLOCK = RpcMethodRef.of("Gate.Block");
    static final RpcMethodRef COUNT = RpcMethodRef.of("Gate.Count");

    private final Semaphore entered = new Semaphore(0);
    private final CountDownLatch open = new CountDownLatch(1);
    final AtomicInteger counted = new AtomicInteger();

    ServiceDefinition service() {
        return ServiceDefinition.builder("Gate")
                .method("Block", (req, resp) -> {
                    entered.release();
                    if (!open.await(30, TimeUnit.SECONDS)) {
                        throw new IllegalStateException("gate never opened");
                    }
                    resp.writeInt(req.readableBytes() >= 4 ? req.readInt() : 0);
                })
                .method("Count", (req, resp) -> resp.writeInt(counted.incrementAndGet()))
                .build();
    }

    /** Waits until {@code n} calls have entered {@code Block}. */
    void awaitEntered(int n) throws InterruptedException {
        if (!entered.tryAcquire(n, 10, TimeUnit.SECONDS)) {
            throw new AssertionError("fewer than " + n + " calls entered Gate.Block");
        }
    }

    void open() {
        open.countDown();
    }
}
