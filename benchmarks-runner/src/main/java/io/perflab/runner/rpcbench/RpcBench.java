package io.perflab.runner.rpcbench;

import io.perflab.rpc.BenchmarkService;
import io.perflab.rpc.EngineOptions;
import io.perflab.rpc.RpcCallback;
import io.perflab.rpc.RpcClient;
import io.perflab.rpc.RpcException;
import io.perflab.rpc.RpcProxy;
import io.perflab.rpc.RpcServer;
import io.perflab.rpc.ServerConfig;
import io.perflab.runner.metering.HostCpu;
import io.perflab.runner.metering.ProcessMeter;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.SingleWriterRecorder;

/**
 * Kudu's rpc-bench on PerfLab's engine: a server and its clients in this JVM on loopback, calling
 * {@code Calculator.Add} (or {@code Calculator.Echo} with payloads) as fast as they can.
 *
 * <p>Sync mode: {@code clientThreads} threads, each with its own client (one reactor, one connection) and one
 * outstanding call. Async mode: {@code clientThreads} clients (one reactor each) carrying
 * {@code asyncConcurrency} call chains; each completion issues the chain's next call from the client's event
 * loop.
 *
 * <p>Unlike rpc-bench, setup and warmup lie outside the measured window: the window starts after the warmup
 * with a {@link ProcessMeter} snapshot and ends with another, and the figures are their deltas. Each client
 * thread (sync) or client event loop (async) records latencies in its own recorder, so measuring adds no
 * contention between threads.
 */
public final class RpcBench {

    private static final long CALL_TIMEOUT_MILLIS = 10_000;
    private static final long HIGHEST_LATENCY_NANOS = TimeUnit.SECONDS.toNanos(60);
    private static final int LATENCY_DIGITS = 3;
    private static final long ONE_SECOND = TimeUnit.SECONDS.toNanos(1);
    /**
     * An auto warmup also waits for the JIT to be done: on a busy machine the compiler threads may still be
     * compiling the hot path long after throughput looks flat, and until they are done the window measures code
     * that is about to be replaced. Done means the compiler threads used at most this much CPU in the last second
     * (or, where their CPU cannot be read, the JVM compiled for at most this long).
     */
    private static final long JIT_QUIET_MILLIS_PER_SECOND = 10;

    private final EngineOptions options;
    private final Workload workload;
    private final ProcessMeter meter;
    private final LongSupplier nanoClock;
    private final Consumer<String> progress;

    /**
     * @param options the engine options (the workload's {@code encryption} switches {@code tls} on)
     * @param workload what to run
     * @param meter the meter of the measured window
     * @param nanoClock the monotonic clock that paces warmup and window
     * @param progress told about phase changes, never during the measured window
     */
    public RpcBench(EngineOptions options, Workload workload, ProcessMeter meter, LongSupplier nanoClock,
                    Consumer<String> progress) {
        this.options = workload.encryption() ? options.withOption(EngineOptions.TLS, "true") : options;
        this.workload = Objects.requireNonNull(workload, "workload");
        this.meter = Objects.requireNonNull(meter, "meter");
        this.nanoClock = nanoClock;
        this.progress = progress;
    }

    /** A bench of this process with the system clock that reports nothing. */
    public static RpcBench of(EngineOptions options, Workload workload) {
        return new RpcBench(options, workload, ProcessMeter.forThisProcess(), System::nanoTime, line -> {
        });
    }

