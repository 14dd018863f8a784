package io.perflab.runner.experiment;

import io.perflab.runner.metering.HostProbe;
import io.perflab.runner.metering.KernelMeter;
import io.perflab.runner.trial.MetricKeys;
import io.perflab.runner.trial.PairPosition;
import io.perflab.runner.trial.TrialProtocol;
import io.perflab.runner.trial.TrialResult;
import io.perflab.runner.trial.TrialStatus;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * Runs one pair of a paired design of engine variants: starts a driven trial JVM per variant (the first as the
 * placement says, pinned as it says), waits until both are warmed up, then drives their windows over the trial
 * protocol ({@link TrialProtocol}, through a {@link PairChannel}) and tells them to exit.
 *
 * <p>Before each window the JVMs open its meter ({@code prepare}), which can take a second; then:
 * <ul>
 *   <li>Duet: each window starts {@link #WINDOW_LEAD} after its command, at the same instant of the host's monotonic
 *       clock in both JVMs, and ends at the same instant; each result records its start and the skew to its
 *       partner's, and a window that started too far apart is measured again ({@link #MAX_SKEW}).
 *   <li>Alternating: both JVMs are paused after the warmup; windows follow in the order A B B A A B …, each JVM
 *       resumed {@link #RESUME_SETTLE} before its window and paused again after it; a window that started late or
 *       measured a figure below zero is measured again ({@link #disturbed}).
 * </ul>
 * A window with a figure below zero after its attempts (in a duet, at once) fails its pair: it measured nothing.
 * Over 300 lines: the two designs' window loops share the pair's start, its checks of each window and its failure.
 *
 * <p>Each window's metrics carry the host's speed while it ran, from the {@link HostProbe} samples on the CPUs its
 * JVM was pinned to (all probed CPUs when it was not), and its time-based metrics scaled to it.
 *
 * <p>Whatever goes wrong with either JVM — it cannot start, dies, answers out of turn, misses a deadline, reports a
 * window without calls or with failed calls, exits non-zero — fails the pair: both JVMs are killed and each variant
 * gets one failed record with the error.
 */
final class PairRunner {

    /** From a duet window's command to its start: time for each JVM's collection before the window. */
    static final Duration WINDOW_LEAD = Duration.ofMillis(250);
    /** From resuming an alternating JVM to its window's start: its clients back at full speed. */
    static final Duration RESUME_SETTLE = Duration.ofMillis(500);
    /**
     * The most two duet windows may start apart, or a twentieth of the window if that is more: a window whose JVMs
     * started further apart — one held up, typically by a compilation it must wait for under {@code -Xbatch} while
     * its warmup has not settled — is measured again, at most {@link #WINDOW_RETRIES} times, and each result records
     * its attempts ({@code window_attempts}). The last attempt is kept whatever its skew, which it records.
     */
    static final Duration MAX_SKEW = Duration.ofMillis(50);
    static final int WINDOW_RETRIES = 2;
    /** Beyond a window's end, how long its result may take: the bench's overtime for a starved window, and more. */
    static final Duration WINDOW_GRACE = Duration.ofSeconds(60);

    private final TrialLauncher launcher;
    private final TrialProcesses processes;
    private final Clock clock;
    private final LongSupplier nanoClock;
    private final HostProbe probe;

    PairRunner(TrialLauncher launcher, TrialProcesses processes, Clock clock, LongSupplier nanoClock,
               HostProbe probe) {
        this.launcher = launcher;
        this.processes = processes;
        this.clock = clock;
        this.nanoClock = nanoClock;
        this.probe = probe;
    }

    /**
     * Whether an alternating window is measured again: it started more than {@code tolerated} after its
     * instant, or one of its figures is below zero. A late start is a JVM held up at the window's start — on a
     * busy guest, or waiting under {@code -Xbatch} for the compilation of the window's own code, which a 16th
     * window of 0.5 s met (550 ms late, 118 ms of compiler CPU in a 34 ms window) — so the window measures less
     * than it should and what it holds is not the steady state.
     */
    static boolean disturbed(TrialProtocol.Window measured, long startAt, long tolerated) {
        return measured.startNanos() - startAt > tolerated || belowZero(measured).isPresent();
    }

    /**
     * The first of a window's figures below zero, if any: the alternating design measures such a window again
     * ({@link #disturbed}), and one that keeps it fails its pair.
     */
    static Optional<Map.Entry<String, Double>> belowZero(TrialProtocol.Window measured) {
        return measured.metrics().entrySet().stream().filter(e -> e.getValue() < 0).findFirst();
    }

    /** Runs pair {@code index} of {@code plan}, telling {@code listener} about each window. */
    PairResult run(ExperimentPlan plan, int index, PairPlacement placement, PairListener listener) {
        return new Pair(plan, index, placement, listener).run();
    }

    static VariantName other(VariantName side) {
        return side == VariantName.WITH ? VariantName.WITHOUT : VariantName.WITH;
    }

    private final class Pair {
        private final ExperimentPlan plan;
        private final int index;
        private final PairPlacement placement;
        private final PairListener listener;
        private final List<VariantName> order;
        private final PairChannel channel = new PairChannel(processes, nanoClock);
        private final List<TrialResult> results = new ArrayList<>();
        private final Instant start = clock.instant();
        private final long startNanos = nanoClock.getAsLong();
        private Duration setup = Duration.ZERO;
        private Duration measuring = Duration.ZERO;

        Pair(ExperimentPlan plan, int index, PairPlacement placement, PairListener listener) {
            this.plan = plan;
            this.index = index;
            this.placement = placement;
            this.listener = listener;
            this.order = List.of(placement.first(), other(placement.first()));
        }

        PairResult run() {
            try {
                for (VariantName side : order) {
                    EngineVariant variant = (EngineVariant) plan.variant(side);
                    channel.start(side, launcher.drivenCommand(jvmArgs(variant), variant,
                            Optional.ofNullable(placement.cpus(side))));
                }
                channel.awaitReady(EnumSet.copyOf(order), startNanos + plan.trialTimeout().toNanos(),
                        plan.trialTimeout());
                setup = Duration.ofNanos(nanoClock.getAsLong() - startNanos);
                long measuringStart = nanoClock.getAsLong();
                if (plan.design() == ExperimentDesign.DUET) {
                    duet();
                } else {
                    alternate();
                }
                measuring = Duration.ofNanos(nanoClock.getAsLong() - measuringStart);
                channel.exit(order);
                return new PairResult(index, TrialStatus.OK, placement, results, start, clock.instant(), setup,
                        measuring, null);
            } catch (PairFailure f) {
                return failed(f);
            } finally {
                channel.end();
            }
        }

        private void duet() throws PairFailure {
            long tolerated = tolerated();
            for (int window = 0; window < plan.windowsPerPair(); window++) {
                // the window costs every attempt, retries included, as an alternating slot does (PairCosts' c₂)
                long begun = nanoClock.getAsLong();
                for (int attempt = 1; ; attempt++) {
                    channel.prepare(EnumSet.copyOf(order));
                    long commanded = nanoClock.getAsLong();
                    long startAt = commanded + WINDOW_LEAD.toNanos();
                    long endAt = startAt + windowLength().toNanos();
                    for (VariantName side : order) {
                        channel.send(side, TrialProtocol.windowCommand(window, startAt, endAt));
                    }
                    Map<VariantName, TrialProtocol.Window> measured = channel.awaitWindows(EnumSet.copyOf(order),
                            window, endAt + WINDOW_GRACE.toNanos(), WINDOW_GRACE);
                    long skew = measured.get(VariantName.WITH).startNanos()
                            - measured.get(VariantName.WITHOUT).startNanos();
                    if (Math.abs(skew) > tolerated && attempt <= WINDOW_RETRIES) {
                        continue;
                    }
                    long share = (nanoClock.getAsLong() - begun) / 2;
                    for (VariantName side : order) {
                        record(side, window, measured.get(side), side == VariantName.WITH ? skew : -skew, share,
                                attempt);
                    }
                    break;
                }
            }
        }

        private void alternate() throws PairFailure {
            for (VariantName side : order) {
                channel.pause(side);
            }
            Map<VariantName, Integer> windows = new EnumMap<>(Map.of(VariantName.WITHOUT, 0, VariantName.WITH, 0));
            int slots = 2 * plan.windowsPerPair();
            long tolerated = tolerated();
            for (int slot = 0; slot < slots; slot++) {
                VariantName side = abba(slot, order.get(0));
                int window = windows.merge(side, 1, Integer::sum) - 1;
                long commanded = nanoClock.getAsLong();
                for (int attempt = 1; ; attempt++) {
                    channel.prepare(EnumSet.of(side));
                    long startAt = nanoClock.getAsLong() + RESUME_SETTLE.toNanos();
                    long endAt = startAt + windowLength().toNanos();
                    channel.send(side, TrialProtocol.windowCommand(window, startAt, endAt));
                    TrialProtocol.Window measured = channel.awaitWindows(EnumSet.of(side), window,
                            endAt + WINDOW_GRACE.toNanos(), WINDOW_GRACE).get(side);
                    if (disturbed(measured, startAt, tolerated) && attempt <= WINDOW_RETRIES) {
                        channel.pause(side); // measured again from the same state as every window: paused, resumed
                        continue;
                    }
                    if (slot < slots - 1) {
                        channel.pause(side);
                    }
                    record(side, window, measured, null, nanoClock.getAsLong() - commanded, attempt);
                    break;
                }
            }
        }

        /**
         * Checks a window and keeps it as its variant's result, with what the pair cost: its setup and this
         * result's share of the pair's measuring time (in a duet, half of the window's; see {@link PairCosts}).
         */
        private void record(VariantName side, int window, TrialProtocol.Window measured, Long skew, long shareNanos,
                            int attempts) throws PairFailure {
            Map<String, String> env = measured.environment();
            String firstError = env.get("first_error") == null ? "" : "; first error: " + env.get("first_error");
            if ("0".equals(env.get("requests"))) {
                throw new PairFailure(side, TrialStatus.FAILED, "no call completed in window " + window + firstError);
            }
            String failedCalls = env.getOrDefault("failed_calls", "0");
            if (!failedCalls.equals("0")) {
                throw new PairFailure(side, TrialStatus.FAILED, failedCalls + " calls failed in window " + window
                        + firstError);
            }
            // what the alternating design measured again and the duet did not: a CPU per call below zero is no
            // measurement of the window, and neither the log ratios nor the service can take it
            Optional<Map.Entry<String, Double>> negative = belowZero(measured);
            if (negative.isPresent()) {
                throw new PairFailure(side, TrialStatus.FAILED, "window " + window + " measured "
                        + negative.get().getKey() + " below zero (" + negative.get().getValue() + ")"
                        + (attempts > 1 ? " in each of its " + attempts + " attempts" : ""));
            }
            Map<String, String> environment = new LinkedHashMap<>(channel.ready(side).environment());
            environment.putAll(env);
            environment.put("command", channel.session(side).command());
            PairCosts.record(environment, setup, Duration.ofNanos(shareNanos));
            environment.put("window_attempts", Integer.toString(attempts));
            String cpus = placement.cpus(side);
            List<Integer> probed = cpus == null ? null : CpuList.parse(cpus).cpus();
            Map<String, Double> metrics = MetricKeys.withHostSpeed(measured.metrics(),
                    probe.speedNanos(measured.startNanos(), measured.endNanos(), probed),
                    probe.syscallNanos(measured.startNanos(), measured.endNanos(), probed));
            TrialResult result = new TrialResult(side.label(), ordinal(window, side), TrialStatus.OK,
                    instant(measured.startNanos()), instant(measured.endNanos()), channel.session(side).pid(),
                    metrics, environment, null,
                    new PairPosition(index, window, cpus, measured.startNanos(), skew, side == placement.first()));
            results.add(result);
            listener.windowFinished(result);
        }

        private PairResult failed(PairFailure f) {
            Instant end = clock.instant();
            TrialSession failing = channel.session(f.side);
            if (failing != null) {
                failing.end();
            }
            String error = f.both ? "both JVMs: " + f.getMessage() : "the " + f.side.label() + " JVM: "
                    + f.getMessage() + TrialOutput.suffix(failing == null ? "" : failing.tail());
            List<TrialResult> records = new ArrayList<>();
            for (VariantName side : order) {
                TrialSession session = channel.session(side);
                String own = !f.both ? error : error + TrialOutput.suffix(session == null ? "" : session.tail());
                records.add(new TrialResult(side.label(), ordinal(0, side), f.status, start, end,
                        session == null ? -1 : session.pid(), Map.of(),
                        session == null ? Map.of() : Map.of("command", session.command()),
                        side == f.side || f.both ? own : "its pair failed: " + TrialOutput.firstLine(error),
                        new PairPosition(index, null, placement.cpus(side), null, null, side == placement.first())));
            }
            return new PairResult(index, f.status, placement, records, start, end, setup, measuring, error);
        }

        /**
         * The plan's JVM flags; in a duet, with system calls left uncounted unless the experiment says otherwise:
         * the two JVMs' windows end at the same instant, and two processes closing their per-thread tracepoint
         * counters at once stalled in {@code close()} for over a minute on a busy 2-vCPU host (one JVM at a time,
         * as in the alternating design, did not).
         */
        private List<String> jvmArgs(EngineVariant variant) {
            List<String> common = plan.trialJvmArgs();
            boolean set = KernelMeter.propertyIn(java.util.stream.Stream.concat(common.stream(),
                    variant.jvmArgs().stream()).toList(), KernelMeter.SYSCALLS_PROPERTY).isPresent();
            if (plan.design() != ExperimentDesign.DUET || set) {
                return common;
            }
            List<String> flags = new ArrayList<>(common);
            flags.add("-D" + KernelMeter.SYSCALLS_PROPERTY + "=false");
            return flags;
        }

        private int ordinal(int window, VariantName side) {
            return (index * plan.windowsPerPair() + window) * 2 + (side == VariantName.WITH ? 1 : 0);
        }

        private Instant instant(long nanos) {
            return start.plusNanos(nanos - startNanos);
        }

        private Duration windowLength() {
            return ((EngineVariant) plan.without()).workload().run();
        }

        /**
         * In nanoseconds, how far apart a duet's two windows may start, and how late an alternating window:
         * {@link #MAX_SKEW}, or a twentieth of the window if that is more.
         */
        private long tolerated() {
            return Math.max(MAX_SKEW.toNanos(), windowLength().toNanos() / 20);
        }
    }

    /** The variant of slot {@code slot} of the order A B B A A B B A … that starts with {@code first}. */
    static VariantName abba(int slot, VariantName first) {
        return slot % 4 == 0 || slot % 4 == 3 ? first : other(first);
    }
}
