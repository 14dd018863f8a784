package io.perflab.runner.metering;

import com.sun.jna.Native;
import com.sun.jna.Platform;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.LongUnaryOperator;

/**
 * Is the kernel's tick split of user and system time biased? Runs workloads whose split is known on one thread
 * and measures each three ways over the same window: {@code cpu-clock} samples of that thread on every CPU
 * ({@link CpuSampler}), the tick split that {@code getrusage(RUSAGE_THREAD)} reports, and what the workload
 * itself implies. Usage: {@code CpuSplitBias [--seconds S] [--rate HZ] [--mix N,N…] [--overhead-rounds R]};
 * {@code docs/perf/cpu-split-bias.sh} runs it with 60 s windows.
 *
 * <p>The workloads: {@code spin}, xorshift steps that never enter the kernel (0 % kernel); {@code noop-call}, a
 * JNA call of libc's {@code labs}, the same path as the next without a system call (0 %); {@code getppid}, a JNA
 * call of the cheapest system call, whose kernel share is {@code 1 − t(noop-call) / t(getppid)} by difference;
 * {@code mix:N}, N spin steps then one {@code getppid}, expected at
 * {@code (t(getppid) − t(noop-call)) × calls / CPU time}, a Java counterpart of a Python loop that calls
 * {@code os.getppid()} every 50 iterations; {@code yield}, {@code Thread.yield()}, nearly all kernel. The
 * expectations take the whole difference between a {@code getppid} call and a no-op call for kernel time. Two
 * effects would make the measured kernel shares fall short of them, by samples and by ticks alike: a system call
 * leaves caches and predictors disturbed (the mitigations flush some on the way out), so the user code after it
 * runs slower; and a timer interrupt that comes due while the kernel runs with interrupts off on its way out is
 * taken just after the return, in user mode. With {@code --overhead-rounds}, {@code spin} alternates between
 * windows with and without sampling, and the slowdown is what the samples cost: the timer interrupt each one takes
 * is charged to the thread it interrupts.
 *
 * <p>What to expect, and the observation that prompted this (a Python loop calling {@code getppid()} every 50
 * iterations showed 12 % kernel time in {@code perf record -e cpu-clock} at any rate from 1 to 20 kHz, against
 * 4–6 % from {@code getrusage}). Both methods are timer interrupts that look at the mode of the interrupted
 * context, so the effects that could bias one, such as interrupts held back while the kernel runs with interrupts
 * off and delivered after the return to user mode, bias the other alike; they should agree over the same window
 * and the same thread, and differ only by their sampling error (ticks: 250 a second; samples: 4,999), with two
 * exceptions where the tick is biased and samples out of step with it are not. The kernel work that a tick starts
 * itself (its handler, the softirqs run as it returns, a preemption it decides) always follows a tick and never
 * meets one, so tick accounting charges it to whatever mode the tick interrupted, user mode for a spinning thread.
 * And a thread whose running is in step with the tick (on a busy CPU, time slices end at ticks) is seen by the
 * tick at the same moments of its work every time. Neither comes near a factor of two: the likely explanation of
 * the observation is that they did not measure the same window: {@code perf record -- python3 …}
 * samples the whole life of the process, whose start-up (exec, loading the interpreter and its modules, page
 * faults) and exit run mostly in the kernel, while {@code getrusage} deltas around the loop see the loop only. A
 * mismatch of windows does not depend on the sampling rate, as observed. Measured here briefly (3 s loops, 2-vCPU
 * VM, kernel 6.18): per-thread {@code perf record} of the whole Python process put 3.5 % of its samples in the
 * kernel, 51 % of them in its first 100 ms and 1–3 % afterwards; CPU-wide samples of the loop alone, 1.9 %;
 * {@code getrusage} around the loop, 1.5–2.2 %. The script reproduces this with its three readings of the Python
 * loop; in its first 2 s run on the busy machine, the whole-process samples showed 6.2 % kernel, the samples
 * inside the loop 2.2 %, CPU-wide samples of the loop 2.6 %, and {@code getrusage} around the loop 1.4 ± 0.8 % and
 * 3.6 ± 1.1 %. The same 2 s run of the synthetic workloads found ticks and samples in agreement for
 * {@code getppid} (29 % and 30 % kernel) and the mixes, both far below the 59 % that {@code getppid} implies by
 * difference, and ticks 17 points below samples for {@code yield} on CPUs that other processes kept busy. The
 * 60 s campaign on an idle machine settles these.
 *
 * <p>Over 300 lines: a standalone study, whose workloads, measurement and table read best as one program.
 */
