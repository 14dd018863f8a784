package io.perflab.stats;

/**
 * A caveat that travels with a result to the page, the report and the CLI table (benchstat's habit): the
 * numbers are still given unless the warning says they are omitted.
 *
 * @param kind what kind of caveat
 * @param group the group it concerns ({@code with}, {@code without}) or {@code null} for both
 * @param message a sentence for people, naming the numbers involved
 */
public record StatWarning(Kind kind, String group, String message) {

    /** The kinds of caveat. */
    public enum Kind {
        /** Fewer than {@link Comparison#RECOMMENDED_SAMPLES} observations in a group (or pairs in a paired design). */
        TOO_FEW_SAMPLES,
        /** A group has no variation. */
        CONSTANT_DATA,
        /** Observations beyond Tukey's fences (flagged, never removed). */
        OUTLIERS,
        /** Values correlate with run order (Spearman), e.g. warming up or thermal throttling. */
        DRIFT,
        /** A small sample is strongly skewed: prefer the rank test. */
        NON_NORMAL,
        /** The exact rank test cannot reach the requested confidence level with so few observations. */
        CONFIDENCE_LEVEL_NOT_ACHIEVABLE,
        /** Ties forced the normal approximation although the samples are small enough for the exact test. */
        TIES,
        /** The baseline mean is zero or not distinguishable from zero: relative figures are omitted or unbounded. */
        BASELINE_NEAR_ZERO,
        /** The baseline mean is negative: relative figures are in percent of its absolute value. */
        NEGATIVE_BASELINE,
        /** Windows of a paired design measured on one side only were left out (pairs without any, too). */
        MISSING_WINDOWS,
        /** A method-of-moments variance component came out negative and is reported as 0. */
        NEGATIVE_VARIANCE_COMPONENT
    }
}
