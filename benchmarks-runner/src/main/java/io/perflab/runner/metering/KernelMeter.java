package io.perflab.runner.metering;

import java.util.OptionalLong;
import java.util.function.Function;

/**
 * Measures, over a window, what {@code getrusage} cannot: the split of this process's CPU time into user and
 * system time below the kernel's tick ({@link CpuSampler}) and the system calls it makes ({@link SyscallCounter}),
 * the JIT compiler threads left out of both as {@link ProcessMeter} leaves them out of CPU time.
 *
 * <p>Each part falls back on its own, with the reason recorded: without permission for CPU-wide sampling the split
 * is {@code getrusage}'s ({@link CpuSplit.Source#TICK}); without readable tracepoints there is no system-call count.
 * So does a window whose samples could not all be read ({@link UnreadableSamplesException}), in {@code auto} mode:
 * its split is the tick split, {@code cpu_split_reason} saying what was wrong. In {@code sampled} mode the window
 * fails instead ({@link SampledSplitException}).
 *
 * <p>A trial JVM takes its settings from system properties, so that they travel with its JVM flags:
 * {@value #MODE_PROPERTY} ({@code auto}, {@code sampled} or {@code tick}), {@value #RATE_PROPERTY} (samples per
 * second of each CPU) and {@value #SYSCALLS_PROPERTY} ({@code true} or {@code false}). Turning sampling or counting
 * off is how their overhead is measured: the same trials with and without, interleaved.
 */
public final class KernelMeter {

    public static final String MODE_PROPERTY = "perflab.cpuSplit";
    public static final String RATE_PROPERTY = "perflab.cpuSplitHz";
    public static final String SYSCALLS_PROPERTY = "perflab.countSyscalls";

    private final CpuSplitMode mode;
    private final CpuSampler sampler;
    private final boolean countSyscalls;
    private final CpuTimeAccounting accounting;
    /** Starts sampling the threads of a filter: {@link CpuSampler#start(SampleFilter)} but in tests. */
    private final Function<SampleFilter, CpuSampler.Session> startSampling;

    private KernelMeter(CpuSplitMode mode, CpuSampler sampler, boolean countSyscalls, CpuTimeAccounting accounting,
                        Function<SampleFilter, CpuSampler.Session> startSampling) {
        this.mode = mode;
        this.sampler = sampler;
        this.countSyscalls = countSyscalls;
        this.accounting = accounting;
        this.startSampling = startSampling != null ? startSampling : sampler::start;
    }

    private KernelMeter(CpuSplitMode mode, int rateHz, boolean countSyscalls, CpuTimeAccounting accounting) {
        this(mode, new CpuSampler(rateHz), countSyscalls, accounting, null);
    }

    /**
     * @param rateHz {@code cpu-clock} samples per second of each CPU
     * @throws IllegalArgumentException for a rate out of range
     */
    public static KernelMeter of(CpuSplitMode mode, int rateHz, boolean countSyscalls) {
        return new KernelMeter(mode, rateHz, countSyscalls, CpuTimeAccounting.host());
    }

    static KernelMeter of(CpuSplitMode mode, int rateHz, boolean countSyscalls, CpuTimeAccounting accounting) {
        return new KernelMeter(mode, rateHz, countSyscalls, accounting);
    }

    /** A meter whose sessions sample with what {@code startSampling} starts, not with perf events of their own. */
    static KernelMeter sampling(CpuSplitMode mode, CpuSampler sampler, CpuTimeAccounting accounting,
                                Function<SampleFilter, CpuSampler.Session> startSampling) {
        return new KernelMeter(mode, sampler, false, accounting, startSampling);
    }

    /** A meter that touches no perf event: the tick split, no system-call count. */
    public static KernelMeter off() {
        return of(CpuSplitMode.TICK, CpuSampler.DEFAULT_RATE_HZ, false);
    }