public final class CpuSplitBias {

    /** Iterations between two readings of the clock. */
    private static final int BATCH = 1_000;

    /** Where results go that no one reads, so that the JIT cannot drop the work that made them. */
    private static volatile long sink;

    private final CpuSampler sampler;
    private final Duration window;
    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();

    CpuSplitBias(CpuSampler sampler, Duration window) {
        this.sampler = sampler;
        this.window = window;
    }

    public static void main(String[] args) {
        System.exit(run(List.of(args), System.out, System.err));
    }

    /** Runs the study with {@code args}; returns the exit status (2 for arguments it cannot use). */
    static int run(List<String> args, PrintStream out, PrintStream err) {
        double seconds = 60;
        int rate = CpuSampler.DEFAULT_RATE_HZ;
        List<Integer> mixes = List.of(1_000, 4_000);
        int overheadRounds = 10;
        try {
            for (int i = 0; i < args.size(); i += 2) {
                if (i + 1 >= args.size()) {
                    throw new IllegalArgumentException(args.get(i) + " needs a value");
                }
                String value = args.get(i + 1);
                switch (args.get(i)) {
                    case "--seconds" -> seconds = Double.parseDouble(value);
                    case "--rate" -> rate = Integer.parseInt(value);
                    case "--mix" -> mixes = parseMixes(value);
                    case "--overhead-rounds" -> overheadRounds = Integer.parseInt(value);
                    default -> throw new IllegalArgumentException("unknown argument '" + args.get(i) + "'");
                }
            }
            if (!(seconds > 0)) {
                throw new IllegalArgumentException("--seconds must be greater than 0, got " + seconds);
            }
        } catch (IllegalArgumentException e) {
            err.println("CpuSplitBias: " + e.getMessage() + "; expected --seconds S, --rate HZ, --mix N[,N…], "
                    + "--overhead-rounds R");
            return 2;
        }
        String missing = CpuSampler.unavailableReason().orElse(null);
        if (missing != null) {
            err.println("CpuSplitBias: cpu-clock sampling is not possible here: " + missing);
            return 1;
        }
        CpuSplitBias study = new CpuSplitBias(new CpuSampler(rate), Duration.ofMillis((long) (seconds * 1000)));
        CpuTimeAccounting accounting = CpuTimeAccounting.host();
        out.printf(Locale.ROOT, "%s s per workload, one thread, cpu-clock at %d Hz on every CPU, kernel split: %s%n%n",
                seconds, rate, accounting.describe());
        out.print(table(study.runAll(mixes), accounting.hz()));
        if (overheadRounds > 0) {
            out.println();
            out.print(study.overhead(overheadRounds, Duration.ofMillis(Math.max(200, (long) (seconds * 100)))));
        }
        return 0;
    }

    static List<Integer> parseMixes(String value) {
        List<Integer> mixes = new ArrayList<>();
        for (String n : value.split(",")) {
            mixes.add(Integer.parseInt(n.strip()));
        }
        return mixes;
    }

