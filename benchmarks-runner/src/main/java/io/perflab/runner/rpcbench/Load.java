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
 *
 * <p>A load can be {@linkplain #pause() paused} and {@linkplain #resume() resumed}, for a trial that waits idle
 * while its partner measures (the {@code alternating} design): a sync client thread checks {@link #proceed()} before
 * each call, an async call chain {@link #deferWhilePaused} before issuing its next one. While running, that check
 * is one volatile read.
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

    private final Object pauseLock = new Object();
    private volatile boolean paused;
    /** Sync client threads waiting in {@link #proceed()}; guarded by {@link #pauseLock}. */
    private int idleThreads;
    /** The next calls of async chains that found the load paused; guarded by {@link #pauseLock}. */
    private final List<Runnable> deferred = new ArrayList<>();

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
        resume();
        joinAll(clientThreads);
        if (chainsEnded != null) {
            awaitLatch(chainsEnded);
        }
    }

    /**
     * Stops issuing calls until {@link #resume()}, and returns once every client is idle: its outstanding call
     * answered, or as long as a call may take.
     */
    final void pause() {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(CALL_TIMEOUT_MILLIS + 1000);
        synchronized (pauseLock) {
            paused = true;
            long remaining;
            while (!idle() && (remaining = deadline - System.nanoTime()) > 0) {
                try {
                    TimeUnit.NANOSECONDS.timedWait(pauseLock, remaining);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    /** Issues calls again after {@link #pause()}: wakes the client threads and sends the deferred calls. */
    final void resume() {
        List<Runnable> next;
        synchronized (pauseLock) {
            paused = false;
            next = new ArrayList<>(deferred);
            deferred.clear();
            pauseLock.notifyAll();
        }
        next.forEach(Runnable::run);
    }

    /**
     * Called by a sync client thread before each call: waits while the load is paused; returns whether the load
     * still runs.
     */
    final boolean proceed() {
        if (paused && running) {
            synchronized (pauseLock) {
                idleThreads++;
                pauseLock.notifyAll();
                while (paused && running) {
                    try {
                        pauseLock.wait();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        break;
                    }
                }
                idleThreads--;
            }
        }
        return running;
    }

    /**
     * Called by an async call chain before its next call: while the load is paused, keeps {@code next} for
     * {@link #resume()} (or for {@link #stop()}, when it must see that the load no longer runs) and returns true.
     */
    final boolean deferWhilePaused(Runnable next) {
        if (!paused) {
            return false;
        }
        synchronized (pauseLock) {
            if (!paused) {
                return false;
            }
            deferred.add(next);
            pauseLock.notifyAll();
            return true;
        }
    }

    private boolean idle() {
        return chainsEnded == null ? idleThreads >= clientThreads.size() : deferred.size() >= chainsEnded.getCount();
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
