package io.perflab.runner.metering;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Samples what every CPU this process may run on is doing, {@code rateHz} times a second, with the
 * {@code cpu-clock} software event (an hrtimer per CPU), and counts the samples that landed in the selected
 * threads by mode: user or kernel.
 *
 * <p>Why every CPU rather than the process's threads: a per-thread sampling event is switched in and out with its
 * thread, re-arming the CPU's timer at each context switch, and an RPC benchmark switches hundreds of thousands of
 * times a second. Measured on a 2-vCPU VM ({@code perf record -F 4000} of an rpc-bench trial), following its
 * threads raised user CPU per request by 20–60 %, while sampling both CPUs cost nothing measurable. A CPU-wide
 * event costs one timer interrupt per sample whatever runs, and the thread of each sample is in its record. It
 * needs {@code kernel.perf_event_paranoid ≤ 0}, or {@code CAP_PERFMON}/{@code CAP_SYS_ADMIN}.
 *
 * <p>Samples carry {@code CLOCK_MONOTONIC} time stamps, so a window counts exactly the samples between its two
 * {@link System#nanoTime()} readings, however long before it sampling started. A daemon thread empties the buffers
 * before they can fill, from the moment sampling starts: before the window's start is known it takes only the samples
 * older than one drain interval, which the window, told its start within that interval of it, does not hold. A full
 * buffer loses samples, and the count of lost samples in the window says so ({@link SampleTally} places losses by their
 * time stamps). A buffer that cannot be read (its head and tail out of step, a record the kernel does not write, or a
 * loss without a time stamp, which may be the window's or not) makes the session's samples untrustworthy: draining
 * stops, and {@link Session#stop} says why ({@link UnreadableSamplesException}) instead of counting what was read. So
 * does a buffer still full after a record of the window when sampling stops: the kernel may have dropped samples
 * since, and says how many only in the next record it writes there, which it no longer does
 * ({@link PerfRingBuffer#mayHoldUnreportedLoss}).
 *
 * <p>Over 300 lines: a session's background drains, the failures they record and its last drain share one lock and
 * one state, kept in one class so that every way of losing samples is judged in one place.
 */
public final class CpuSampler {

    /**
     * Default rate: about 20 times the usual 250 Hz tick, and prime to it, so that samples do not fall in step
     * with the tick or with anything the tick drives.
     */
    public static final int DEFAULT_RATE_HZ = 4999;
    /** Highest rate: {@code cpu-clock}'s timer does not fire more often than every 10 µs. */
    public static final int MAX_RATE_HZ = 100_000;
    /** 512 KiB of 4 KiB pages a CPU: what {@code kernel.perf_event_mlock_kb}'s default lets anyone lock. */
    private static final int DATA_PAGES = 128;
    private static final int SAMPLE_RECORD_BYTES = 24;
    private static final Path CPUS_ALLOWED = Path.of("/proc/self/status");

    private final int rateHz;

    /**
     * @param rateHz samples per second of each CPU, 1 to {@value #MAX_RATE_HZ}
     * @throws IllegalArgumentException for a rate out of range
     */
    public CpuSampler(int rateHz) {
        if (rateHz < 1 || rateHz > MAX_RATE_HZ) {
            throw new IllegalArgumentException("the cpu-clock sampling rate must be between 1 and " + MAX_RATE_HZ
                    + " Hz, got " + rateHz);
        }
        this.rateHz = rateHz;
    }

    public int rateHz() {
        return rateHz;
    }

    /**
     * Opens and enables a sampling event on each CPU this process may run on and starts emptying their buffers.
     * Samples count once {@link Session#countFrom} is called.
     *
     * @throws PerfEvents.PerfEventException when the kernel refuses an event or its buffer, saying why
     */
    public Session start(SampleFilter filter) {
        Session session = new Session(filter);
        try {
            session.open(cpus());
        } catch (RuntimeException e) {
            session.close();
            throw e;
        }
        return session;
    }

    /**
     * A session that drains {@code buffers}, one per CPU of {@code cpus}, every {@code intervalMillis}, with no
     * perf event behind them: buffers laid out as the kernel's ({@link PerfRingBuffer#over}).
     */
    Session start(SampleFilter filter, List<Integer> cpus, List<PerfRingBuffer> buffers, long intervalMillis) {
        Session session = new Session(filter);
        session.cpus.addAll(cpus);
        session.buffers.addAll(buffers);
        session.startDraining(intervalMillis);
        return session;
    }

    /**
     * Why sampling cannot be done here, or empty where it can: opens (and closes) one event as {@link #start}
     * would.
     */
    public static Optional<String> unavailableReason() {
        try {
            new CpuSampler(DEFAULT_RATE_HZ).start((pid, tid) -> false).close();
            return Optional.empty();
        } catch (PerfEvents.PerfEventException | UnsupportedOperationException | LinkageError e) {
            return Optional.of(e.getMessage());
        }
    }

    /** The CPUs of this process's affinity mask ({@code Cpus_allowed_list}), else all available. */
    static List<Integer> cpus() {
        try {
            for (String line : Files.readAllLines(CPUS_ALLOWED)) {
                if (line.startsWith("Cpus_allowed_list:")) {
                    return parseCpuList(line.substring(line.indexOf(':') + 1).strip());
                }
            }
        } catch (IOException | RuntimeException unreadable) {
            // fall through to every CPU the JVM sees
        }
        List<Integer> all = new ArrayList<>();
        for (int cpu = 0; cpu < Runtime.getRuntime().availableProcessors(); cpu++) {
            all.add(cpu);
        }
        return all;
    }

    /** A kernel CPU list such as {@code 0-3,8,10-11}. */
    static List<Integer> parseCpuList(String list) {
        TreeSet<Integer> cpus = new TreeSet<>();
        for (String part : list.split(",")) {
            String p = part.strip();
            if (p.isEmpty()) {
                continue;
            }
            int dash = p.indexOf('-');
            int first = Integer.parseInt(dash < 0 ? p : p.substring(0, dash));
            int last = dash < 0 ? first : Integer.parseInt(p.substring(dash + 1));
            for (int cpu = first; cpu <= last; cpu++) {
                cpus.add(cpu);
            }
        }
        return List.copyOf(cpus);
    }

    /** How often to empty a buffer of {@code bytes} so that it is at most a quarter full, 10 ms to 1 s. */
    static long drainIntervalMillis(long bytes, int rateHz) {
        double secondsToFill = (double) bytes / ((double) rateHz * SAMPLE_RECORD_BYTES);
        return Math.max(10, Math.min(1000, (long) (secondsToFill * 1000 / 4)));
    }

    /** Sampling in progress: events open and enabled, buffers emptied in the background. */
    public final class Session implements AutoCloseable {

        private final SampleTally tally;
        private final List<Integer> fds = new ArrayList<>();
        private final List<PerfRingBuffer> buffers = new ArrayList<>();
        /** The CPU of each buffer. */
        private final List<Integer> cpus = new ArrayList<>();
        private ScheduledExecutorService drainer;
        private boolean counting;
        private boolean stopped;
        /** Before the window's start is known, how old a sample must be to be taken out of a buffer. */
        private long horizonNanos;
        /** Why the samples cannot be trusted, from the first drain that failed; null while none has. */
        private String failure;

        private Session(SampleFilter filter) {
            this.tally = new SampleTally(filter);
        }

        private void open(List<Integer> cpus) {
            PerfEventAttr attr = PerfEventAttr.cpuClockSampling(Math.max(1, 1_000_000_000L / rateHz));
            for (int cpu : cpus) {
                int fd = PerfEvents.open(attr, -1, cpu);
                fds.add(fd);
                buffers.add(PerfRingBuffer.map(fd, DATA_PAGES));
                this.cpus.add(cpu);
            }
            for (int fd : fds) {
                PerfEvents.ioctl(fd, PerfEvents.IOC_ENABLE);
            }
            startDraining(drainIntervalMillis(buffers.get(0).dataSize(), rateHz));
        }

        /**
         * Drains every {@code interval} ms in the background. A throw would end a scheduled task without a word,
         * and the buffers would fill: what a drain cannot read is recorded as the session's failure instead.
         */
        private void startDraining(long interval) {
            horizonNanos = TimeUnit.MILLISECONDS.toNanos(interval);
            drainer = Executors.newSingleThreadScheduledExecutor(runnable -> {
                Thread thread = new Thread(runnable, "perflab-cpu-sampler");
                thread.setDaemon(true);
                return thread;
            });
            drainer.scheduleWithFixedDelay(this::drainInBackground, interval, interval, TimeUnit.MILLISECONDS);
        }

        private void drainInBackground() {
            try {
                drain("a background drain");
            } catch (RuntimeException | Error e) {
                fail("a background drain failed" + (e.getMessage() != null ? ": " + e.getMessage() : ""));
            }
        }

        private synchronized void fail(String why) {
            if (failure == null) {
                failure = why;
            }
        }

        /** Samples time-stamped at {@code nanoTime} ({@link System#nanoTime()}) or later count. */
        public synchronized void countFrom(long nanoTime) {
            tally.countFrom(nanoTime);
            counting = true;
        }

        /**
         * Stops sampling and counts the samples up to {@code nanoTime}.
         *
         * @return the samples of the selected threads between {@link #countFrom} and {@code nanoTime}
         * @throws UnreadableSamplesException when a buffer could not be read, now or in a background drain
         */
        public synchronized Counts stop(long nanoTime) {
            if (stopped) {
                throw new IllegalStateException("sampling already stopped");
            }
            for (int fd : fds) {
                PerfEvents.ioctl(fd, PerfEvents.IOC_DISABLE);
            }
            tally.countUntil(nanoTime);
            counting = true;
            drain("the last drain");
            failOnUnreportedLoss(nanoTime);
            stopped = true;
            close();
            if (failure != null) {
                throw new UnreadableSamplesException("the cpu-clock samples cannot be trusted: " + failure);
            }
            return new Counts(tally.user(), tally.kernel(), tally.other(), tally.unnamed(), tally.lost(),
                    tally.throttled(), rateHz);
        }

        /**
         * Empties the buffers. Before the window's start is known ({@link #countFrom}), of the records older than
         * {@link #horizonNanos} only, which are before the window's start as long as it is told within that time
         * of it; left in, they filled the buffers of a session opened a second ahead of its window at high rates,
         * and the window lost its first samples. After a buffer could not be read ({@link #failure}), nothing.
         */
        private synchronized void drain(String when) {
            if (stopped || failure != null) {
                return;
            }
            long horizon = counting ? Long.MAX_VALUE : System.nanoTime() - horizonNanos;
            for (int i = 0; i < buffers.size(); i++) {
                try {
                    buffers.get(i).drainInto(tally, horizon);
                } catch (RuntimeException e) {
                    fail("the ring buffer of CPU " + cpus.get(i) + " could not be read in " + when + ": "
                            + e.getMessage());
                    return;
                }
                if (tally.malformed().isPresent()) {
                    fail("the ring buffer of CPU " + cpus.get(i) + " held " + tally.malformed().get() + " in "
                            + when + ", not a record the kernel writes");
                    return;
                }
                if (tally.unplacedLoss().isPresent()) {
                    fail("the ring buffer of CPU " + cpus.get(i) + " reported " + tally.unplacedLoss().get() + " in "
                            + when + ", which cannot be placed inside or outside the window");
                    return;
                }
            }
        }

        /**
         * A buffer that, when sampling stopped, may hold samples the kernel dropped and will never report, dropped
         * after its last record: where that record is older than the window's end, they may be the window's, and the
         * session fails.
         */
        private void failOnUnreportedLoss(long windowEndNanos) {
            for (int i = 0; i < buffers.size(); i++) {
                PerfRingBuffer buffer = buffers.get(i);
                if (buffer.mayHoldUnreportedLoss() && buffer.lastTimeNanos() < windowEndNanos) {
                    fail("the ring buffer of CPU " + cpus.get(i) + " was full when sampling stopped: the kernel may "
                            + "have dropped samples of the window, and says how many only when it next writes there "
                            + "(a buffer not emptied in time: a lower rate fills it more slowly)");
                    return;
                }
            }
        }

        @Override
        public synchronized void close() {
            stopped = true;
            if (drainer != null) {
                drainer.shutdownNow();
            }
            buffers.forEach(PerfRingBuffer::close);
            buffers.clear();
            fds.forEach(PerfEvents::close);
            fds.clear();
        }
    }

    /**
     * The samples of a window.
     *
     * @param user samples of the selected threads in user mode
     * @param kernel samples of the selected threads in kernel mode
     * @param other samples of the selected threads in hypervisor or guest mode
     * @param unnamed samples, in any mode, of threads the filter could not tell selected or not
     *     ({@link SampleFilter#unknown}), in no other count
     * @param lost samples of any thread lost to a full buffer in the window, or across one of its ends
     * @param throttled times the kernel throttled sampling
     * @param rateHz the rate asked for
     */
    public record Counts(long user, long kernel, long other, long unnamed, long lost, long throttled, int rateHz) {
    }
}
