package io.perflab.runner.experiment;

import io.perflab.runner.trial.TrialStatus;

/** What failed a pair of a paired design, and whose process it was: the pair fails on both sides. */
final class PairFailure extends Exception {

    final VariantName side;
    final TrialStatus status;

    PairFailure(VariantName side, TrialStatus status, String message) {
        super(message, null, false, false);
        this.side = side;
        this.status = status;
    }
}
