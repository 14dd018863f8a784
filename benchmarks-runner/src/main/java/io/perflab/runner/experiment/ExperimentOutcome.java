package io.perflab.runner.experiment;

import io.perflab.runner.trial.TrialResult;
import java.util.List;

/**
 * What {@link ExperimentRunner#run} did.
 *
 * @param results every trial that ran, in the order it ran
 * @param stop why the runner stopped
 * @param message a sentence for the user about the stop; empty when every trial ran
 */
public record ExperimentOutcome(List<TrialResult> results, Stop stop, String message) {

    public ExperimentOutcome {
        results = List.copyOf(results);
    }

    /** Why an experiment stopped. */
    public enum Stop {
        /** Every requested trial ran (some may have failed, within the limit). */
        COMPLETED,
        /** More trials failed than the plan allows. */
        TOO_MANY_FAILURES,
        /** {@link ExperimentRunner#cancel()} was called. */
        CANCELLED
    }

    public long succeeded() {
        return results.stream().filter(TrialResult::ok).count();
    }
}
