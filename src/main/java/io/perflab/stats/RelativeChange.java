package io.perflab.stats;

/**
 * The change of the mean in percent of the baseline, 100·(x̄ − ȳ)/|ȳ| (100·(x̄/ȳ − 1) for the usual positive
 * baseline), with a two-sided interval at the comparison's confidence level by Fieller's theorem for the ratio of
 * independent means. (A paired design gives it instead from the t interval [l, u] of the mean log ratio:
 * 100·(e<sup>l</sup> − 1) to 100·(e<sup>u</sup> − 1), see {@link PairedAnalysis}.)
 *
 * <p>With a = x̄, b = ȳ, vₐ = s²ₓ/nₓ, v_b = s²ᵧ/nᵧ, q = t<sub>1−α/2,ν</sub> (Welch ν) and g = q²v_b/b², the ratio
 * ρ = μₓ/μᵧ lies in [ρ̂ ∓ (q/|b|)·√(vₐ + ρ̂²v_b − g·vₐ)]/(1 − g), ρ̂ = a/b. When g ≥ 1 the baseline mean is not
 * significantly different from zero and the set is unbounded: the bounds are then −∞ and +∞ (and the
 * comparison carries a warning).
 *
 * <p><b>A negative baseline.</b> The change is taken in percent of |ȳ|, sign(ȳ)·(ρ − 1), so that it has the sign of
 * x̄ − ȳ, which the verdict reads with the metric's direction: 100·(ρ̂ − 1) would call a fall from −10 to −12 a rise
 * of 20 %. The map from ρ is affine, so Fieller's bounds map to exact bounds of the same level, swapped when ȳ &lt; 0
 * (100·(1 − ρ<sub>high</sub>) to 100·(1 − ρ<sub>low</sub>)). It is the convention of the equivalence margin and the
 * minimum detectable effect, which are in percent of |ȳ| too ({@link Equivalence}, {@link Power}), and of the forest
 * plot, which draws these percentages. Leaving the change out, as for ȳ = 0, would hide a well-defined interval; the
 * comparison instead carries a warning that the change is in percent of |ȳ|.
 *
 * @param percent 100·(x̄ − ȳ)/|ȳ|
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
        // in percent of |b|: sign(b)·(ρ − 1), which turns the interval round when b < 0
        double percent = b > 0 ? 100 * (ratio - 1) : 100 * (1 - ratio);
        if (g >= 1) {
            return new RelativeChange(percent, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY);
        }
        double half = q / Math.abs(b) * Math.sqrt(va + ratio * ratio * vb - g * va);
        double low = (ratio - half) / (1 - g);
        double high = (ratio + half) / (1 - g);
        return b > 0 ? new RelativeChange(percent, 100 * (low - 1), 100 * (high - 1))
                : new RelativeChange(percent, 100 * (1 - high), 100 * (1 - low));
    }
}