    /** spin, noop-call, getppid, each mix, yield; each with its expectation. */
    List<Measurement> runAll(List<Integer> mixes) {
        List<Measurement> rows = new ArrayList<>();
        rows.add(measure("spin", 0, CpuSplitBias::spin));
        Measurement noop = measure("noop-call", 0, CpuSplitBias::noopCalls);
        rows.add(noop);
        Measurement getppid = measure("getppid", Double.NaN, CpuSplitBias::getppidCalls);
        double kernelPerCall = Math.max(0, getppid.cpuNanosPerIteration() - noop.cpuNanosPerIteration());
        rows.add(getppid.expecting(kernelPerCall / getppid.cpuNanosPerIteration()));
        for (int steps : mixes) {
            Measurement mix = measure("mix:" + steps, Double.NaN, n -> mixed(n, steps));
            rows.add(mix.expecting(kernelPerCall / mix.cpuNanosPerIteration()));
        }
        rows.add(measure("yield", Double.NaN, CpuSplitBias::yields));
        return rows;
    }

    /**
     * Runs {@code work} (given a number of iterations, returning a result to keep) in batches on this thread for
     * the window, sampling this thread.
     */
    Measurement measure(String name, double expectedKernelShare, LongUnaryOperator work) {
        int tid = currentThreadId();
        work.applyAsLong(BATCH);
        CpuSampler.Session sampling = sampler.start(SampleFilter.thread(tid));
        long results = 0;
        long iterations = 0;
        ResourceUsage tickBefore = ResourceUsage.currentThread();
        long cpuBefore = threads.getCurrentThreadCpuTime();
        long start = System.nanoTime();
        sampling.countFrom(start);
        long end = start + window.toNanos();
        long now;
        do {
            results += work.applyAsLong(BATCH);
            iterations += BATCH;
            now = System.nanoTime();
        } while (now < end);
        CpuSampler.Counts counts = sampling.stop(now);
        long cpu = threads.getCurrentThreadCpuTime() - cpuBefore;
        ResourceUsage tick = ResourceUsage.currentThread().minus(tickBefore);
        sink = results;
        return new Measurement(name, iterations, cpu, tick, counts, expectedKernelShare);
    }

    /** spin with and without sampling, alternating, and the slowdown that sampling causes. */
    String overhead(int rounds, Duration half) {
        double on = 0;
        double off = 0;
        for (int r = 0; r < rounds; r++) {
            off += spinNanosPerStep(half, false);
            on += spinNanosPerStep(half, true);
        }
        double slowdown = on / off - 1;
        return String.format(Locale.ROOT, "sampling overhead: spin costs %+.2f %% of CPU with sampling on (%d "
                + "alternations of %.1f s), about %.2f µs a sample%n", 100 * slowdown, rounds,
                half.toMillis() / 1e3, slowdown * 1e6 / sampler.rateHz());
    }

    private double spinNanosPerStep(Duration length, boolean sampled) {
        CpuSampler.Session sampling = sampled ? sampler.start((pid, tid) -> false) : null;
        long cpuBefore = threads.getCurrentThreadCpuTime();
        long end = System.nanoTime() + length.toNanos();
        long steps = 0;
        long results = 0;
        while (System.nanoTime() < end) {
            results += spin(BATCH * 100);
            steps += BATCH * 100;
        }
        double perStep = (double) (threads.getCurrentThreadCpuTime() - cpuBefore) / steps;
        if (sampling != null) {
            sampling.close();
        }
        sink = results;
        return perStep;
    }

    /** The kernel's id of the calling thread, from {@code /proc/thread-self} ({@code <pid>/task/<tid>}). */
    static int currentThreadId() {
        try {
            Path link = Files.readSymbolicLink(Path.of("/proc/thread-self"));
            return Integer.parseInt(link.getFileName().toString());
        } catch (IOException | RuntimeException e) {
            throw new UnsupportedOperationException("cannot read this thread's id from /proc/thread-self", e);
        }
    }

