package io.perflab.runner.experiment;

import io.perflab.runner.metering.HostProbe;
import io.perflab.runner.trial.MetricKeys;
import io.perflab.runner.trial.PairPosition;
import io.perflab.runner.trial.TrialResult;
import io.perflab.runner.trial.TrialStatus;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.LongSupplier;

/**
 * The pairs of a paired design, one after another: where each pair's JVMs go, the cooldown between pairs, the limit
 * on failed pairs, cancellation and the stopping rule. An engine pair runs in {@link PairRunner}; a command pair
 * here, its runs one at a time in the order A B B A ….
 *
 * <p>Placement of pair p. Duet: the baseline's JVM on the lower half of the CPUs and the change's on the upper when
 * p is even, the other way round when p is odd; the baseline's JVM starts first when ⌊p/2⌋ is even, the change's
 * when it is odd — so that in every four pairs each variant has each half once started first and once second, and
 * neither a difference between the halves nor the start order leans on one variant. Alternating: both JVMs on the
 * launcher's CPUs (or unpinned), the baseline measuring first when p is even, the change when p is odd.
 *
 * <p>While the pairs run, a {@link HostProbe} times a fixed piece of kernel work on each CPU, and every window (or
 * command run) records the host's speed while it ran beside its metrics, with its time-based metrics scaled to it
 * ({@link MetricKeys#withHostSpeed}).
 */
final class PairedRuns {

    private final TrialLauncher launcher;
    private final TrialProcesses processes;
    private final Clock clock;
    private final LongSupplier nanoClock;
    private final CommandTrial commands;

    PairedRuns(TrialLauncher launcher, TrialProcesses processes, Clock clock, LongSupplier nanoClock,
               CommandTrial commands) {
        this.launcher = launcher;
        this.processes = processes;
        this.clock = clock;
        this.nanoClock = nanoClock;
        this.commands = commands;
    }

    PairedOutcome run(ExperimentPlan plan, Collection<Integer> pairs, List<PairResult> earlier, PairListener listener,
                      PairStoppingRule rule) {
        if (!plan.design().paired()) {
            throw new IllegalArgumentException("the " + plan.design().label() + " design has no pairs: run its trials");
        }
        TreeSet<Integer> wanted = new TreeSet<>(pairs);
        for (int pair : wanted) {
            if (pair < 0 || pair >= plan.pairs()) {
                throw new IllegalArgumentException("pair " + pair + " is not in the plan (0.." + (plan.pairs() - 1)
                        + ")");
            }
        }
        List<CpuList> halves = List.of();
        if (plan.design() == ExperimentDesign.DUET) {
            TrialLauncher.requireTaskset("--design duet");
            halves = CpuList.available(launcher.cpus()).halves();
        }
        try (HostProbe probe = HostProbe.start(CpuList.available(launcher.cpus()).cpus())) {
            return run(plan, wanted, earlier, listener, rule, halves, probe);
        }
    }

    private PairedOutcome run(ExperimentPlan plan, TreeSet<Integer> wanted, List<PairResult> earlier,
                              PairListener listener, PairStoppingRule rule, List<CpuList> halves, HostProbe probe) {
        PairRunner engines = new PairRunner(launcher, processes, clock, nanoClock, probe);
        List<PairResult> all = new ArrayList<>(earlier);
        List<PairResult> ran = new ArrayList<>();
        int failures = 0;
        for (int pair : wanted) {
            if (!ran.isEmpty() && !plan.cooldown().isZero() && processes.awaitCancel(plan.cooldown().toNanos())) {
                break;
            }
            if (processes.isCancelled()) {
                break;
            }
            PairPlacement placement = placement(plan, pair, halves);
            listener.pairStarted(pair, placement);
            PairResult result = plan.without() instanceof CommandVariant
                    ? commandPair(plan, pair, placement, listener, probe)
                    : engines.run(plan, pair, placement, listener);
            ran.add(result);
            all.add(result);
            listener.pairFinished(result);
            if (result.status() == TrialStatus.CANCELLED) {
                break;
            }
            if (!result.ok() && ++failures > plan.maxFailures()) {
                return new PairedOutcome(ran, PairedOutcome.Stop.TOO_MANY_FAILURES, "stopped after " + failures
                        + " failed pairs (more than --max-failures " + plan.maxFailures() + "); last failure, pair "
                        + pair + ": " + TrialOutput.firstLine(result.error()));
            }
            PairStoppingRule.Decision decision = rule.afterPair(List.copyOf(all));
            if (decision.stop()) {
                return new PairedOutcome(ran, PairedOutcome.Stop.STOPPED_BY_RULE, decision.reason());
            }
        }
        if (processes.isCancelled()) {
            // as many of the plan's pairs as are stored now: those before this run's, and this run's that ended (a
            // pair a cancel cut short is not kept)
            long ended = ran.stream().filter(r -> r.status() != TrialStatus.CANCELLED).count();
            return new PairedOutcome(ran, PairedOutcome.Stop.CANCELLED, "cancelled after "
                    + (plan.pairs() - wanted.size() + ended) + " of " + plan.pairs() + " pairs");
        }
        return new PairedOutcome(ran, PairedOutcome.Stop.COMPLETED, "");
    }

