package io.perflab.runner.experiment;

import java.util.List;
import java.util.Objects;

/**
 * Decides after each pair of a paired design whether the experiment has its answer: a sequential test on the pairs
 * so far, a target precision, a time budget. The runner knows no statistics; the rule does, and says why it stops.
 */
@FunctionalInterface
public interface PairStoppingRule {

    /** Runs every planned pair. */
    PairStoppingRule NEVER = pairs -> Decision.CONTINUE;

    /**
     * Called after each pair, failed or not.
     *
     * @param pairs every pair of the experiment so far, those of earlier runs first, in the order they finished
     */
    Decision afterPair(List<PairResult> pairs);

    /**
     * What a rule decided.
     *
     * @param stop whether to start no further pair
     * @param reason why, for the user; empty when going on
     */
    record Decision(boolean stop, String reason) {

        public static final Decision CONTINUE = new Decision(false, "");

        public Decision {
            Objects.requireNonNull(reason, "reason");
        }

        public static Decision stop(String reason) {
            return new Decision(true, reason);
        }
    }
}
