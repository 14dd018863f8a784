package io.perflab.runner.experiment;

import io.perflab.runner.trial.TrialStatus;

/**
 * What failed a pair of a paired design, and whose process it was ({@code both}: neither JVM did what was awaited,
 * as when both are late); the pair fails on both sides.
 */
final class PairFailure extends Exception {

    final VariantName side;
    final TrialStatus status;
    final boolean both;

    PairFailure(VariantName side, TrialStatus status, String message) {
        this(side, status, message, false);
    }

    PairFailure(VariantName side, TrialStatus status, String message, boolean both) {
        super(message, null, false, false);
        this.side = side;
        this.status = status;
        this.both = both;
    }
}