    /**
     * The meter that this JVM's system properties describe; {@code auto} at {@value CpuSampler#DEFAULT_RATE_HZ} Hz
     * with system calls counted unless they say otherwise.
     *
     * @throws IllegalArgumentException naming the property whose value is not allowed
     */
    public static KernelMeter fromSystemProperties() {
        CpuSplitMode mode = CpuSplitMode.parse("-D" + MODE_PROPERTY,
                System.getProperty(MODE_PROPERTY, CpuSplitMode.AUTO.label()));
        String rate = System.getProperty(RATE_PROPERTY, Integer.toString(CpuSampler.DEFAULT_RATE_HZ));
        int rateHz;
        try {
            rateHz = Integer.parseInt(rate.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("-D" + RATE_PROPERTY + " must be a whole number of Hz, got '" + rate
                    + "'");
        }
        String syscalls = System.getProperty(SYSCALLS_PROPERTY, "true").strip();
        if (!syscalls.equals("true") && !syscalls.equals("false")) {
            throw new IllegalArgumentException("-D" + SYSCALLS_PROPERTY + " must be true or false, got '" + syscalls
                    + "'");
        }
        try {
            return of(mode, rateHz, syscalls.equals("true"));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("-D" + RATE_PROPERTY + ": " + e.getMessage(), e);
        }
    }

    public CpuSplitMode mode() {
        return mode;
    }

    public int rateHz() {
        return sampler.rateHz();
    }

    public boolean countsSyscalls() {
        return countSyscalls;
    }

    /**
     * Opens what this meter measures with, before a window: sampling starts, counters are attached. Nothing counts
     * until {@link Session#windowStarts}.
     *
     * @throws SampledSplitException in {@code sampled} mode, when sampling is not possible here, saying why
     */
    public Session open() {
        return new Session();
    }

    /**
     * In {@code sampled} mode, a window that could not be sampled: its message ({@code cpu split mode sampled: }
     * and what was wrong) is what a trial reports, without the trace.
     */
    public static final class SampledSplitException extends IllegalStateException {

        private static final long serialVersionUID = 1L;

        SampledSplitException(Throwable cause) {
            super("cpu split mode sampled: " + cause.getMessage(), cause);
        }
    }

    /** The meter around one window. */
    public final class Session implements AutoCloseable {

        private CpuSampler.Session sampling;
        private String splitReason;
        private SyscallCounter counter;
        private String syscallsReason;
        private long syscallsAtStart;

        private Session() {
            openSampling();
            if (!countSyscalls) {
                syscallsReason = "counting turned off (" + SYSCALLS_PROPERTY + "=false)";
                return;
            }
            try {
                counter = SyscallCounter.forThisProcess();
            } catch (PerfEvents.PerfEventException | UnsupportedOperationException | LinkageError e) {
                syscallsReason = e.getMessage();
            }
        }

        private void openSampling() {
            if (mode == CpuSplitMode.TICK) {
                splitReason = "sampling turned off (cpu split mode tick)";
                return;
            }
            if (mode == CpuSplitMode.AUTO && accounting.kind() == CpuTimeAccounting.Kind.PRECISE) {
                splitReason = "the kernel times user and system mode exactly (cpu_time_accounting=precise)";
                return;
            }
            try {
                sampling = startSampling.apply(CompilerThreads.workloadFilter());
            } catch (PerfEvents.PerfEventException | UnsupportedOperationException | LinkageError e) {
                if (mode == CpuSplitMode.SAMPLED) {
                    close();
                    throw new SampledSplitException(e);
                }
                splitReason = e.getMessage();
            }
        }

        /** The window starts at {@code nanoTime} ({@link System#nanoTime()}), which has passed. */
        public void windowStarts(long nanoTime) {
            if (sampling != null) {
                sampling.countFrom(nanoTime);
            }
            if (counter != null) {
                try {
                    syscallsAtStart = counter.read();
                } catch (PerfEvents.PerfEventException e) {
                    dropCounter(e);
                }
            }
        }

        /**
         * The window ended at {@code nanoTime}, which has passed: what it measured. Sampling stops; the session
         * is closed.
         *
         * @throws SampledSplitException in {@code sampled} mode, when the samples could not be read, saying why
         */
        public KernelWindow windowEnds(long nanoTime) {
            CpuSplit split = CpuSplit.tick(splitReason);
            if (sampling != null) {
                try {
                    split = CpuSplit.sampled(sampling.stop(nanoTime));
                } catch (PerfEvents.PerfEventException | UnreadableSamplesException e) {
                    if (mode == CpuSplitMode.SAMPLED) {
                        close();
                        throw new SampledSplitException(e);
                    }
                    split = CpuSplit.tick(e.getMessage());
                }
            }
            OptionalLong syscalls = OptionalLong.empty();
            if (counter != null) {
                try {
                    syscalls = OptionalLong.of(counter.read() - syscallsAtStart);
                } catch (PerfEvents.PerfEventException e) {
                    dropCounter(e);
                }
            }
            close();
            return new KernelWindow(split, syscalls, syscalls.isPresent() ? null : syscallsReason);
        }

        private void dropCounter(PerfEvents.PerfEventException e) {
            syscallsReason = e.getMessage();
            counter.close();
            counter = null;
        }

        @Override
        public void close() {
            if (sampling != null) {
                sampling.close();
                sampling = null;
            }
            if (counter != null) {
                counter.close();
                counter = null;
            }
        }
    }
}
