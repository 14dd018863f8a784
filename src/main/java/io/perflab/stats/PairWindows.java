package io.perflab.stats;

/**
 * The windows of one metric measured by one pair of a paired design (a {@code duet} pair of JVMs, or an
 * {@code alternating} pair): {@code with[j]} and {@code without[j]} are window j of each variant, measured at
 * the same time (duet) or back to back (alternating). The pair, not the window, is the unit of replication.
 *
 * <p>A window missing on one side — a failed or unrecorded window — is {@code NaN}, or lies beyond the end of the
 * shorter array; {@link PairedAnalysis} leaves such a window out on <em>both</em> sides, so that every figure of a
 * pair compares the same moments.
 *
 * <p>Pairs and windows are named by their index from 0, as an experiment records them (its file, its samples, the
 * progress lines of {@code perflab ab}): a pair keeps its recorded index when a pair before it failed and was left
 * out. A pair given without one is named by its place among the pairs analysed, from 0.
 */
public final class PairWindows {

    private static final int UNNUMBERED = -1;

    private final int pair;
    private final double[] with;
    private final double[] without;

    private PairWindows(int pair, double[] with, double[] without) {
        this.pair = pair;
        this.with = with.clone();
        this.without = without.clone();
    }

    /**
     * The windows of one pair, matched by index; {@code NaN} marks a missing window.
     *
     * @throws IllegalArgumentException for a null array or an infinite value
     */
    public static PairWindows of(double[] with, double[] without) {
        check(with, "with");
        check(without, "without");
        return new PairWindows(UNNUMBERED, with, without);
    }

    /**
     * The windows of pair {@code pair} (its recorded index, from 0), matched by index; {@code NaN} marks a missing
     * window.
     *
     * @throws IllegalArgumentException for a negative index, a null array or an infinite value
     */
    public static PairWindows of(int pair, double[] with, double[] without) {
        if (pair < 0) {
            throw new IllegalArgumentException("a pair's index is 0 or more, got " + pair);
        }
        check(with, "with");
        check(without, "without");
        return new PairWindows(pair, with, without);
    }

    private static void check(double[] values, String side) {
        if (values == null) {
            throw new IllegalArgumentException("no '" + side + "' windows given");
        }
        for (int j = 0; j < values.length; j++) {
            if (Double.isInfinite(values[j])) {
                throw new IllegalArgumentException("'" + side + "' window " + j + " is " + values[j]
                        + ": only finite numbers (or NaN for a missing window) can be analysed");
            }
        }
    }

    /** The pair's recorded index, or {@code position}, its place among the pairs analysed, when it has none. */
    int indexOr(int position) {
        return pair == UNNUMBERED ? position : pair;
    }

    /** A copy of the {@code with} windows. */
    public double[] with() {
        return with.clone();
    }

    /** A copy of the {@code without} windows. */
    public double[] without() {
        return without.clone();
    }

    double[] withShared() {
        return with;
    }

    double[] withoutShared() {
        return without;
    }

    /** Whether window {@code j} was measured on both sides. */
    boolean matched(int j) {
        return j < with.length && j < without.length && !Double.isNaN(with[j]) && !Double.isNaN(without[j]);
    }

    /** The number of window indexes on the longer side. */
    int length() {
        return Math.max(with.length, without.length);
    }
}