    /** Starts server and clients, warms up, measures the window, shuts everything down. */
    public RpcBenchResult run() {
        ServerConfig config = ServerConfig.defaults()
                .withServerReactors(workload.serverReactors())
                .withWorkerThreads(workload.workerThreads())
                .withServiceQueueLength(Math.max(ServerConfig.defaults().serviceQueueLength(), outstandingCalls()));
        try (RpcServer server = RpcServer.builder().options(options).config(config)
                .addService(BenchmarkService.definition()).start();
             Load load = workload.mode() == CallMode.SYNC ? new SyncLoad(server) : new AsyncLoad(server)) {
            load.start();
            progress.accept("warming up (" + workload.warmup() + " s)");
            long warmupStart = nanoClock.getAsLong();
            boolean settled = warmUp(load);
            Duration warmupUsed = Duration.ofNanos(nanoClock.getAsLong() - warmupStart);
            progress.accept("measuring for " + Durations.formatSeconds(workload.run()) + " s");

            // a collection left over from the warmup would land in the window: start it with an empty young
            // generation instead, as JMH does between iterations
            System.gc();
            load.swapLatencies();
            long failedBefore = load.failed.get();
            long jitBefore = jitMillis();
            Optional<HostCpu.Ticks> hostStart = HostCpu.read();
            ProcessMeter.Snapshot start = meter.snapshot();
            awaitUntil(start.nanoTime() + workload.run().toNanos());
            ProcessMeter.Window window = meter.snapshot().since(start);
            Optional<HostCpu.Ticks> hostEnd = HostCpu.read();
            long jitInWindow = jitMillis() - jitBefore;
            Histogram latency = load.swapLatencies();
            double othersPercent = hostStart.isPresent() && hostEnd.isPresent()
                    ? hostEnd.get().othersPercentSince(hostStart.get(), window.processUsage().cpuMicros(),
                            window.elapsedNanos(), Runtime.getRuntime().availableProcessors())
                    : Double.NaN;
            long failed = load.failed.get() - failedBefore;

            load.stop();
            return new RpcBenchResult(workload, options.describe(), latency.getTotalCount(), window, latency,
                    warmupUsed, settled, failed, load.firstError.get(), othersPercent, jitInWindow);
        }
    }

    private int outstandingCalls() {
        return workload.mode() == CallMode.SYNC ? workload.clientThreads() : workload.asyncConcurrency();
    }

    /** Runs the warmup; returns whether an auto warmup settled (true for a fixed one). */
    private boolean warmUp(Load load) {
        Warmup warmup = workload.warmup();
        long end = nanoClock.getAsLong() + warmup.duration().toNanos();
        if (!warmup.auto()) {
            awaitUntil(end);
            return true;
        }
        SteadyState steady = new SteadyState();
        load.swapLatencies();
        long windowStart = nanoClock.getAsLong();
        long compiled = jitWork();
        while (windowStart < end) {
            long windowEnd = Math.min(windowStart + ONE_SECOND, end);
            awaitUntil(windowEnd);
            long now = nanoClock.getAsLong();
            double throughput = load.swapLatencies().getTotalCount() / ((now - windowStart) / 1e9);
            long compiledNow = jitWork();
            boolean jitQuiet = compiledNow - compiled <= JIT_QUIET_MILLIS_PER_SECOND;
            compiled = compiledNow;
            if (windowEnd - windowStart == ONE_SECOND && steady.add(throughput) && jitQuiet) {
                return true;
            }
            windowStart = now;
        }
        return false;
    }

    /**
     * The JIT's work so far in ms: its compiler threads' CPU where the meter reads them, else the JVM's total
     * compilation time.
     */
    private long jitWork() {
        long compilerCpuMicros = meter.compilerCpuMicros();
        return compilerCpuMicros > 0 ? compilerCpuMicros / 1000 : jitMillis();
    }

    /** Total JIT compilation time so far, or 0 where the JVM does not report it. */
    private static long jitMillis() {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        return jit != null && jit.isCompilationTimeMonitoringSupported() ? jit.getTotalCompilationTime() : 0;
    }

    private void awaitUntil(long deadline) {
        long remaining;
        while ((remaining = deadline - nanoClock.getAsLong()) > 0) {
            LockSupport.parkNanos(remaining);
        }
    }

    private static SingleWriterRecorder newRecorder() {
        return new SingleWriterRecorder(HIGHEST_LATENCY_NANOS, LATENCY_DIGITS);
    }

    /** The client side of the bench: who calls, and where latencies go. */
    private abstract class Load implements AutoCloseable {
        final List<RpcClient> clients = new ArrayList<>();
        final List<SingleWriterRecorder> recorders = new ArrayList<>();
        final AtomicLong failed = new AtomicLong();
        final AtomicReference<String> firstError = new AtomicReference<>();
        volatile boolean running = true;

        RpcClient newClient() {
            RpcClient client = RpcClient.builder().options(options).reactors(1).build();
            clients.add(client);
            return client;
        }

        void fail(RpcException e) {
            failed.incrementAndGet();
            firstError.compareAndSet(null, e.status() + ": " + e.getMessage());
        }

        abstract void start();

        /** Stops issuing calls and waits for the outstanding ones. */
        abstract void stop();

