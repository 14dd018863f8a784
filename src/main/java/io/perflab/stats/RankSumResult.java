package io.perflab.stats;

/**
 * The outcome of the Wilcoxon rank-sum (Mann–Whitney) test of {@code with} against {@code without}, with the
 * Hodges–Lehmann shift estimate and its confidence interval, as R's
 * {@code wilcox.test(with, without, conf.int = TRUE)}.
 *
 * @param method R's title, e.g. {@code Wilcoxon rank sum exact test} or {@code Wilcoxon rank sum test with
 *     continuity correction}
 * @param w the statistic W = Σ ranks of {@code with} − nₓ(nₓ + 1)/2 (the number of pairs with xᵢ &gt; yⱼ, ties ½)
 * @param pValue p-value for {@code alternative}
 * @param exact whether p and interval come from the exact distribution (both n &lt; 50, no ties)
 * @param estimate Hodges–Lehmann shift: the median of all differences xᵢ − yⱼ
 * @param ciLow lower bound of the shift ({@code -Infinity} for {@link Alternative#LESS})
 * @param ciHigh upper bound ({@code +Infinity} for {@link Alternative#GREATER})
 * @param confidenceLevel the level the interval achieves; below the requested one when the exact distribution
 *     of small samples cannot reach it (R: "Requested conf.level not achievable")
 * @param alternative the alternative hypothesis
 */
public record RankSumResult(String method, double w, double pValue, boolean exact, double estimate, double ciLow,
        double ciHigh, double confidenceLevel, Alternative alternative) {
}
