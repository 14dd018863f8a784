package io.perflab.stats;

/**
 * Immutable settings of a comparison; start from {@link #defaults()} and change what differs:
 * {@code ComparisonOptions.defaults().withConfidenceLevel(0.99).withAlternative(Alternative.LESS)}.
 *
 * @param confidenceLevel level of every interval, in (0, 1); default 0.95
 * @param alternative alternative hypothesis of the tests; default {@link Alternative#TWO_SIDED}
 * @param alpha significance level of the verdict (applied to Holm-adjusted Welch p) and of TOST; default 0.05
 * @param equivalenceMarginPercent TOST margin in percent of the baseline ({@code without}) mean; default 1
 * @param power power for the minimum detectable effect and the runs needed; default 0.8
 * @param targetEffectPercent the effect (percent of the baseline mean) for which the runs needed are computed;
 *     default 1
 */
public record ComparisonOptions(double confidenceLevel, Alternative alternative, double alpha,
        double equivalenceMarginPercent, double power, double targetEffectPercent) {

    private static final ComparisonOptions DEFAULTS = new ComparisonOptions(0.95, Alternative.TWO_SIDED, 0.05, 1.0,
            0.8, 1.0);

    /** Validates every setting. */
    public ComparisonOptions {
        Inputs.requireConfidenceLevel(confidenceLevel);
        if (alternative == null) {
            throw new IllegalArgumentException("alternative must be given");
        }
        if (!(alpha > 0 && alpha < 1)) {
            throw new IllegalArgumentException("alpha must be between 0 and 1 (exclusive), got " + alpha);
        }
        if (!(equivalenceMarginPercent > 0) || Double.isInfinite(equivalenceMarginPercent)) {
            throw new IllegalArgumentException("margin must be a positive percentage, got " + equivalenceMarginPercent);
        }
        if (!(power > 0 && power < 1)) {
            throw new IllegalArgumentException("power must be between 0 and 1 (exclusive), got " + power);
        }
        if (!(targetEffectPercent > 0) || Double.isInfinite(targetEffectPercent)) {
            throw new IllegalArgumentException("target effect must be a positive percentage, got "
                    + targetEffectPercent);
        }
    }

    /** Confidence 0.95, two-sided, α 0.05, margin 1 %, power 0.8, target effect 1 %. */
    public static ComparisonOptions defaults() {
        return DEFAULTS;
    }

    public ComparisonOptions withConfidenceLevel(double level) {
        return new ComparisonOptions(level, alternative, alpha, equivalenceMarginPercent, power, targetEffectPercent);
    }

    public ComparisonOptions withAlternative(Alternative value) {
        return new ComparisonOptions(confidenceLevel, value, alpha, equivalenceMarginPercent, power,
                targetEffectPercent);
    }

    public ComparisonOptions withAlpha(double value) {
        return new ComparisonOptions(confidenceLevel, alternative, value, equivalenceMarginPercent, power,
                targetEffectPercent);
    }

    public ComparisonOptions withEquivalenceMarginPercent(double value) {
        return new ComparisonOptions(confidenceLevel, alternative, alpha, value, power, targetEffectPercent);
    }

    public ComparisonOptions withPower(double value) {
        return new ComparisonOptions(confidenceLevel, alternative, alpha, equivalenceMarginPercent, value,
                targetEffectPercent);
    }

    public ComparisonOptions withTargetEffectPercent(double value) {
        return new ComparisonOptions(confidenceLevel, alternative, alpha, equivalenceMarginPercent, power, value);
    }
}