        /** The latencies recorded since the last swap, merged; the recorders start afresh. */
        Histogram swapLatencies() {
            Histogram merged = new Histogram(HIGHEST_LATENCY_NANOS, LATENCY_DIGITS);
            for (SingleWriterRecorder recorder : recorders) {
                merged.add(recorder.getIntervalHistogram());
            }
            return merged;
        }

        void issue(RpcProxy proxy, int x, RpcCallback<Integer> callback) {
            if (workload.echo()) {
                BenchmarkService.echoAsync(proxy, workload.requestBytes(), workload.responseBytes(),
                        CALL_TIMEOUT_MILLIS, callback);
            } else {
                BenchmarkService.addAsync(proxy, x, 1, CALL_TIMEOUT_MILLIS, callback);
            }
        }

        int call(RpcProxy proxy, int x) {
            return workload.echo()
                    ? BenchmarkService.echo(proxy, workload.requestBytes(), workload.responseBytes(),
                            CALL_TIMEOUT_MILLIS)
                    : BenchmarkService.add(proxy, x, 1, CALL_TIMEOUT_MILLIS);
        }

        @Override
        public void close() {
            running = false;
            stop();
            clients.forEach(RpcClient::close);
        }
    }

    /** rpc-bench's sync mode: one thread, one client, one outstanding call each. */
    private final class SyncLoad extends Load {
        private final List<Thread> threads = new ArrayList<>();

        SyncLoad(RpcServer server) {
            for (int i = 0; i < workload.clientThreads(); i++) {
                RpcProxy proxy = newClient().proxy(server.address());
                SingleWriterRecorder recorder = newRecorder();
                recorders.add(recorder);
                Thread thread = new Thread(() -> callInLoop(proxy, recorder), "rpc-bench-client-" + i);
                thread.setDaemon(true);
                threads.add(thread);
            }
        }

        private void callInLoop(RpcProxy proxy, SingleWriterRecorder recorder) {
            int x = 0;
            while (running) {
                long start = System.nanoTime();
                try {
                    call(proxy, x++);
                    recorder.recordValue(Math.min(System.nanoTime() - start, HIGHEST_LATENCY_NANOS));
                } catch (RpcException e) {
                    fail(e);
                }
            }
        }

        @Override
        void start() {
            threads.forEach(Thread::start);
        }

        @Override
        void stop() {
            running = false;
            for (Thread thread : threads) {
                try {
                    thread.join(CALL_TIMEOUT_MILLIS + 1000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    /** rpc-bench's async mode: call chains spread over the clients, each completion issuing the next call. */
    private final class AsyncLoad extends Load {
        private final List<Chain> chains = new ArrayList<>();
        private final CountDownLatch chainsEnded;

        AsyncLoad(RpcServer server) {
            List<RpcProxy> proxies = new ArrayList<>();
            for (int i = 0; i < workload.clientThreads(); i++) {
                proxies.add(newClient().proxy(server.address()));
                recorders.add(newRecorder());
            }
            for (int i = 0; i < workload.asyncConcurrency(); i++) {
                chains.add(new Chain(proxies.get(i % proxies.size()), recorders.get(i % proxies.size())));
            }
            chainsEnded = new CountDownLatch(chains.size());
        }

        @Override
        void start() {
            chains.forEach(Chain::next);
        }

        @Override
        void stop() {
            running = false;
            try {
                chainsEnded.await(CALL_TIMEOUT_MILLIS + 1000, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        /**
         * One outstanding call at a time. Completions run on the client's event loop, the only writer of the
         * client's recorder; a failed call ends its chain, since retrying at once from the callback could
         * recurse on a dead connection.
         */
        private final class Chain implements RpcCallback<Integer> {
            private final RpcProxy proxy;
            private final SingleWriterRecorder recorder;
            private long start;
            private int x;
            private boolean ended;

            Chain(RpcProxy proxy, SingleWriterRecorder recorder) {
                this.proxy = proxy;
                this.recorder = recorder;
            }

            void next() {
                if (!running) {
                    end();
                    return;
                }
                start = System.nanoTime();
                issue(proxy, x++, this);
            }

            @Override
            public void onSuccess(Integer value) {
                recorder.recordValue(Math.min(System.nanoTime() - start, HIGHEST_LATENCY_NANOS));
                next();
            }

            @Override
            public void onFailure(RpcException error) {
                fail(error);
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
}
