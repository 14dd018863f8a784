package io.perflab.stats;

import java.util.function.LongPredicate;

/**
 * Sensitivity of a two-sided Welch comparison at significance α and the requested power 1 − β, or of a paired
 * design's test over its pairs ({@link #paired}).
 *
 * <p>Minimum detectable effect for the current sizes and spreads: MDE = (t<sub>1−α/2,ν</sub> + t<sub>1−β,ν</sub>)·SE
 * with SE = √(s²ₓ/nₓ + s²ᵧ/nᵧ) and Welch's ν, reported in percent of |ȳ|. Runs per variant for a target effect
 * δ (percent of |ȳ|): the smallest n with (t<sub>1−α/2,ν(n)</sub> + t<sub>1−β,ν(n)</sub>)·√((s²ₓ + s²ᵧ)/n) ≤ δ,
 * ν(n) = (n − 1)(s²ₓ + s²ᵧ)²/(s⁴ₓ + s⁴ᵧ), assuming the observed spreads.
 *
 * @param power the power 1 − β used
 * @param minimumDetectableEffectPercent MDE in percent of the baseline mean (of a paired design: the relative change)
 * @param targetEffectPercent δ
 * @param runsPerVariantForTarget the n per variant that detects δ with that power; of a paired design, the pairs
 * @see <a href="https://doi.org/10.4324/9780203771587">J. Cohen (1988), Statistical Power Analysis for the
 *     Behavioral Sciences, 2nd ed., ch. 2</a>
 */
