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
 * One stack under rpc-bench's load: the clients' threads and loops, and where latencies and failures go.
 * {@link RpcBench} meters every stack through this class alone, and this class drives every stack through the
 * two primitives of {@link RpcStack.Connection}, so warmup, window, calling loops and latency recording are the
 * same code for all.
 *
 * <p>Sync mode: {@code clientThreads} threads, each with its own connection (its own event loop) and one
 * outstanding call, calling in a loop. Async mode: {@code clientThreads} connections carrying
 * {@code asyncConcurrency} call chains, chain {@code i} on connection {@code i % clientThreads}; each answer
 * issues the chain's next call from the connection's event loop, and a failed call ends its chain (retrying at
 * once from the callback could recurse on a dead connection). A sync client whose connection is lost for good
 * ({@link CallFailedException#connectionLost()}) stops the whole load with that reason: calling on would fail at
 * once, call after call, and a load without that client would measure windows short of the workload's clients.
 * A chain whose connection is lost for good ({@link RpcStack.CallListener#connectionLost}) stops it too: every
 * chain on that connection ends, and the windows would be short of the workload's outstanding calls.
 *
 * <p>Each connection records into its own {@link SingleWriterRecorder}, written only by its client thread (sync)
 * or its event loop (async); {@link #swapLatencies()} merges them, so measuring adds no contention.
 *
 * <p>A load can be {@linkplain #pause() paused} and {@linkplain #resume() resumed}, for a trial that waits idle
 * while its partner measures (the {@code alternating} design): a sync client thread checks {@link #proceed()} before
 * each call, an async call chain {@link #deferWhilePaused} before issuing its next one. While running, that check
 * is one volatile read.
 *
 * <p>Over 300 lines: the client threads and call chains are paused, resumed and stopped through one state (running,
 * paused, idle and ended clients) under one lock, which is easiest to check for races in one class.
 */
final class Load implements AutoCloseable {

    /** The deadline of one call, as rpc-bench's. */
    static final long CALL_TIMEOUT_MILLIS = 10_000;
    static final long HIGHEST_LATENCY_NANOS = TimeUnit.SECONDS.toNanos(60);
    private static final int LATENCY_DIGITS = 3;

    final AtomicLong failed = new AtomicLong();
    final AtomicReference<String> firstError = new AtomicReference<>();
    private final RpcStack stack;
    private final List<SingleWriterRecorder> recorders = new ArrayList<>();
    private final List<Thread> clientThreads = new ArrayList<>();
    private final List<Chain> chains = new ArrayList<>();
    private final CountDownLatch chainsEnded;
    private volatile boolean running = true;
    private boolean started;
    private final Object pauseLock = new Object();
    private volatile boolean paused;
    /** Sync client threads waiting in {@link #proceed()}; guarded by {@link #pauseLock}. */
    private int idleThreads;
    /** Sync client threads that returned, as idle as can be; guarded by {@link #pauseLock}. */
    private int endedThreads;
    /** The next calls of async chains that found the load paused; guarded by {@link #pauseLock}. */
    private final List<Runnable> deferred = new ArrayList<>();
    /** How many times the load was paused; guarded by {@link #pauseLock}. */
    private int pauses;

    private Load(RpcStack stack, Workload workload) {
        this.stack = stack;
        List<RpcStack.Connection> connections = new ArrayList<>();
        for (int i = 0; i < workload.clientThreads(); i++) {
            connections.add(stack.connect(i));
            recorders.add(new SingleWriterRecorder(HIGHEST_LATENCY_NANOS, LATENCY_DIGITS));
        }
        if (workload.mode() == CallMode.SYNC) {
            for (int i = 0; i < connections.size(); i++) {
                RpcStack.Connection connection = connections.get(i);
                SingleWriterRecorder recorder = recorders.get(i);
                Thread thread = new Thread(() -> callInLoop(connection, recorder),
                        workload.stack().label() + "-bench-client-" + i);
                thread.setDaemon(true);
                clientThreads.add(thread);
            }
            chainsEnded = new CountDownLatch(0);
        } else {
            for (int i = 0; i < workload.asyncConcurrency(); i++) {
                int client = i % connections.size();
                chains.add(new Chain(connections.get(client), recorders.get(client)));
            }
            chainsEnded = new CountDownLatch(chains.size());
        }
    }

    /**
     * The load of {@code workload} on {@code stack}: its clients connected, no call made yet; the stack is closed
     * again if connecting fails.
     */
    static Load open(RpcStack stack, Workload workload) {
        try {
            return new Load(stack, workload);
        } catch (RuntimeException e) {
            stack.close();
            throw e;
        }
    }

    /** Starts issuing calls: starts the client threads (sync) or the call chains (async). */
    void start() {
        started = true;
        clientThreads.forEach(Thread::start);
        chains.forEach(Chain::next);
    }

    /** Stops issuing calls and waits, as long as an outstanding call may take, for the outstanding ones. */
    void stop() {
        running = false;
        resume();
        if (!started) {
            return;
        }
        for (Thread thread : clientThreads) {
            try {
                thread.join(CALL_TIMEOUT_MILLIS + 1000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        try {
            chainsEnded.await(CALL_TIMEOUT_MILLIS + 1000, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Stops issuing calls until {@link #resume()}, and returns once every client is idle: its outstanding call
     * answered, or as long as a call may take.
     */
    void pause() {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(CALL_TIMEOUT_MILLIS + 1000);
        synchronized (pauseLock) {
            paused = true;
            pauses++;
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

    /** How many times the load was paused so far. */
    int pauses() {
        synchronized (pauseLock) {
            return pauses;
        }
    }

    /** Issues calls again after {@link #pause()}: wakes the client threads and sends the deferred calls. */
    void resume() {
        List<Runnable> next;
        synchronized (pauseLock) {
            paused = false;
            next = new ArrayList<>(deferred);
            deferred.clear();
            pauseLock.notifyAll();
        }
        next.forEach(Runnable::run);
    }

    /** Called by a sync client thread before each call: waits while the load is paused; whether it still runs. */
    private boolean proceed() {
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
    private boolean deferWhilePaused(Runnable next) {
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
        return chains.isEmpty() ? idleThreads + endedThreads >= clientThreads.size()
                : deferred.size() >= chainsEnded.getCount();
    }

    /** The latencies recorded since the last swap, merged; the recorders start afresh. */
    Histogram swapLatencies() {
        Histogram merged = new Histogram(HIGHEST_LATENCY_NANOS, LATENCY_DIGITS);
        for (SingleWriterRecorder recorder : recorders) {
            merged.add(recorder.getIntervalHistogram());
        }
        return merged;
    }

    /** Stops the load and releases the stack's clients and server. */
    @Override
    public void close() {
        try {
            stop();
        } finally {
            stack.close();
        }
    }

    /** Whether calls are still issued: not once the load is stopped, or a client lost its connection. */
    boolean isRunning() {
        return running;
    }

    /** A sync client thread: one call at a time on its own connection, until the load stops or it is lost. */
    private void callInLoop(RpcStack.Connection connection, SingleWriterRecorder recorder) {
        int x = 0;
        try {
            while (proceed()) {
                long start = System.nanoTime();
                try {
                    connection.call(x++);
                    record(recorder, start);
                } catch (CallFailedException e) {
                    if (e.connectionLost()) {
                        fail(e.getMessage() + "; the load stopped, as a client without its connection would leave "
                                + "the windows short of the workload's clients");
                        stopCalling();
                        return;
                    }
                    fail(e.getMessage());
                }
            }
        } finally {
            synchronized (pauseLock) {
                endedThreads++;
                pauseLock.notifyAll();
            }
        }
    }

    /** Has every client stop after its call in flight, clients waiting in {@link #proceed()} included. */
    private void stopCalling() {
        synchronized (pauseLock) {
            running = false;
            pauseLock.notifyAll();
        }
    }

    private static void record(SingleWriterRecorder recorder, long startNanos) {
        recorder.recordValue(Math.min(System.nanoTime() - startNanos, HIGHEST_LATENCY_NANOS));
    }

    /** Counts a failed call; the first failure's description is kept for the report. */
    private void fail(String description) {
        failed.incrementAndGet();
        firstError.compareAndSet(null, description);
    }

    /**
     * An async call chain: one outstanding call at a time. Its outcomes come on the connection's event loop, the
     * only writer of the connection's recorder once the chain has started.
     */
    private final class Chain implements RpcStack.CallListener {
        private final RpcStack.AsyncCaller caller;
        private final SingleWriterRecorder recorder;
        private long start;
        private int x;
        private boolean ended;

        Chain(RpcStack.Connection connection, SingleWriterRecorder recorder) {
            this.recorder = recorder;
            this.caller = connection.asyncCaller(this);
        }

        void next() {
            if (!running) {
                end();
                return;
            }
            if (deferWhilePaused(this::next)) {
                return;
            }
            start = System.nanoTime();
            caller.call(x++);
        }

        @Override
        public void answered() {
            record(recorder, start);
            next();
        }

        @Override
        public void failed(String description) {
            fail(description);
            end();
        }

        @Override
        public void connectionLost(String description) {
            fail(description + "; the load stopped, as the chains of a lost connection would leave the windows "
                    + "short of the workload's outstanding calls");
            stopCalling();
            end();
        }

        private void end() {
            if (!ended) {
                ended = true;
                chainsEnded.countDown();
                synchronized (pauseLock) {
                    pauseLock.notifyAll(); // an ended chain is idle: a pause may be waiting for it
                }
            }
        }
    }
}
