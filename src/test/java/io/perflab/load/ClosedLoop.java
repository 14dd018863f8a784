package io.perflab.load;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;

/**
 * Closed-loop clients: each of {@code clients} threads sends a request, waits for its answer, records the
 * latency and sends the next, until {@code maxOperations} were started or {@code duration} has passed.
 *
 * <p>Closed-loop clients have no intended send rate, so a slow answer delays the next request instead of
 * queueing it behind the client's back: the recorded latency of each request is its true latency and there is
 * no coordinated omission to correct. The price is that throughput is an outcome, not an input.
 */
final class ClosedLoop {

    /** One request; returns the samples it carried (0 when that means nothing) or throws on any failure. */
    @FunctionalInterface
    interface Operation {
        int run(int client, long index) throws Exception;
    }

    /** What a run measured: counts, wall time and the merged latency histogram (nanoseconds). */
    record Outcome(long operations, long errors, long samples, double seconds, double cpuSeconds,
                   Histogram latencyNanos, List<String> firstErrors) {

        /** CPU time of the whole process (server and clients) per operation, in milliseconds. */
        double cpuMillisPerOperation() {
            return operations == 0 ? 0 : 1e3 * cpuSeconds / operations;
        }

        double operationsPerSecond() {
            return seconds == 0 ? 0 : operations / seconds;
        }

        double samplesPerSecond() {
            return seconds == 0 ? 0 : samples / seconds;
        }

        double percentileMillis(double percentile) {
            return latencyNanos.getTotalCount() == 0 ? 0 : latencyNanos.getValueAtPercentile(percentile) / 1e6;
        }
    }

    private ClosedLoop() {
    }

    static Outcome run(int clients, long maxOperations, Duration duration, Operation operation)
            throws InterruptedException {
        AtomicLong started = new AtomicLong();
        AtomicLong errors = new AtomicLong();
        AtomicLong samples = new AtomicLong();
        List<String> firstErrors = java.util.Collections.synchronizedList(new ArrayList<>());
        long deadline = System.nanoTime() + duration.toNanos();
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        List<Future<Histogram>> results = new ArrayList<>();
        long begin = System.nanoTime();
        long cpuBegin = processCpuNanos();
        for (int c = 0; c < clients; c++) {
            int client = c;
            results.add(pool.submit(() -> {
                Histogram histogram = new Histogram(Duration.ofMinutes(10).toNanos(), 3);
                while (System.nanoTime() < deadline) {
                    long index = started.getAndIncrement();
                    if (index >= maxOperations) {
                        break;
                    }
                    long t0 = System.nanoTime();
                    try {
                        samples.addAndGet(operation.run(client, index));
                        histogram.recordValue(System.nanoTime() - t0);
                    } catch (Exception e) {
                        errors.incrementAndGet();
                        if (firstErrors.size() < 5) {
                            firstErrors.add(e.toString());
                        }
                    }
                }
                return histogram;
            }));
        }
        Histogram merged = new Histogram(Duration.ofMinutes(10).toNanos(), 3);
        try {
            for (Future<Histogram> result : results) {
                merged.add(result.get());
            }
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException("a load client failed", e.getCause());
        } finally {
            pool.shutdownNow();
        }
        double seconds = (System.nanoTime() - begin) / 1e9;
        double cpuSeconds = (processCpuNanos() - cpuBegin) / 1e9;
        return new Outcome(merged.getTotalCount(), errors.get(), samples.get(), seconds, cpuSeconds, merged,
                List.copyOf(firstErrors));
    }

    /**
     * CPU time of this process so far: on a shared machine, CPU per operation is steadier than wall-clock
     * throughput, which depends on what else runs.
     */
    static long processCpuNanos() {
        if (java.lang.management.ManagementFactory.getOperatingSystemMXBean()
                instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getProcessCpuTime();
        }
        return 0;
    }
}
