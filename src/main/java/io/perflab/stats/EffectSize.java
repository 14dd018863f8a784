package io.perflab.stats;

import org.apache.commons.math3.special.Gamma;

/**
 * Standardised mean difference of {@code with} − {@code without}.
 *
 * <p>Cohen's d = (x̄ − ȳ)/sₚ with the pooled sₚ² = ((nₓ − 1)s²ₓ + (nᵧ − 1)s²ᵧ)/(nₓ + nᵧ − 2); Hedges' g = J·d with
 * the exact small-sample correction J(ν) = Γ(ν/2)/(√(ν/2)·Γ((ν − 1)/2)), ν = nₓ + nᵧ − 2 (≈ 1 − 3/(4ν − 1)).
 *
 * @param cohenD Cohen's d
 * @param hedgesG Hedges' g, the bias-corrected d
 * @see <a href="https://doi.org/10.3102/10769986006002107">L. V. Hedges (1981), Distribution theory for Glass's
 *     estimator of effect size and related estimators, J. Educ. Stat. 6(2)</a>
 */
public record EffectSize(double cohenD, double hedgesG) {

    static EffectSize of(Summary x, Summary y) {
        double df = x.n() + y.n() - 2.0;
        double pooled = Math.sqrt(((x.n() - 1) * x.variance() + (y.n() - 1) * y.variance()) / df);
        double d = (x.mean() - y.mean()) / pooled;
        double j = Math.exp(Gamma.logGamma(df / 2) - Gamma.logGamma((df - 1) / 2)) / Math.sqrt(df / 2);
        return new EffectSize(d, j * d);
    }
}
