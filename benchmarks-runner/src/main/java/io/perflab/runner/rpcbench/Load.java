package io.perflab.runner.rpcbench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.SingleWriterRecorder;

/**
 * One stack under rpc-bench's load: its server, its clients, and where latencies and failures go. {@link RpcBench}
 * meters every stack through this class alone, so warmup, window and latency recording are the same code for all.
 *
 * <p>Each client thread (sync) or client event loop (async) records into its own {@link SingleWriterRecorder};
 * {@link #swapLatencies()} merges them, so measuring adds no contention between threads.
 */
abstract class Load implements AutoCloseable {

    /** The deadline of one call, as rpc-bench's. */
    static final long CALL_TIMEOUT_MILLIS = 10_000;
    static final long HIGHEST_LATENCY_NANOS = TimeUnit.SECONDS.toNanos(60);
    private static final int LATENCY_DIGITS = 3;

    final List<SingleWriterRecorder> recorders = new ArrayList<>();
    final AtomicLong failed = new AtomicLong();
    final AtomicReference<String> firstError = new AtomicReference<>();
    volatile boolean running = true;
    /** A sync load's client threads, one outstanding call each: {@link #start()} starts them. */
    final List<Thread> clientThreads = new ArrayList<>();
    /** An async load's call chains count this down as they end; null for a sync load. */
    CountDownLatch chainsEnded;

    /** A new recorder of this load's latencies. */
    final SingleWriterRecorder newRecorder() {
        SingleWriterRecorder recorder = new SingleWriterRecorder(HIGHEST_LATENCY_NANOS, LATENCY_DIGITS);
        recorders.add(recorder);
        return recorder;
    }

    /** Records the latency of a call that started at {@code startNanos} ({@link System#nanoTime()}). */
    static void record(SingleWriterRecorder recorder, long startNanos) {
        recorder.recordValue(Math.min(System.nanoTime() - startNanos, HIGHEST_LATENCY_NANOS));
    }

    /** Counts a failed call; the first failure's description is kept for the report. */
    final void fail(String description) {
        failed.incrementAndGet();
        firstError.compareAndSet(null, description);
    }

    /** Connects the clients (and, for some stacks, makes one call each so that lazy connections are up). */
    abstract void connect();

    /** {@code load}, connected; released again if connecting fails. */
    static Load connected(Load load) {
        try {
            load.connect();
            return load;
        } catch (RuntimeException e) {
            load.release();
            throw e;
        }
    }

    /** Starts issuing calls: starts the client threads; an async load starts its call chains instead. */
    void start() {
        clientThreads.forEach(Thread::start);
    }

    /**
     * Stops issuing calls and waits for the outstanding ones: for the client threads to end, and for the call
     * chains to count {@link #chainsEnded} down.
     */
    final void stop() {
        running = false;
        joinAll(clientThreads);
        if (chainsEnded != null) {
            awaitLatch(chainsEnded);
        }
    }

    /** Releases clients and server, after {@link #stop()}. */
    abstract void release();

    /** The latencies recorded since the last swap, merged; the recorders start afresh. */
    Histogram swapLatencies() {
        Histogram merged = new Histogram(HIGHEST_LATENCY_NANOS, LATENCY_DIGITS);
        for (SingleWriterRecorder recorder : recorders) {
            merged.add(recorder.getIntervalHistogram());
        }
        return merged;
    }

    @Override
    public void close() {
        running = false;
        try {
            stop();
        } finally {
            release();
        }
    }

    /** Waits for the client threads of a sync load, as long as an outstanding call may take. */
    private static void joinAll(List<Thread> threads) {
        for (Thread thread : threads) {
            try {
                thread.join(CALL_TIMEOUT_MILLIS + 1000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Waits for the call chains of an async load to end, as long as an outstanding call may take. */
    private static void awaitLatch(CountDownLatch latch) {
        try {
            latch.await(CALL_TIMEOUT_MILLIS + 1000, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
