package io.perflab.runner.experiment;

import io.perflab.runner.trial.TrialProtocol;
import io.perflab.runner.trial.TrialStatus;
import java.io.IOException;
import java.time.Duration;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The runner's end of the trial protocol with the two driven JVMs of one pair (or with the one JVM that makes
 * {@link FastStart}'s archive): commands to either, and the lines of both from one queue, each awaited before a
 * deadline. Any line out of turn, a JVM that dies or is late, becomes a
 * {@link PairFailure} naming the JVM.
 */
final class PairChannel {

    /** How long a pause may take: an outstanding call's deadline, and more. */
    static final Duration PAUSE_TIMEOUT = Duration.ofSeconds(20);
    /** How long opening a window's meter may take. */
    static final Duration PREPARE_TIMEOUT = Duration.ofSeconds(60);
    /** How long a JVM told to exit may take before it is killed. */
    static final long EXIT_MILLIS = 10_000;
    /** How far before the runner read a READY line its clock reading may lie: more means another clock. */
    static final Duration CLOCK_TOLERANCE = Duration.ofSeconds(10);

    private final TrialProcesses processes;
    private final LongSupplier nanoClock;
    private final BlockingQueue<TrialSession.Event> events = new LinkedBlockingQueue<>();
    private final Map<VariantName, TrialSession> sessions = new EnumMap<>(VariantName.class);
    private final Map<VariantName, TrialProtocol.Ready> ready = new EnumMap<>(VariantName.class);

    PairChannel(TrialProcesses processes, LongSupplier nanoClock) {
        this.processes = processes;
        this.nanoClock = nanoClock;
    }

    /** Starts the JVM of {@code side}. */
    void start(VariantName side, List<String> command) throws PairFailure {
        try {
            sessions.put(side, TrialSession.start(side, command, events, processes));
        } catch (IOException e) {
            throw new PairFailure(side, TrialStatus.FAILED, "could not start " + command.get(0) + ": "
                    + e.getMessage());
        }
    }

    /** The JVM of {@code side}, or null if it never started. */
    TrialSession session(VariantName side) {
        return sessions.get(side);
    }

    /** What {@code side}'s JVM said when it was ready: host, JVM, warmup. */
    TrialProtocol.Ready ready(VariantName side) {
        return ready.get(side);
    }

    /**
     * Waits until both JVMs are warmed up, each checked to share this process's monotonic clock.
     *
     * @param deadline on the monotonic clock
     * @param timeout the trial timeout the deadline comes from, for the message
     */
    void awaitReady(Set<VariantName> sides, long deadline, Duration timeout) throws PairFailure {
        awaitReady(sides, deadline, "the trial timeout of " + timeout.toMillis() / 1000.0 + " s (--trial-timeout)");
    }

    /**
     * As {@link #awaitReady(Set, long, Duration)}, for JVMs started for another purpose than a pair's trial.
     *
     * @param within the time the deadline allows, as messages say it ("within {@code within}")
     */
    void awaitReady(Set<VariantName> sides, long deadline, String within) throws PairFailure {
        Set<VariantName> waiting = EnumSet.copyOf(sides);
        while (!waiting.isEmpty()) {
            TrialSession.Event event = next(deadline, waiting, "warm up and say so within " + within);
            if (!event.line().startsWith(TrialProtocol.READY_PREFIX) || !waiting.contains(event.side())) {
                throw unexpected(event);
            }
            TrialProtocol.Ready line = decode(event, () -> TrialProtocol.decodeReady(event.line()));
            long now = nanoClock.getAsLong();
            if (line.nanoTime() > now || now - line.nanoTime() > CLOCK_TOLERANCE.toNanos()) {
                throw new PairFailure(event.side(), TrialStatus.FAILED, "its monotonic clock read "
                        + line.nanoTime() + " when it was ready and ours " + now + " when we read that: paired "
                        + "designs need the trial JVMs on this host, sharing its CLOCK_MONOTONIC");
            }
            ready.put(event.side(), line);
            waiting.remove(event.side());
        }
    }