    private PairPlacement placement(ExperimentPlan plan, int pair, List<CpuList> halves) {
        if (plan.design() == ExperimentDesign.DUET) {
            CpuList withoutHalf = halves.get(pair % 2);
            CpuList withHalf = halves.get(1 - pair % 2);
            VariantName first = (pair / 2) % 2 == 0 ? VariantName.WITHOUT : VariantName.WITH;
            return new PairPlacement(withoutHalf.toString(), withHalf.toString(), first);
        }
        String cpus = plan.without() instanceof CommandVariant ? null : launcher.cpus().orElse(null);
        return new PairPlacement(cpus, cpus, pair % 2 == 0 ? VariantName.WITHOUT : VariantName.WITH);
    }

    /** The runs of a command pair, A B B A …; a failed run fails the pair. */
    private PairResult commandPair(ExperimentPlan plan, int index, PairPlacement placement, PairListener listener,
                                   HostProbe probe) {
        Instant start = clock.instant();
        long startNanos = nanoClock.getAsLong();
        List<TrialResult> results = new ArrayList<>();
        int[] windows = new int[2];
        int slots = 2 * plan.windowsPerPair();
        for (int slot = 0; slot < slots; slot++) {
            VariantName side = PairRunner.abba(slot, placement.first());
            int window = windows[side.ordinal()]++;
            int ordinal = (index * plan.windowsPerPair() + window) * 2 + (side == VariantName.WITH ? 1 : 0);
            long runStart = nanoClock.getAsLong();
            TrialResult run = commands.run((CommandVariant) plan.variant(side), side.label(), ordinal,
                    plan.trialTimeout()).withPair(new PairPosition(index, window, null, runStart, null,
                    side == placement.first()));
            if (run.ok()) {
                long runEnd = nanoClock.getAsLong();
                run = run.withMetrics(MetricKeys.withHostSpeed(run.metrics(), probe.speedNanos(runStart, runEnd, null),
                        probe.syscallNanos(runStart, runEnd, null)));
            }
            if (!run.ok()) {
                String error = "the " + side.label() + " command, run " + window + ": " + run.error();
                List<TrialResult> failed = new ArrayList<>();
                for (VariantName variant : List.of(placement.first(), PairRunner.other(placement.first()))) {
                    failed.add(new TrialResult(variant.label(), index * plan.windowsPerPair() * 2 + variant.ordinal(),
                            run.status(), start, clock.instant(), variant == side ? run.pid() : -1, Map.of(),
                            variant == side ? run.environment() : Map.of(), variant == side ? error
                            : "its pair failed: " + TrialOutput.firstLine(error), new PairPosition(index, null, null,
                            null, null, variant == placement.first())));
                }
                return new PairResult(index, run.status(), placement, failed, start, clock.instant(), Duration.ZERO,
                        Duration.ofNanos(nanoClock.getAsLong() - startNanos), error);
            }
            results.add(run);
            listener.windowFinished(run);
        }
        return new PairResult(index, TrialStatus.OK, placement, results, start, clock.instant(), Duration.ZERO,
                Duration.ofNanos(nanoClock.getAsLong() - startNanos), null);
    }
}