public record Power(double power, double minimumDetectableEffectPercent, double targetEffectPercent,
        long runsPerVariantForTarget) {

    /** Upper limit of the search for runs: beyond this the answer is "more than a million". */
    public static final long MAX_RUNS = 1_000_000;

    static Power of(Summary x, Summary y, TTestResult welch, double alpha, double power, double targetPercent) {
        double base = Math.abs(y.mean());
        double mde = factor(welch.df(), alpha, power) * welch.stdErr();
        double delta = targetPercent / 100 * base;
        double vx = x.variance();
        double vy = y.variance();
        long n = runs(vx, vy, delta, alpha, power);
        return new Power(power, 100 * mde / base, targetPercent, n);
    }

    /**
     * The smallest true difference of means that a two-sided Welch test at {@code alpha} detects with probability
     * {@code power} in an experiment of {@code runsPerVariant} runs on each side, when both sides have standard
     * deviation {@code sd}: (t(1 − α/2, ν) + t(power, ν)) · sd · √(2/n) with ν = 2(n − 1), Welch's degrees of
     * freedom for equal variances and sizes. It is in the units of {@code sd}; divide by a mean for a share.
     *
     * @throws IllegalArgumentException if {@code runsPerVariant} &lt; 2, {@code sd} is negative or not finite, or
     *     {@code alpha} or {@code power} lie outside (0, 1)
     */
    public static double minimumDetectableDifference(double sd, long runsPerVariant, double alpha, double power) {
        if (runsPerVariant < 2) {
            throw new IllegalArgumentException("runs per variant must be at least 2, got " + runsPerVariant);
        }
        if (!(sd >= 0) || Double.isInfinite(sd)) {
            throw new IllegalArgumentException("standard deviation must be finite and not negative, got " + sd);
        }
        if (!(alpha > 0 && alpha < 1) || !(power > 0 && power < 1)) {
            throw new IllegalArgumentException("alpha and power must lie in (0, 1), got " + alpha + " and " + power);
        }
        return factor(2.0 * (runsPerVariant - 1), alpha, power) * sd * Math.sqrt(2.0 / runsPerVariant);
    }

    /**
     * Sensitivity of a paired design's test, the one-sample t-test of the pairs' mean log ratios
     * ({@link PairedAnalysis}): the minimum detectable change of the mean log ratio for {@code pairs} pairs whose log
     * ratios spread by {@code sdLogRatio}, (t<sub>1−α/2,K−1</sub> + t<sub>1−β,K−1</sub>)·s/√K, reported as the
     * relative change 100·(e<sup>MDE</sup> − 1) %; and the pairs that detect a change of δ %, the smallest K with
     * (t<sub>1−α/2,K−1</sub> + t<sub>1−β,K−1</sub>)·s/√K ≤ log(1 + δ/100), assuming the spread stays as measured
     * (so with as many windows per pair as the pairs measured had).
     *
     * @throws IllegalArgumentException if {@code pairs} &lt; 2, {@code sdLogRatio} is negative or not finite,
     *     {@code alpha} or {@code power} lie outside (0, 1), or {@code targetPercent} is not positive
     */
    public static Power paired(double sdLogRatio, long pairs, double alpha, double power, double targetPercent) {
        if (pairs < 2) {
            throw new IllegalArgumentException("pairs must be at least 2, got " + pairs);
        }
        if (!(sdLogRatio >= 0) || Double.isInfinite(sdLogRatio)) {
            throw new IllegalArgumentException("standard deviation must be finite and not negative, got "
                    + sdLogRatio);
        }
        if (!(alpha > 0 && alpha < 1) || !(power > 0 && power < 1)) {
            throw new IllegalArgumentException("alpha and power must lie in (0, 1), got " + alpha + " and " + power);
        }
        if (!(targetPercent > 0) || Double.isInfinite(targetPercent)) {
            throw new IllegalArgumentException("target effect must be a positive percentage, got " + targetPercent);
        }
        double mde = factor(pairs - 1.0, alpha, power) * sdLogRatio / Math.sqrt(pairs);
        double delta = Math.log1p(targetPercent / 100);
        double variance = sdLogRatio * sdLogRatio;
        long needed = smallest(variance, delta, alpha, power,
                k -> factor(k - 1.0, alpha, power) * Math.sqrt(variance / k) <= delta);
        return new Power(power, 100 * Math.expm1(mde), targetPercent, needed);
    }

    private static double factor(double df, double alpha, double power) {
        return Distributions.tQuantile(1 - alpha / 2, df) + Distributions.tQuantile(power, df);
    }

    private static long runs(double vx, double vy, double delta, double alpha, double power) {
        return smallest(vx + vy, delta, alpha, power, n -> detects(n, vx, vy, delta, alpha, power));
    }

    /**
     * The smallest n ≥ 2 for which {@code detects} holds, at most {@link #MAX_RUNS}, for a test whose standard error
     * is √(variance/n): the normal quantiles' answer is a lower bound, since the t quantiles exceed them.
     */
    private static long smallest(double variance, double delta, double alpha, double power, LongPredicate detects) {
        if (variance == 0) {
            return 2;
        }
        double z = Distributions.normalQuantile(1 - alpha / 2) + Distributions.normalQuantile(power);
        long n = Math.max(2, (long) Math.ceil(z * z * variance / (delta * delta)));
        if (n > MAX_RUNS) {
            return MAX_RUNS;
        }
        // walk up from the normal answer, then bisect
        long failing = n - 1;
        while (!detects.test(n)) {
            failing = n;
            n = Math.max(n + 1, (long) Math.ceil(n * 1.05));
            if (n >= MAX_RUNS) {
                return MAX_RUNS;
            }
        }
        while (n - failing > 1) {
            long mid = (failing + n) >>> 1;
            if (detects.test(mid)) {
                n = mid;
            } else {
                failing = mid;
            }
        }
        return n;
    }

    private static boolean detects(long n, double vx, double vy, double delta, double alpha, double power) {
        double sum = vx + vy;
        // (n − 1)·(vx + vy)² / (vx² + vy²) in the shares of the sum, which cannot overflow
        // (vx² did for values of 1e100)
        double shareX = vx / sum;
        double shareY = vy / sum;
        double df = (n - 1) / (shareX * shareX + shareY * shareY);
        return factor(df, alpha, power) * Math.sqrt(sum / n) <= delta;
    }
}