    /** Waits for window {@code window} of each of {@code sides}, before {@code deadline}. */
    Map<VariantName, TrialProtocol.Window> awaitWindows(Set<VariantName> sides, int window, long deadline,
                                                         Duration grace) throws PairFailure {
        Map<VariantName, TrialProtocol.Window> measured = new EnumMap<>(VariantName.class);
        Set<VariantName> waiting = EnumSet.copyOf(sides);
        while (!waiting.isEmpty()) {
            TrialSession.Event event = next(deadline, waiting, "report window " + window + " within "
                    + grace.toSeconds() + " s of its end");
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

    /** Has each of {@code sides} open its next window's meter, and waits until they have. */
    void prepare(Set<VariantName> sides) throws PairFailure {
        for (VariantName side : sides) {
            send(side, TrialProtocol.PREPARE);
        }
        long deadline = nanoClock.getAsLong() + PREPARE_TIMEOUT.toNanos();
        Set<VariantName> waiting = EnumSet.copyOf(sides);
        while (!waiting.isEmpty()) {
            TrialSession.Event event = next(deadline, waiting, "prepare the next window within "
                    + PREPARE_TIMEOUT.toSeconds() + " s");
            if (!waiting.contains(event.side()) || !event.line().equals(TrialProtocol.PREPARED)) {
                throw unexpected(event);
            }
            waiting.remove(event.side());
        }
    }

    /** Pauses {@code side}'s load and waits until it says so. */
    void pause(VariantName side) throws PairFailure {
        send(side, TrialProtocol.PAUSE);
        TrialSession.Event event = next(nanoClock.getAsLong() + PAUSE_TIMEOUT.toNanos(), EnumSet.of(side),
                "pause within " + PAUSE_TIMEOUT.toSeconds() + " s");
        if (event.side() != side || !event.line().equals(TrialProtocol.PAUSED)) {
            throw unexpected(event);
        }
    }

    void send(VariantName side, String command) throws PairFailure {
        try {
            sessions.get(side).send(command);
        } catch (IOException e) {
            throw died(side, "before it read '" + command + "'");
        }
    }

    /**
     * Tells both JVMs to exit; a JVM that exits non-zero fails the pair, one that lingers is killed later. Every
     * window is measured by now: a JVM that a cancel killed while it shut down fails nothing, so that the pair is kept
     * (it was stored as FAILED, and a resume never ran it again).
     */
    void exit(List<VariantName> sides) throws PairFailure {
        for (VariantName side : sides) {
            try {
                sessions.get(side).send(TrialProtocol.EXIT);
            } catch (IOException gone) {
                // its exit status below says what happened
            }
        }
        for (VariantName side : sides) {
            Integer status = sessions.get(side).awaitExit(EXIT_MILLIS);
            if (status != null && status != 0 && !processes.isCancelled()) {
                throw new PairFailure(side, TrialStatus.FAILED, "trial JVM exited with status " + status
                        + " after its windows");
            }
        }
    }

    /** Kills whatever still runs and stops tracking it. */
    void end() {
        sessions.values().forEach(TrialSession::end);
    }

    /** The next protocol line of either JVM, before {@code deadline}. */
    private TrialSession.Event next(long deadline, Set<VariantName> waiting, String what) throws PairFailure {
        TrialSession.Event event;
        try {
            event = events.poll(Math.max(0, deadline - nanoClock.getAsLong()), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            processes.cancel();
            throw new PairFailure(waiting.iterator().next(), TrialStatus.CANCELLED,
                    "killed: the experiment was cancelled");
        }
        if (event == null) {
            boolean both = waiting.size() > 1;
            throw new PairFailure(waiting.iterator().next(), processes.isCancelled() ? TrialStatus.CANCELLED
                    : TrialStatus.TIMED_OUT, (both ? "neither trial JVM did " : "the trial JVM did not ") + what
                    + "; killed", both);
        }
        if (event.ended()) {
            throw died(event.side(), "while the runner waited for it to " + what);
        }
        return event;
    }

    private PairFailure died(VariantName side, String when) {
        if (processes.isCancelled()) {
            return new PairFailure(side, TrialStatus.CANCELLED, "killed: the experiment was cancelled");
        }
        Integer status = sessions.get(side).awaitExit(2000);
        return new PairFailure(side, TrialStatus.FAILED, "trial JVM "
                + (status == null ? "closed its output" : "exited with status " + status) + " " + when);
    }

    private static PairFailure unexpected(TrialSession.Event event) {
        String line = event.line().length() > 200 ? event.line().substring(0, 200) + "…" : event.line();
        return new PairFailure(event.side(), TrialStatus.FAILED, "unexpected line from the trial JVM: " + line);
    }

    private static <T> T decode(TrialSession.Event event, Supplier<T> decoder) throws PairFailure {
        try {
            return decoder.get();
        } catch (IllegalArgumentException e) {
            throw new PairFailure(event.side(), TrialStatus.FAILED, e.getMessage());
        }
    }
}
