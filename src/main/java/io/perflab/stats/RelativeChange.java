package io.perflab.stats;

/**
 * The change of the mean in percent of the baseline, 100·(x̄/ȳ − 1), with a two-sided interval at the
 * comparison's confidence level by Fieller's theorem for the ratio of independent means. (A paired design gives
 * it instead from the t interval [l, u] of the mean log ratio: 100·(e<sup>l</sup> − 1) to 100·(e<sup>u</sup> − 1), see
 * {@link PairedAnalysis}.)
 *
 * <p>With a = x̄, b = ȳ, vₐ = s²ₓ/nₓ, v_b = s²ᵧ/nᵧ, q = t<sub>1−α/2,ν</sub> (Welch ν) and g = q²v_b/b², the ratio
 * ρ = μₓ/μᵧ lies in [ρ̂ ∓ (q/|b|)·√(vₐ + ρ̂²v_b − g·vₐ)]/(1 − g), ρ̂ = a/b. When g ≥ 1 the baseline mean is not
 * significantly different from zero and the set is unbounded: the bounds are then −∞ and +∞ (and the
 * comparison carries a warning).
 *
 * @param percent 100·(x̄/ȳ − 1)
 * @param ciLowPercent lower bound in percent (−∞ when unbounded)
 * @param ciHighPercent upper bound in percent (+∞ when unbounded)
 * @see <a href="https://doi.org/10.1111/j.2517-6161.1954.tb00159.x">E. C. Fieller (1954), Some problems in
 *     interval estimation, J. R. Stat. Soc. B 16(2)</a>
 */
public record RelativeChange(double percent, double ciLowPercent, double ciHighPercent) {

    /** Whether Fieller's set is a finite interval. */
    public boolean bounded() {
        return Double.isFinite(ciLowPercent) && Double.isFinite(ciHighPercent);
    }

    /** 100·(e<sup>x</sup> − 1) of a log ratio's estimate and interval. */
    static RelativeChange ofLogRatio(TTestResult logRatio) {
        return new RelativeChange(100 * Math.expm1(logRatio.difference()), 100 * Math.expm1(logRatio.ciLow()),
                100 * Math.expm1(logRatio.ciHigh()));
    }

    static RelativeChange fieller(Summary x, Summary y, double df, double confidenceLevel) {
        double a = x.mean();
        double b = y.mean();
        double va = x.variance() / x.n();
        double vb = y.variance() / y.n();
        double q = Distributions.tQuantile(1 - (1 - confidenceLevel) / 2, df);
        double ratio = a / b;
        double g = q * q * vb / (b * b);
        if (g >= 1) {
            return new RelativeChange(100 * (ratio - 1), Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY);
        }
        double half = q / Math.abs(b) * Math.sqrt(va + ratio * ratio * vb - g * va);
        double low = (ratio - half) / (1 - g);
        double high = (ratio + half) / (1 - g);
        return new RelativeChange(100 * (ratio - 1), 100 * (low - 1), 100 * (high - 1));
    }
}
