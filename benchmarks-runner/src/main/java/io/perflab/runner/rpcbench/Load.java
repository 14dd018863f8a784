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
 * once from the callback could recurse on a dead connection).
 *
 * <p>Each connection records into its own {@link SingleWriterRecorder}, written only by its client thread (sync)
 * or its event loop (async); {@link #swapLatencies()} merges them, so measuring adds no contention.
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

    /** A sync client thread: one call at a time on its own connection, until the load stops. */
    private void callInLoop(RpcStack.Connection connection, SingleWriterRecorder recorder) {
        int x = 0;
        while (running) {
            long start = System.nanoTime();
            try {
                connection.call(x++);
                record(recorder, start);
            } catch (CallFailedException e) {
                fail(e.getMessage());
            }
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

        private void end() {
            if (!ended) {
                ended = true;
                chainsEnded.countDown();
            }
        }
    }
}
