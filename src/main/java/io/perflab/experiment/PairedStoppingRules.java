package io.perflab.experiment;

import io.perflab.paired.SequentialStopping;
import io.perflab.runner.experiment.PairResult;
import io.perflab.runner.experiment.PairStoppingRule;
import io.perflab.stats.ComparisonOptions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * The sequential stopping rule of a paired experiment ({@link SequentialStopping}), built from what the store holds,
 * whichever agent runs the experiment. The built-in agent's run takes one rule for the whole run ({@link #forRun}),
 * going on from the looks stored before it. A remote agent's pairs are judged by the service as each is posted
 * ({@link #afterPostedPair}): the same rule, built anew from the pairs and looks stored so far and measuring the
 * budget from the claim, takes the looks the built-in agent's rule would take after that pair, stores them, and
 * says whether to stop. The stored looks are so the one record of the rule's state, which the agent cannot
 * contradict: a pair posted twice takes no second look, and the agent that resumes an interrupted experiment goes
 * on from them.
 */
final class PairedStoppingRules {

    private final ExperimentRepository store;
    private final SequentialLookRepository looks;
    private final Clock clock;

    PairedStoppingRules(ExperimentRepository store, SequentialLookRepository looks, Clock clock) {
        this.store = store;
        this.looks = looks;
        this.clock = clock;
    }

    /**
     * The rule of a run that starts now with {@code earlier} pairs stored, going on from their looks; {@link
     * PairStoppingRule#NEVER} for an experiment without one.
     *
     * @param nanoClock the monotonic clock the run's budget is measured on, from now
     */
    PairStoppingRule forRun(ExperimentRecord experiment, List<PairResult> earlier, LongSupplier nanoClock) {
        return experiment.stopping().active() ? rule(experiment, earlier, nanoClock) : PairStoppingRule.NEVER;
    }

    /**
     * After pair {@code pair}, posted by remote agent {@code agentId} and stored just now (in the caller's
     * transaction): takes the rule's looks at every pair stored, stores them, records the stop reason when it stops,
     * and returns its decision. As the runner does, no look is taken after a failed pair that makes the run's
     * failures more than the experiment allows: the agent ends the run for its failures.
     */
    PairStoppingRule.Decision afterPostedPair(ExperimentRecord experiment, long agentId, PairResult pair) {
        if (!experiment.stopping().active()) {
            return PairStoppingRule.Decision.CONTINUE;
        }
        List<PairResult> all = store.pairs(experiment.id());
        // the run of this claim: the pairs stored since the experiment was claimed last; those of earlier claims
        // spent budget before it, as they do for the built-in agent's resumed run, even when this agent ran them
        Set<Integer> thisClaim = store.pairsOfLastClaim(experiment.id());
        List<PairResult> earlier = all.stream().filter(p -> !thisClaim.contains(p.index())).toList();
        long failures = all.stream().filter(p -> thisClaim.contains(p.index()) && !p.ok()).count();
        if (!pair.ok() && failures > experiment.maxFailures()) {
            return PairStoppingRule.Decision.CONTINUE;
        }
        Instant claimed = experiment.startedAt() == null ? clock.instant() : experiment.startedAt();
        PairStoppingRule.Decision decision = rule(experiment, earlier, () -> nanos(clock.instant()))
                .since(nanos(claimed))
                .afterPair(all);
        if (decision.stop()) {
            store.recordStopReason(experiment.id(), decision.reason());
        }
        return decision;
    }

    /**
     * The experiment's rule for a run that started with {@code earlier} pairs stored: α spent over the plan's pairs,
     * the budget the experiment's, of which those pairs spent some, going on from every look stored.
     */
    private SequentialStopping rule(ExperimentRecord experiment, List<PairResult> earlier, LongSupplier nanoClock) {
        PairedStopping stopping = experiment.stopping();
        int plannedPairs = experiment.runsPerVariant();
        Duration spent = earlier.stream().filter(p -> p.start() != null && p.end() != null)
                .map(p -> Duration.between(p.start(), p.end())).reduce(Duration.ZERO, Duration::plus);
        return new SequentialStopping(stopping.targets(), plannedPairs, ComparisonOptions.defaults().alpha(),
                stopping.budget(), nanoClock, made -> looks.save(experiment.id(), made))
                .spentBefore(spent)
                .continuing(looks.earlierLooks(experiment.id()),
                        looks.plannedPairs(experiment.id()).orElse(plannedPairs));
    }

    /** An instant as nanoseconds since the epoch: the service's clock as the rule's nano clock. */
    private static long nanos(Instant instant) {
        return instant.getEpochSecond() * 1_000_000_000L + instant.getNano();
    }
}
