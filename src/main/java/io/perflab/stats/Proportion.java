package io.perflab.stats;

import org.apache.commons.math3.distribution.BetaDistribution;

/**
 * A binomial proportion — {@code successes} of {@code trials} — with its exact (Clopper–Pearson) confidence
 * interval: the bounds are the α/2 quantile of Beta(k, n − k + 1) and the 1 − α/2 quantile of Beta(k + 1, n − k),
 * with 0 and 1 at the edges. It never undercovers, which matters for the small counts it is used on (how many of
 * 20 A/A experiments called a difference). R's {@code binom.test(k, n)$conf.int} gives the same bounds.
 *
 * @param successes k
 * @param trials n
 * @param low lower bound of the interval
 * @param high upper bound of the interval
 * @see <a href="https://doi.org/10.1093/biomet/26.4.404">C. J. Clopper, E. S. Pearson (1934), The use of confidence
 *     or fiducial limits illustrated in the case of the binomial, Biometrika 26(4)</a>
 */
public record Proportion(int successes, int trials, double low, double high) {

    /**
     * The proportion {@code successes / trials} with its two-sided Clopper–Pearson interval at {@code confidence}.
     *
     * @throws IllegalArgumentException if {@code trials} &lt; 1, {@code successes} lies outside [0, trials] or
     *     {@code confidence} outside (0, 1)
     */
    public static Proportion clopperPearson(int successes, int trials, double confidence) {
        if (trials < 1 || successes < 0 || successes > trials) {
            throw new IllegalArgumentException("need 0 ≤ successes ≤ trials and trials ≥ 1, got " + successes
                    + " of " + trials);
        }
        if (!(confidence > 0 && confidence < 1)) {
            throw new IllegalArgumentException("confidence must lie between 0 and 1, got " + confidence);
        }
        double tail = (1 - confidence) / 2;
        double low = successes == 0 ? 0
                : beta(successes, trials - successes + 1).inverseCumulativeProbability(tail);
        double high = successes == trials ? 1
                : beta(successes + 1, trials - successes).inverseCumulativeProbability(1 - tail);
        return new Proportion(successes, trials, low, high);
    }

    /** k / n. */
    public double rate() {
        return (double) successes / trials;
    }

    private static BetaDistribution beta(double a, double b) {
        return new BetaDistribution(null, a, b, 1e-14);
    }
}
