package io.perflab.rpc.bench;

import io.perflab.rpc.BenchmarkService;
import io.perflab.rpc.EngineOptions;
import io.perflab.rpc.RpcClient;
import io.perflab.rpc.RpcException;
import io.perflab.rpc.RpcProxy;
import io.perflab.rpc.RpcServer;
import io.perflab.rpc.ServerConfig;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A quick in-process measurement, not rpc-bench: one server (4 reactors, 1 worker) and 16 client
 * threads making synchronous {@code Calculator.Add} calls in this JVM. After a warm-up it measures
 * a window and prints requests/s, heap bytes allocated per call (all threads), user and system CPU
 * per call from {@code /proc/self/stat} (whole process: client and server) and context switches
 * per call (summed over {@code /proc/self/task/}), the slowest one-second count of the window and
 * failed calls.
 *
 * <p>Usage: {@code QuickBench [warmupSeconds] [runSeconds] [option=value ...]}
 */
public final class QuickBench {

    private static final int CLIENT_THREADS = 16;
    private static final double CLOCK_TICKS_PER_SECOND = 100.0;

    private QuickBench() {
    }

    public static void main(String[] args) throws Exception {
        int warmupSeconds = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        int runSeconds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        EngineOptions options = EngineOptions.defaults();
        for (int i = 2; i < args.length; i++) {
            String[] kv = args[i].split("=", 2);
            options = options.withOption(kv[0], kv[1]);
        }
        ServerConfig config = ServerConfig.defaults().withServerReactors(4).withWorkerThreads(1);
        try (RpcServer server = RpcServer.builder().options(options).config(config)
                .addService(BenchmarkService.definition()).start();
             RpcClient client = RpcClient.create(options)) {
            RpcProxy proxy = client.proxy(server.address());
            BenchmarkService.add(proxy, 0, 0, 60_000); // connect before the warm-up clock starts
            AtomicLongArray counts = new AtomicLongArray(CLIENT_THREADS * 16);
            CountDownLatch stop = new CountDownLatch(1);
            AtomicLong failures = new AtomicLong();
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < CLIENT_THREADS; t++) {
                int slot = t * 16; // one counter per cache line
                Thread thread = new Thread(() -> {
                    int x = 0;
                    while (stop.getCount() > 0) {
                        try {
                            int sum = BenchmarkService.add(proxy, x, 1, 10_000);
                            if (sum != x + 1) {
                                throw new IllegalStateException("wrong sum " + sum);
                            }
                            counts.lazySet(slot, counts.get(slot) + 1);
                        } catch (RpcException e) {
                            failures.incrementAndGet();
                            System.err.println("call failed: " + e.getMessage());
                        }
                        x++;
                    }
                }, "bench-client-" + t);
                thread.setDaemon(true);
                threads.add(thread);
                thread.start();
            }
            Thread.sleep(warmupSeconds * 1000L); // benchmark pacing, not synchronisation

            long calls0 = total(counts);
            long alloc0 = allocatedBytes();
            long[] cpu0 = cpuTicks();
            long ctx0 = contextSwitches();
            long t0 = System.nanoTime();
            long slowestSecond = Long.MAX_VALUE;
            long previous = calls0;
            for (int s = 0; s < runSeconds; s++) {
                Thread.sleep(1000L);
                long now = total(counts);
                slowestSecond = Math.min(slowestSecond, now - previous);
                previous = now;
            }
            long calls1 = total(counts);
            long alloc1 = allocatedBytes();
            long[] cpu1 = cpuTicks();
            long ctx1 = contextSwitches();
            long t1 = System.nanoTime();
            stop.countDown();
            for (Thread thread : threads) {
                thread.join(15_000);
            }

            double calls = calls1 - calls0;
            double seconds = (t1 - t0) / 1e9;
            double userUs = (cpu1[0] - cpu0[0]) / CLOCK_TICKS_PER_SECOND * 1e6 / calls;
            double sysUs = (cpu1[1] - cpu0[1]) / CLOCK_TICKS_PER_SECOND * 1e6 / calls;
            String changed = options.differencesFrom(EngineOptions.defaults()).toString();
            System.out.printf(Locale.ROOT,
                    "RESULT variant=%s transport=%s reqs_per_sec=%.0f alloc_bytes_per_req=%.1f "
                            + "user_cpu_us_per_req=%.2f sys_cpu_us_per_req=%.2f ctx_switches_per_req=%.2f "
                            + "slowest_second=%d failed_calls=%d%n",
                    changed.equals("{}") ? "default" : changed.replace(" ", ""), server.transport(),
                    calls / seconds, (alloc1 - alloc0) / calls, userUs, sysUs, (ctx1 - ctx0) / calls,
                    slowestSecond, failures.get());
        }
    }

    private static long total(AtomicLongArray counts) {
        long sum = 0;
        for (int i = 0; i < counts.length(); i += 16) {
            sum += counts.get(i);
        }
        return sum;
    }

    private static long allocatedBytes() {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        return mx.getTotalThreadAllocatedBytes();
    }

    /** utime and stime of the whole process in clock ticks: fields 14 and 15 of /proc/self/stat. */
    private static long[] cpuTicks() throws IOException {
        String stat = Files.readString(Path.of("/proc/self/stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return new long[] {Long.parseLong(f[11]), Long.parseLong(f[12])};
    }

    private static long contextSwitches() throws IOException {
        long sum = 0;
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
            for (Path task : tasks) {
                try {
                    for (String line : Files.readAllLines(task.resolve("status"))) {
                        if (line.startsWith("voluntary_ctxt_switches")
                                || line.startsWith("nonvoluntary_ctxt_switches")) {
                            sum += Long.parseLong(line.substring(line.indexOf(':') + 1).strip());
                        }
                    }
                } catch (IOException gone) {
                    // thread exited while we read
                }
            }
        }
        return sum;
    }
}