    /** {@code steps} xorshift steps: user mode only. */
    static long spin(long steps) {
        long x = 88172645463325252L;
        for (long i = 0; i < steps; i++) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
        }
        return x;
    }

    private static long noopCalls(long n) {
        long sum = 0;
        for (long i = 0; i < n; i++) {
            sum += LibC.labs(i);
        }
        return sum;
    }

    private static long getppidCalls(long n) {
        long sum = 0;
        for (long i = 0; i < n; i++) {
            sum += LibC.getppid();
        }
        return sum;
    }

    private static long mixed(long n, int steps) {
        long sum = 0;
        for (long i = 0; i < n; i++) {
            sum += spin(steps) + LibC.getppid();
        }
        return sum;
    }

    /** {@code n} calls of {@code sched_yield} through {@code Thread.yield()}: nearly all kernel. */
    static long yields(long n) {
        for (long i = 0; i < n; i++) {
            Thread.yield();
        }
        return n;
    }

    /** libc through JNA's direct mapping: the cheapest way from Java to a C function. */
    private static final class LibC {
        static {
            Native.register(Platform.C_LIBRARY_NAME);
        }

        static native int getppid();

        static native long labs(long value);
    }

    /**
     * One workload over one window.
     *
     * @param workload its name
     * @param iterations loop iterations (spin steps for {@code spin}, calls for the others)
     * @param cpuNanos the thread's exact CPU time in the window
     * @param tick the thread's {@code getrusage(RUSAGE_THREAD)} difference: the exact total, split by ticks
     * @param sampled the thread's {@code cpu-clock} samples
     * @param expectedKernelShare what the workload implies (a fraction), NaN where it implies no number
     */
    record Measurement(String workload, long iterations, long cpuNanos, ResourceUsage tick,
                       CpuSampler.Counts sampled, double expectedKernelShare) {

        double cpuNanosPerIteration() {
            return (double) cpuNanos / iterations;
        }

        Measurement expecting(double share) {
            return new Measurement(workload, iterations, cpuNanos, tick, sampled, share);
        }

        double sampledKernelShare() {
            long n = sampled.user() + sampled.kernel();
            return n == 0 ? Double.NaN : (double) sampled.kernel() / n;
        }

        double tickKernelShare() {
            return tick.cpuMicros() == 0 ? Double.NaN : (double) tick.systemMicros() / tick.cpuMicros();
        }
    }

    /**
     * The study's table: per workload its CPU time, the expected kernel share and the sampled and tick shares with
     * their binomial standard errors (samples counted; ticks estimated as CPU time × {@code hz}).
     */
    static String table(List<Measurement> rows, int hz) {
        StringBuilder s = new StringBuilder();
        String format = "%-11s %8s %10s %22s %22s %9s%n";
        s.append(String.format(Locale.ROOT, format, "workload", "CPU s", "expected", "sampled kernel % (n)",
                "tick kernel % (n)", "ns/iter"));
        for (Measurement m : rows) {
            long samples = m.sampled().user() + m.sampled().kernel();
            double ticks = hz > 0 ? m.tick().cpuMicros() / 1e6 * hz : Double.NaN;
            s.append(String.format(Locale.ROOT, format, m.workload(), String.format(Locale.ROOT, "%.2f",
                    m.cpuNanos() / 1e9), Double.isNaN(m.expectedKernelShare()) ? "—"
                    : String.format(Locale.ROOT, "%.2f %%", 100 * m.expectedKernelShare()),
                    share(m.sampledKernelShare(), samples) + " (" + samples + ")",
                    share(m.tickKernelShare(), ticks) + " (" + (Double.isNaN(ticks) ? "?" : Math.round(ticks)) + ")",
                    String.format(Locale.ROOT, "%.1f", m.cpuNanosPerIteration())));
        }
        s.append("± is one binomial standard error, sqrt(p(1 − p)/n), in percentage points. "
                + "expected: by difference of the workloads' costs (see CpuSplitBias).\n");
        if (rows.stream().anyMatch(m -> m.sampled().lost() > 0)) {
            s.append("Some samples were lost (buffers full): the sampled shares count fewer samples.\n");
        }
        return s.toString();
    }

    private static String share(double share, double n) {
        if (Double.isNaN(share)) {
            return "—";
        }
        double se = Double.isNaN(n) || n <= 0 ? Double.NaN : Math.sqrt(share * (1 - share) / n);
        return Double.isNaN(se) ? String.format(Locale.ROOT, "%.2f", 100 * share)
                : String.format(Locale.ROOT, "%.2f ± %.2f", 100 * share, 100 * se);
    }
}
