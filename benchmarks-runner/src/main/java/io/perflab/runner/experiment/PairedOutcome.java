package io.perflab.runner.experiment;

import io.perflab.runner.trial.TrialResult;
import java.util.List;

/**
 * What {@link ExperimentRunner#runPairs} did.
 *
 * @param pairs every pair that ran, in the order it ran
 * @param stop why the runner stopped
 * @param message a sentence for the user about the stop: the rule's reason, the failures, the cancellation; empty
 *     when every planned pair ran
 */
public record PairedOutcome(List<PairResult> pairs, Stop stop, String message) {

    public PairedOutcome {
        pairs = List.copyOf(pairs);
    }

    /** Why a paired experiment stopped. */
    public enum Stop {
        /** Every requested pair ran (some may have failed, within the limit). */
        COMPLETED,
        /** The stopping rule said the experiment has its answer, or its budget is spent. */
        STOPPED_BY_RULE,
        /** More pairs failed than the plan allows. */
        TOO_MANY_FAILURES,
        /** {@link ExperimentRunner#cancel()} was called. */
        CANCELLED
    }

    /**
     * Every result of every pair, in order: the windows of the pairs that succeeded, the failure records of the rest.
     */
    public List<TrialResult> results() {
        return pairs.stream().flatMap(p -> p.results().stream()).toList();
    }

    public long succeeded() {
        return pairs.stream().filter(PairResult::ok).count();
    }
}
