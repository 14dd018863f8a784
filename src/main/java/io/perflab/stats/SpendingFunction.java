package io.perflab.stats;

/**
 * Lan–DeMets α-spending functions of a two-sided group-sequential test at level α: α*(t) is the type I error
 * that may have been spent by information fraction t ∈ (0, 1], with α*(1) = α. Each tail spends half, by the
 * one-sided function at level α/2, as {@code gsDesign}'s {@code sfLDOF}/{@code sfLDPocock} and {@code ldbounds}
 * ({@code sides = 2}) do, so the boundaries match their published values.
 *
 * @see <a href="https://doi.org/10.1093/biomet/70.3.659">K. K. G. Lan, D. L. DeMets (1983), Discrete sequential
 *     boundaries for clinical trials, Biometrika 70(3)</a>
 */
public enum SpendingFunction {

    /**
     * O'Brien–Fleming type: per tail 2 − 2Φ(z<sub>1−α/4</sub>/√t), so α*(t) = 4·(1 − Φ(z<sub>1−α/4</sub>/√t)).
     * Spends almost nothing early: the final boundary stays close to the fixed-sample one (2.031 against 1.960
     * for five equal looks at α = 0.05).
     */
    OBRIEN_FLEMING {
        @Override
        double spentUnchecked(double alpha, double t) {
            return 4 * Distributions.normalUpper(-Distributions.normalQuantile(alpha / 4) / Math.sqrt(t));
        }
    },

    /**
     * Pocock type: α*(t) = α·ln(1 + (e − 1)·t). Spends early, so it stops sooner on large effects, at the price
     * of a stricter final boundary (2.386 for five equal looks at α = 0.05).
     */
    POCOCK {
        @Override
        double spentUnchecked(double alpha, double t) {
            return alpha * Math.log1p((Math.E - 1) * t);
        }
    };

    /** The function's name as a person reads it: {@code O'Brien–Fleming} or {@code Pocock}. */
    public String label() {
        return this == OBRIEN_FLEMING ? "O'Brien–Fleming" : "Pocock";
    }

    /**
     * α*(t): the two-sided type I error spent by information fraction {@code t}.
     *
     * @param alpha the test's level, in (0, 1)
     * @param t the information fraction, in [0, 1] (0 spends nothing, 1 spends α)
     */
    public double spent(double alpha, double t) {
        if (!(alpha > 0 && alpha < 1)) {
            throw new IllegalArgumentException("alpha must be between 0 and 1 (exclusive), got " + alpha);
        }
        if (!(t >= 0 && t <= 1)) {
            throw new IllegalArgumentException("information fraction must lie in [0, 1], got " + t);
        }
        if (t == 0) {
            return 0;
        }
        return t == 1 ? alpha : Math.min(alpha, spentUnchecked(alpha, t));
    }

    abstract double spentUnchecked(double alpha, double t);
}
