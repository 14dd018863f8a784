package io.perflab.stats;

/**
 * Two one-sided tests (TOST) of equivalence within ±δ, δ = margin % of |ȳ|, on Welch's statistic:
 * p₁ = P(T<sub>ν</sub> &gt; (x̄ − ȳ + δ)/SE) for H₀: μₓ − μᵧ ≤ −δ, p₂ = P(T<sub>ν</sub> &lt; (x̄ − ȳ − δ)/SE) for
 * H₀: μₓ − μᵧ ≥ δ; p = max(p₁, p₂). Equivalent at level α when p &lt; α, which is the same as the
 * 100(1 − 2α) % Welch interval lying inside (−δ, δ).
 *
 * @param marginPercent the margin in percent of the baseline mean
 * @param margin δ in the metric's unit
 * @param pValue max(p₁, p₂)
 * @param equivalent whether p &lt; α
 * @see <a href="https://doi.org/10.1007/BF01068419">D. J. Schuirmann (1987), A comparison of the two one-sided
 *     tests procedure and the power approach for assessing the equivalence of average bioavailability,
 *     J. Pharmacokinet. Biopharm. 15(6)</a>
 */
public record Equivalence(double marginPercent, double margin, double pValue, boolean equivalent) {

    static Equivalence tost(TTestResult welch, double marginPercent, double alpha) {
        double delta = marginPercent / 100 * Math.abs(welch.meanWithout());
        double se = welch.stdErr();
        double pLower = Distributions.tUpper((welch.difference() + delta) / se, welch.df());
        double pUpper = Distributions.tLower((welch.difference() - delta) / se, welch.df());
        double p = Math.max(pLower, pUpper);
        return new Equivalence(marginPercent, delta, p, p < alpha);
    }
}
