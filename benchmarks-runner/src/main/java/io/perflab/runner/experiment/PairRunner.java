package io.perflab.runner.experiment;

import io.perflab.runner.trial.PairPosition;
import io.perflab.runner.trial.TrialProtocol;
import io.perflab.runner.trial.TrialResult;
import io.perflab.runner.trial.TrialStatus;
import java.io.IOException;
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
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Runs one pair of a paired design of engine variants: starts a driven trial JVM per variant (the first as the
 * placement says, pinned as it says), waits until both are warmed up, then drives their windows over the trial
 * protocol ({@link TrialProtocol}) and tells them to exit.
 *
 * <ul>
 *   <li>Duet: each window starts {@link #WINDOW_LEAD} after its command, at the same instant of the host's monotonic
 *       clock in both JVMs, and ends at the same instant; each result records its start and the skew to its
 *       partner's.
 *   <li>Alternating: both JVMs are paused after the warmup; windows follow in the order A B B A A B …, each JVM
 *       resumed {@link #RESUME_SETTLE} before its window and paused again after it.
 * </ul>
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
    /** Beyond a window's end, how long its result may take: the bench's overtime for a starved window, and more. */
    static final Duration WINDOW_GRACE = Duration.ofSeconds(60);
    /** How long a pause may take: an outstanding call's deadline, and more. */
    static final Duration PAUSE_TIMEOUT = Duration.ofSeconds(20);
    /** How long a JVM told to exit may take before it is killed. */
    static final long EXIT_MILLIS = 10_000;
    /** How far before the runner read a READY line its clock reading may lie: more means another clock. */
    static final Duration CLOCK_TOLERANCE = Duration.ofSeconds(10);

    private final TrialLauncher launcher;
    private final TrialProcesses processes;
    private final Clock clock;
    private final LongSupplier nanoClock;

    PairRunner(TrialLauncher launcher, TrialProcesses processes, Clock clock, LongSupplier nanoClock) {
        this.launcher = launcher;
        this.processes = processes;
        this.clock = clock;
        this.nanoClock = nanoClock;
    }

    /** Runs pair {@code index} of {@code plan}, telling {@code listener} about each window. */
    PairResult run(ExperimentPlan plan, int index, PairPlacement placement, PairListener listener) {
        return new Pair(plan, index, placement, listener).run();
    }

    /** What failed a pair, and whose JVM it was. */
    private static final class Failure extends Exception {
        final VariantName side;
        final TrialStatus status;

        Failure(VariantName side, TrialStatus status, String message) {
            super(message, null, false, false);
            this.side = side;
            this.status = status;
        }
    }

    private final class Pair {
        private final ExperimentPlan plan;
        private final int index;
        private final PairPlacement placement;
        private final PairListener listener;
        private final List<VariantName> order;
        private final BlockingQueue<TrialSession.Event> events = new LinkedBlockingQueue<>();
        private final Map<VariantName, TrialSession> sessions = new EnumMap<>(VariantName.class);
        private final Map<VariantName, TrialProtocol.Ready> ready = new EnumMap<>(VariantName.class);
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
                    List<String> command = launcher.drivenCommand(plan.jvmArgs(), (EngineVariant) plan.variant(side),
                            Optional.ofNullable(placement.cpus(side)));
                    try {
                        sessions.put(side, TrialSession.start(side, command, events, processes));
                    } catch (IOException e) {
                        throw new Failure(side, TrialStatus.FAILED, "could not start " + command.get(0) + ": "
                                + e.getMessage());
                    }
                }
                awaitReady();
                setup = Duration.ofNanos(nanoClock.getAsLong() - startNanos);
                long measuringStart = nanoClock.getAsLong();
                if (plan.design() == ExperimentDesign.DUET) {
                    duet();
                } else {
                    alternate();
                }
                measuring = Duration.ofNanos(nanoClock.getAsLong() - measuringStart);
                finish();
                return new PairResult(index, TrialStatus.OK, placement, results, start, clock.instant(), setup,
                        measuring, null);
            } catch (Failure f) {
                return failed(f);
            } finally {
                sessions.values().forEach(TrialSession::end);
            }
        }

        private void awaitReady() throws Failure {
            long deadline = startNanos + plan.trialTimeout().toNanos();
            Set<VariantName> waiting = EnumSet.copyOf(order);
            while (!waiting.isEmpty()) {
                TrialSession.Event event = next(deadline, waiting, "warm up and say it was ready within the trial "
                        + "timeout of " + plan.trialTimeout().toMillis() / 1000.0 + " s (--trial-timeout)");
                if (!event.line().startsWith(TrialProtocol.READY_PREFIX) || !waiting.contains(event.side())) {
                    throw unexpected(event);
                }
                TrialProtocol.Ready line = decode(event, () -> TrialProtocol.decodeReady(event.line()));
                long now = nanoClock.getAsLong();
                if (line.nanoTime() > now || now - line.nanoTime() > CLOCK_TOLERANCE.toNanos()) {
                    throw new Failure(event.side(), TrialStatus.FAILED, "its monotonic clock read " + line.nanoTime()
                            + " when it was ready and ours " + now + " when we read that: paired designs need the "
                            + "trial JVMs on this host, sharing its CLOCK_MONOTONIC");
                }
                ready.put(event.side(), line);
                waiting.remove(event.side());
            }
        }

        private void duet() throws Failure {
            for (int window = 0; window < plan.windowsPerPair(); window++) {
                long startAt = nanoClock.getAsLong() + WINDOW_LEAD.toNanos();
                long endAt = startAt + windowLength().toNanos();
                for (VariantName side : order) {
                    send(side, TrialProtocol.windowCommand(window, startAt, endAt));
                }
                Map<VariantName, TrialProtocol.Window> measured = awaitWindows(EnumSet.copyOf(order), window,
                        endAt + WINDOW_GRACE.toNanos());
                long skew = measured.get(VariantName.WITH).startNanos()
                        - measured.get(VariantName.WITHOUT).startNanos();
                for (VariantName side : order) {
                    record(side, window, measured.get(side), side == VariantName.WITH ? skew : -skew);
                }
            }
        }

        private void alternate() throws Failure {
            for (VariantName side : order) {
                pause(side);
            }
            Map<VariantName, Integer> windows = new EnumMap<>(Map.of(VariantName.WITHOUT, 0, VariantName.WITH, 0));
            int slots = 2 * plan.windowsPerPair();
            for (int slot = 0; slot < slots; slot++) {
                VariantName side = slot % 4 == 0 || slot % 4 == 3 ? order.get(0) : order.get(1);
                int window = windows.merge(side, 1, Integer::sum) - 1;
                long startAt = nanoClock.getAsLong() + RESUME_SETTLE.toNanos();
                long endAt = startAt + windowLength().toNanos();
                send(side, TrialProtocol.windowCommand(window, startAt, endAt));
                TrialProtocol.Window measured = awaitWindows(EnumSet.of(side), window,
                        endAt + WINDOW_GRACE.toNanos()).get(side);
                record(side, window, measured, null);
                if (slot < slots - 1) {
                    pause(side);
                }
            }
        }

        private void pause(VariantName side) throws Failure {
            send(side, TrialProtocol.PAUSE);
            TrialSession.Event event = next(nanoClock.getAsLong() + PAUSE_TIMEOUT.toNanos(), EnumSet.of(side),
                    "pause within " + PAUSE_TIMEOUT.toSeconds() + " s");
            if (event.side() != side || !event.line().equals(TrialProtocol.PAUSED)) {
                throw unexpected(event);
            }
        }

        private Map<VariantName, TrialProtocol.Window> awaitWindows(Set<VariantName> sides, int window, long deadline)
                throws Failure {
            Map<VariantName, TrialProtocol.Window> measured = new EnumMap<>(VariantName.class);
            Set<VariantName> waiting = EnumSet.copyOf(sides);
            while (!waiting.isEmpty()) {
                TrialSession.Event event = next(deadline, waiting, "report window " + window + " within "
                        + WINDOW_GRACE.toSeconds() + " s of its end");
                if (!event.line().startsWith(TrialProtocol.WINDOW_PREFIX) || !waiting.contains(event.side())) {
                    throw unexpected(event);
                }
                TrialProtocol.Window line = decode(event, () -> TrialProtocol.decodeWindow(event.line()));
                if (line.window() != window) {
                    throw unexpected(event);
                }
                measured.put(event.side(), line);
                waiting.remove(event.side());
            }
            return measured;
        }

        /** Checks a window and keeps it as its variant's result. */
        private void record(VariantName side, int window, TrialProtocol.Window measured, Long skew) throws Failure {
            Map<String, String> env = measured.environment();
            String firstError = env.get("first_error") == null ? "" : "; first error: " + env.get("first_error");
            if ("0".equals(env.get("requests"))) {
                throw new Failure(side, TrialStatus.FAILED, "no call completed in window " + window + firstError);
            }
            String failedCalls = env.getOrDefault("failed_calls", "0");
            if (!failedCalls.equals("0")) {
                throw new Failure(side, TrialStatus.FAILED, failedCalls + " calls failed in window " + window
                        + firstError);
            }
            Map<String, String> environment = new LinkedHashMap<>(ready.get(side).environment());
            environment.putAll(env);
            environment.put("command", sessions.get(side).command());
            TrialResult result = new TrialResult(side.label(), ordinal(window, side), TrialStatus.OK,
                    instant(measured.startNanos()), instant(measured.endNanos()), sessions.get(side).pid(),
                    measured.metrics(), environment, null, new PairPosition(index, window, placement.cpus(side),
                    measured.startNanos(), skew, side == placement.first()));
            results.add(result);
            listener.windowFinished(result);
        }

        private void finish() throws Failure {
            for (VariantName side : order) {
                try {
                    sessions.get(side).send(TrialProtocol.EXIT);
                } catch (IOException gone) {
                    // its exit status below says what happened
                }
            }
            for (VariantName side : order) {
                Integer status = sessions.get(side).awaitExit(EXIT_MILLIS);
                if (status != null && status != 0) {
                    throw new Failure(side, TrialStatus.FAILED, "trial JVM exited with status " + status
                            + " after its windows");
                }
            }
        }

        private void send(VariantName side, String command) throws Failure {
            try {
                sessions.get(side).send(command);
            } catch (IOException e) {
                throw died(side, "before it read '" + command + "'");
            }
        }

        /** The next protocol line of either JVM, before {@code deadline}. */
        private TrialSession.Event next(long deadline, Set<VariantName> waiting, String what) throws Failure {
            TrialSession.Event event;
            try {
                event = events.poll(Math.max(0, deadline - nanoClock.getAsLong()), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                processes.cancel();
                throw new Failure(waiting.iterator().next(), TrialStatus.CANCELLED,
                        "killed: the experiment was cancelled");
            }
            if (event == null) {
                VariantName late = waiting.iterator().next();
                throw new Failure(late, processes.isCancelled() ? TrialStatus.CANCELLED : TrialStatus.TIMED_OUT,
                        "the trial JVM did not " + what + "; killed");
            }
            if (event.ended()) {
                throw died(event.side(), "while the runner waited for it to " + what);
            }
            return event;
        }

        private Failure died(VariantName side, String when) {
            if (processes.isCancelled()) {
                return new Failure(side, TrialStatus.CANCELLED, "killed: the experiment was cancelled");
            }
            Integer status = sessions.get(side).awaitExit(2000);
            return new Failure(side, TrialStatus.FAILED, "trial JVM "
                    + (status == null ? "closed its output" : "exited with status " + status) + " " + when);
        }

        private Failure unexpected(TrialSession.Event event) {
            String line = event.line().length() > 200 ? event.line().substring(0, 200) + "…" : event.line();
            return new Failure(event.side(), TrialStatus.FAILED, "unexpected line from the trial JVM: " + line);
        }

        private <T> T decode(TrialSession.Event event, java.util.function.Supplier<T> decoder) throws Failure {
            try {
                return decoder.get();
            } catch (IllegalArgumentException e) {
                throw new Failure(event.side(), TrialStatus.FAILED, e.getMessage());
            }
        }

        private PairResult failed(Failure f) {
            Instant end = clock.instant();
            TrialSession failing = sessions.get(f.side);
            if (failing != null) {
                failing.end();
            }
            String error = "the " + f.side.label() + " JVM: " + f.getMessage()
                    + TrialOutput.suffix(failing == null ? "" : failing.tail());
            List<TrialResult> records = new ArrayList<>();
            for (VariantName side : order) {
                TrialSession session = sessions.get(side);
                Map<String, String> environment = session == null ? Map.of() : Map.of("command", session.command());
                records.add(new TrialResult(side.label(), ordinal(0, side), f.status, start, end,
                        session == null ? -1 : session.pid(), Map.of(), environment,
                        side == f.side ? error : "its pair failed: " + TrialOutput.firstLine(error),
                        new PairPosition(index, null, placement.cpus(side), null, null, side == placement.first())));
            }
            return new PairResult(index, f.status, placement, records, start, end, setup, measuring, error);
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
    }

    static VariantName other(VariantName side) {
        return side == VariantName.WITH ? VariantName.WITHOUT : VariantName.WITH;
    }
}
