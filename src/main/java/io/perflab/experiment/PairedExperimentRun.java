package io.perflab.experiment;

import io.perflab.runner.experiment.ExperimentPlan;
import io.perflab.runner.experiment.ExperimentRunner;
import io.perflab.runner.experiment.PairListener;
import io.perflab.runner.experiment.PairPlacement;
import io.perflab.runner.experiment.PairResult;
import io.perflab.runner.experiment.PairStoppingRule;
import io.perflab.runner.experiment.PairedOutcome;
import io.perflab.runner.trial.TrialResult;
import io.perflab.runner.trial.TrialStatus;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a paired experiment ({@code duet} or {@code alternating}) for the {@link ExperimentScheduler}: the pairs not
 * yet stored, each stored whole the moment it ends, with the sequential stopping rule of its targets and budget.
 *
 * <p>A pair is the unit of replication and of storage: its windows are told as they are measured (progress
 * events), but stored only with the pair, in one transaction. A pair cut short by a crash, a kill or a cancel has
 * no row, so a resumed experiment runs it again, whole, and its earlier pairs are neither run nor stored twice.
 * The rule sees the stored pairs first and goes on with the looks it made before ({@link PairedStoppingRules}); the
 * budget is what the stored pairs left of it. The rule's looks after a pair, and the stop reason when it stops, are
 * stored in the pair's transaction, as a remote agent's posted pair is stored ({@link ClaimedRuns#recordPair}): the
 * runner's rule is told the decision taken then. A pair is stored only while the run's agent holds the experiment:
 * once another instance declared it lost, its next pair is refused and the run stops there. An experiment whose
 * rule stopped it before it was interrupted (a remote agent's run stops at the service's word) runs no further
 * pair.
 */
final class PairedExperimentRun {

    private static final Logger log = LoggerFactory.getLogger(PairedExperimentRun.class);

    /** How the pairs are run: {@link ExperimentRunner#runPairs} unless a test stands in for the trial JVMs. */
    @FunctionalInterface
    interface PairExecution {
        PairedOutcome run(ExperimentRunner runner, ExperimentPlan plan, Collection<Integer> pairs,
                          List<PairResult> earlier, PairListener listener, PairStoppingRule rule);
    }

    static final PairExecution RUNNER = ExperimentRunner::runPairs;

    private final ExperimentRepository store;
    private final PairedStoppingRules rules;
    private final ExperimentEvents events;
    private final LongSupplier nanoClock;
    private final PairExecution execution;
    private final ClaimedRuns runs;

    /** @param runs stores each pair as a remote agent's posted pairs are stored */
    PairedExperimentRun(ExperimentRepository store, PairedStoppingRules rules, ExperimentEvents events,
                        LongSupplier nanoClock, PairExecution execution, ClaimedRuns runs) {
        this.runs = runs;
        this.store = store;
        this.rules = rules;
        this.events = events;
        this.nanoClock = nanoClock;
        this.execution = execution;
    }

    /** Runs the pairs of {@code plan} that {@code experiment} has not stored yet. */
    PairedOutcome run(ExperimentRecord experiment, Long agentId, ExperimentPlan plan, ExperimentRunner runner) {
        if (experiment.stopReason() != null) {
            log.info("Experiment {} '{}': its stopping rule stopped it before; no pair runs", experiment.id(),
                    experiment.name());
            return new PairedOutcome(List.of(), PairedOutcome.Stop.STOPPED_BY_RULE, experiment.stopReason());
        }
        List<PairResult> earlier = store.pairs(experiment.id());
        TreeSet<Integer> missing = new TreeSet<>();
        for (int pair = 0; pair < plan.pairs(); pair++) {
            missing.add(pair);
        }
        earlier.forEach(p -> missing.remove(p.index()));
        log.info("Experiment {} '{}' ({}): running {} of {} pairs", experiment.id(), experiment.name(),
                plan.design().label(), missing.size(), plan.pairs());
        if (missing.isEmpty()) {
            return new PairedOutcome(List.of(), PairedOutcome.Stop.COMPLETED, "");
        }
        StoringListener listener = new StoringListener(experiment, agentId, plan.maxFailures(), earlier,
                rules.forRun(experiment, earlier, nanoClock));
        PairedOutcome outcome = execution.run(runner, plan, missing, earlier, listener,
                listener::decisionAfterPair);
        if (listener.refused != null) {
            return new PairedOutcome(outcome.pairs(), PairedOutcome.Stop.CANCELLED, listener.refused);
        }
        return outcome;
    }

    /**
     * Stores each pair whole as it finishes, with the rule's looks after it, and tells subscribers about its windows
     * and the pair. The runner asks the rule after the pair is stored; it is answered the decision stored with it.
     */
    private final class StoringListener implements PairListener {

        private final ExperimentRecord experiment;
        private final Long agentId;
        private final int runsPerPair;
        private final int maxFailures;
        private final PairStoppingRule rule;
        /** Every pair the rule sees: the stored ones, then those of this run, in the order they finished. */
        private final List<PairResult> all;
        private int storedPairs;
        private int failures;
        private int windowsOfThisPair;
        private PairStoppingRule.Decision decision = PairStoppingRule.Decision.CONTINUE;
        /** Why a pair was refused, the run stopped: its agent no longer holds the experiment; null until then. */
        private String refused;

        StoringListener(ExperimentRecord experiment, Long agentId, int maxFailures, List<PairResult> earlier,
                        PairStoppingRule rule) {
            this.experiment = experiment;
            this.agentId = agentId;
            this.runsPerPair = 2 * experiment.windowsPerPair();
            this.maxFailures = maxFailures;
            this.rule = rule;
            this.all = new ArrayList<>(earlier);
            this.storedPairs = earlier.size();
        }

        /** The rule's decision after the last pair, as stored with it. */
        PairStoppingRule.Decision decisionAfterPair(List<PairResult> pairs) {
            return decision;
        }

        @Override
        public void pairStarted(int pair, PairPlacement placement) {
            windowsOfThisPair = 0;
            Map<String, Object> event = new LinkedHashMap<>();
            event.put("experimentId", experiment.id());
            event.put("pair", pair);
            event.put("first", placement.first().label());
            if (placement.withoutCpus() != null) {
                event.put("withoutCpus", placement.withoutCpus());
                event.put("withCpus", placement.withCpus());
            }
            events.publish(experiment.id(), "pair-started", event);
        }

        @Override
        public void windowFinished(TrialResult window) {
            windowsOfThisPair++;
            Map<String, Object> event = runEvent(storedPairs * runsPerPair + windowsOfThisPair);
            event.put("ordinal", window.ordinal());
            event.put("variant", window.variant());
            event.put("status", window.status().name());
            event.put("pair", window.pair().index());
            event.put("window", window.pair().window());
            event.put("metrics", window.metrics());
            events.publish(experiment.id(), "run", event);
        }

        @Override
        public void pairFinished(PairResult pair) {
            if (pair.status() == TrialStatus.CANCELLED) {
                // cut short by a cancel or a shutdown: not stored, so that resuming runs it again whole
                return;
            }
            all.add(pair);
            decision = PairStoppingRule.Decision.CONTINUE;
            // as the runner does: no look after a failed pair that makes the failures more than the plan allows
            boolean looks = pair.ok() || ++failures <= maxFailures;
            List<PairResult> seen = List.copyOf(all);
            Optional<PairStoppingRule.Decision> taken;
            try {
                taken = runs.recordPair(agentId, experiment, pair,
                        () -> looks ? look(seen) : PairStoppingRule.Decision.CONTINUE);
            } catch (ClaimedRuns.NotHeld e) {
                // declared lost while it ran (this instance stalled): the experiment may run elsewhere now
                log.warn("Experiment {}: pair {} refused, the run stops: {}", experiment.id(), pair.index(),
                        e.getMessage());
                refused = e.getMessage();
                decision = PairStoppingRule.Decision.stop(refused);
                return;
            }
            if (taken.isPresent()) {
                storedPairs++;
                decision = taken.get();
            }
        }

        /** The rule's looks at {@code pairs}, in the transaction that stores the last of them; its stop too. */
        private PairStoppingRule.Decision look(List<PairResult> pairs) {
            PairStoppingRule.Decision made = rule.afterPair(pairs);
            if (made.stop()) {
                store.recordStopReason(experiment.id(), made.reason());
            }
            return made;
        }

        private Map<String, Object> runEvent(int completedRuns) {
            Map<String, Object> event = new LinkedHashMap<>();
            event.put("experimentId", experiment.id());
            event.put("completedRuns", completedRuns);
            event.put("totalRuns", experiment.totalRuns());
            // a failed pair counts as all its windows failed, as the experiment's view counts it
            event.put("failedRuns", all.stream().filter(p -> !p.ok()).count() * runsPerPair);
            event.put("etaSeconds", runs.pairedTimeLeft(experiment));
            return event;
        }
    }
}
