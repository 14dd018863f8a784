package io.perflab.runner.metering;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Measures, over a window, what {@code getrusage} cannot: the split of this process's CPU time into user and
 * system time below the kernel's tick ({@link CpuSampler}), the system calls it makes ({@link SyscallCounter}) and
 * the instructions and cycles it executes ({@link HardwareCounters}), the JIT compiler threads left out of all
 * three as {@link ProcessMeter} leaves them out of CPU time.
 *
 * <p>Each part falls back on its own, with the reason recorded: without permission for CPU-wide sampling the split
 * is {@code getrusage}'s ({@link CpuSplit.Source#TICK}); without readable tracepoints there is no system-call count;
 * without hardware counters (most virtual machines) no instruction or cycle count.
 * So does a window whose samples could not all be read ({@link UnreadableSamplesException}), in {@code auto} mode:
 * its split is the tick split, {@code cpu_split_reason} saying what was wrong. In {@code sampled} mode the window
 * fails instead ({@link SampledSplitException}).
 *
 * <p>A trial JVM takes its settings from system properties, so that they travel with its JVM flags:
 * {@value #MODE_PROPERTY} ({@code auto}, {@code sampled} or {@code tick}), {@value #RATE_PROPERTY} (samples per
 * second of each CPU), {@value #SYSCALLS_PROPERTY} and {@value #HARDWARE_PROPERTY} ({@code true} or {@code false}).
 * Turning sampling or counting off is how their overhead is measured: the same trials with and without, interleaved.
 *
 * <p>Over 300 lines: one session holds the three meters of a window, each opened, read at its start and end and
 * dropped on its own failure, so that each falls back alone.
 */
public final class KernelMeter {

    public static final String MODE_PROPERTY = "perflab.cpuSplit";
    public static final String RATE_PROPERTY = "perflab.cpuSplitHz";
    public static final String SYSCALLS_PROPERTY = "perflab.countSyscalls";
    public static final String HARDWARE_PROPERTY = "perflab.countHardware";

    private final CpuSplitMode mode;
    private final CpuSampler sampler;
    private final boolean countSyscalls;
    /** Opens the hardware counters ({@link HardwareCounters#forThisProcess} but in tests); null: not counted. */
    private final Supplier<HardwareCounters> openHardware;
    private final CpuTimeAccounting accounting;
    /** Starts sampling the threads of a filter: {@link CpuSampler#start(SampleFilter)} but in tests. */
    private final Function<SampleFilter, CpuSampler.Session> startSampling;

    private KernelMeter(CpuSplitMode mode, CpuSampler sampler, boolean countSyscalls,
                        Supplier<HardwareCounters> openHardware, CpuTimeAccounting accounting,
                        Function<SampleFilter, CpuSampler.Session> startSampling) {
        this.mode = mode;
        this.sampler = sampler;
        this.countSyscalls = countSyscalls;
        this.openHardware = openHardware;
        this.accounting = accounting;
        this.startSampling = startSampling != null ? startSampling : sampler::start;
    }

    private KernelMeter(CpuSplitMode mode, int rateHz, boolean countSyscalls, CpuTimeAccounting accounting) {
        this(mode, new CpuSampler(rateHz), countSyscalls, HardwareCounters::forThisProcess, accounting, null);
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
        return new KernelMeter(mode, sampler, false, null, accounting, startSampling);
    }

    /** A meter that touches no perf event: the tick split, no system-call, instruction or cycle count. */
    public static KernelMeter off() {
        return of(CpuSplitMode.TICK, CpuSampler.DEFAULT_RATE_HZ, false).countingHardware(false);
    }

    /** This meter with instructions and cycles counted where the host has hardware counters, or not at all. */
    public KernelMeter countingHardware(boolean count) {
        return countingHardwareWith(count ? HardwareCounters::forThisProcess : null);
    }

    /** This meter with the hardware counters that {@code open} opens: {@link #countingHardware} but in tests. */
    KernelMeter countingHardwareWith(Supplier<HardwareCounters> open) {
        return new KernelMeter(mode, sampler, countSyscalls, open, accounting, startSampling);
    }

    /**
     * The meter that this JVM's system properties describe; {@code auto} at {@value CpuSampler#DEFAULT_RATE_HZ} Hz
     * with system calls, instructions and cycles counted unless they say otherwise.
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
        boolean syscalls = booleanProperty(SYSCALLS_PROPERTY);
        boolean hardware = booleanProperty(HARDWARE_PROPERTY);
        try {
            return of(mode, rateHz, syscalls).countingHardware(hardware);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("-D" + RATE_PROPERTY + ": " + e.getMessage(), e);
        }
    }

    /** A {@code true}/{@code false} system property, {@code true} when not set. */
    private static boolean booleanProperty(String name) {
        String value = System.getProperty(name, "true").strip();
        if (!value.equals("true") && !value.equals("false")) {
            throw new IllegalArgumentException("-D" + name + " must be true or false, got '" + value + "'");
        }
        return value.equals("true");
    }

    /**
     * The value that JVM flags {@code flags} give the system property {@code property} ({@code -Dproperty=value}):
     * the last one, as the JVM takes it; empty where none does.
     */
    public static Optional<String> propertyIn(List<String> flags, String property) {
        String flag = "-D" + property + "=";
        String value = null;
        for (String given : flags) {
            if (given.startsWith(flag)) {
                value = given.substring(flag.length());
            }
        }
        return Optional.ofNullable(value);
    }

    /** Why this host does not count instructions and cycles, tried in this process; empty where it does. */
    public static Optional<String> hardwareNotCounted() {
        return HardwareCounters.unavailableReason();
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

    public boolean countsHardware() {
        return openHardware != null;
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
        private HardwareCounters hardware;
        private String hardwareReason;
        private HardwareCounters.Counts hardwareAtStart;

        private Session() {
            openSampling();
            openHardware();
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

        private void openHardware() {
            if (openHardware == null) {
                hardwareReason = "counting turned off (" + HARDWARE_PROPERTY + "=false)";
                return;
            }
            try {
                hardware = openHardware.get();
            } catch (PerfEvents.PerfEventException | UnsupportedOperationException e) {
                hardwareReason = HardwareCounters.refusalReason(e);
            } catch (LinkageError e) {
                hardwareReason = e.getMessage();
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
            if (hardware != null) {
                try {
                    hardwareAtStart = hardware.read();
                } catch (PerfEvents.PerfEventException e) {
                    dropHardware(e);
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
            OptionalLong instructions = OptionalLong.empty();
            OptionalLong cycles = OptionalLong.empty();
            if (hardware != null && hardwareAtStart != null) {
                try {
                    HardwareCounters.Counts counted = hardware.read().since(hardwareAtStart);
                    instructions = OptionalLong.of((long) counted.instructions());
                    cycles = OptionalLong.of((long) counted.cycles());
                } catch (PerfEvents.PerfEventException e) {
                    dropHardware(e);
                }
            } else if (hardware != null) {
                hardwareReason = "the window's start was not counted";
            }
            close();
            return new KernelWindow(split, syscalls, syscalls.isPresent() ? null : syscallsReason, instructions,
                    cycles, instructions.isPresent() ? null : hardwareReason);
        }

        private void dropCounter(PerfEvents.PerfEventException e) {
            syscallsReason = e.getMessage();
            counter.close();
            counter = null;
        }

        private void dropHardware(PerfEvents.PerfEventException e) {
            hardwareReason = e.getMessage();
            hardware.close();
            hardware = null;
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
            if (hardware != null) {
                hardware.close();
                hardware = null;
            }
        }
    }
}
