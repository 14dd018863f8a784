package io.perflab.stats;

import java.util.Optional;

/**
 * A metric that measured the same value in every run of each side: bytes or allocations per operation, a count, a
 * size. No test applies (R's {@code t.test} stops with "data are essentially constant"), and none is needed: the
 * change is known exactly. Equal values on both sides are {@link Verdict#UNCHANGED}; different ones are
 * {@link Verdict#IMPROVED} or {@link Verdict#REGRESSED} by the metric's {@link Direction}, as benchstat reports a
 * B/op that moved from 64 to 96 in every run.
 *
 * @param without the value of every baseline run
 * @param with the value of every run of the change
 * @param withoutRuns the baseline's runs
 * @param withRuns the change's runs
 * @param verdict unchanged, improved or regressed
 * @param reason one sentence: the values, the exact change and why no test was made
 */
public record ConstantChange(double without, double with, int withoutRuns, int withRuns, Verdict verdict,
                             String reason) {

    /**
     * The exact change when every value of each side is the same (at least {@code minimumRuns} on each), else empty:
     * a side that varies at all is for the tests.
     */
    public static Optional<ConstantChange> of(double[] with, double[] without, Direction direction, int minimumRuns) {
        return of(with, without, direction, minimumRuns, "run");
    }

    /** As {@link #of(double[], double[], Direction, int)}, the values being each {@code each}'s: "window". */
    public static Optional<ConstantChange> of(double[] with, double[] without, Direction direction, int minimumRuns,
                                              String each) {
        if (with == null || without == null || with.length < minimumRuns || without.length < minimumRuns
                || !constant(with) || !constant(without)) {
            return Optional.empty();
        }
        double x = with[0];
        double y = without[0];
        String better = direction == Direction.LOWER_IS_BETTER ? "lower is better" : "higher is better";
        if (x == y) {
            return Optional.of(new ConstantChange(y, x, without.length, with.length, Verdict.UNCHANGED,
                    "every " + each + " measured " + Display.value(y) + " on both sides: no change (no test is "
                            + "needed, as the values do not vary)"));
        }
        Verdict verdict = direction.improves(x - y) ? Verdict.IMPROVED : Verdict.REGRESSED;
        return Optional.of(new ConstantChange(y, x, without.length, with.length, verdict, measured(x, y, each)
                + " (" + better + "; no test is needed, or possible, as the values do not vary)"));
    }

    /** "every run measured 64 without and 96 with: an exact change of +50.00%". */
    public String measured(String each) {
        return with == without ? "every " + each + " measured " + Display.value(without) + " on both sides"
                : measured(with, without, each);
    }

    private static String measured(double with, double without, String each) {
        return "every " + each + " measured " + Display.value(without) + " without and " + Display.value(with)
                + " with: " + (without == 0 ? "a change of " + Display.value(with - without)
                : "an exact change of " + Display.percent(100 * (with - without) / Math.abs(without)));
    }

    /** with − without. */
    public double difference() {
        return with - without;
    }

    /** The change in percent of the baseline's value; empty when that value is 0. */
    public Optional<Double> percent() {
        return without == 0 ? Optional.empty() : Optional.of(100 * (with - without) / Math.abs(without));
    }

    private static boolean constant(double[] values) {
        for (double v : values) {
            if (!Double.isFinite(v) || v != values[0]) {
                return false;
            }
        }
        return true;
    }
}
