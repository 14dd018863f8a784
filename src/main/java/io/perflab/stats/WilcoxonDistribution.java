package io.perflab.stats;

import java.math.BigInteger;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The exact null distribution of the Mann–Whitney statistic W (the number of pairs with xᵢ &gt; yⱼ) for sample
 * sizes m and n without ties; Commons Math has only the normal approximation, so this class counts.
 *
 * <p>The number of arrangements with W = k satisfies c(k; m, n) = c(k − n; m − 1, n) + c(k; m, n − 1) (the
 * largest observation is either an x above all n y's, or a y), with c(0; m, 0) = c(0; 0, n) = 1. Every term is
 * a sum of positive counts, so no precision is lost to cancellation. P(W = k) = c(k; m, n)/C(m + n, n).
 * {@link #cdf} and {@link #quantile} follow R's {@code pwilcox} and {@code qwilcox} (sum over the shorter
 * tail; the same 10·ε guard), so exact p-values and confidence bounds equal R's.
 *
 * @see <a href="https://doi.org/10.1214/aoms/1177730491">H. B. Mann, D. R. Whitney (1947), On a test of whether
 *     one of two random variables is stochastically larger than the other, Ann. Math. Statist. 18(1)</a>
 */
final class WilcoxonDistribution {

    private static final Map<Long, WilcoxonDistribution> CACHE = new ConcurrentHashMap<>();

    private final int m;
    private final int n;
    private final double[] counts;
    private final double total;

    private WilcoxonDistribution(int m, int n) {
        this.m = m;
        this.n = n;
        this.counts = counts(m, n);
        this.total = new BigInteger(binomial(m + n, n)).doubleValue();
    }

    /** The distribution for m x's and n y's (each below 50 in practice: the work grows as m²n²). */
    static WilcoxonDistribution of(int m, int n) {
        return CACHE.computeIfAbsent(((long) m << 32) | n, key -> new WilcoxonDistribution(m, n));
    }

    private static String binomial(int a, int b) {
        BigInteger r = BigInteger.ONE;
        for (int i = 1; i <= b; i++) {
            r = r.multiply(BigInteger.valueOf(a - b + i)).divide(BigInteger.valueOf(i));
        }
        return r.toString();
    }

    private static double[] counts(int m, int n) {
        // previous[j] holds c(·; i − 1, j); current[j] holds c(·; i, j)
        double[][] previous = new double[n + 1][];
        for (int j = 0; j <= n; j++) {
            previous[j] = new double[] {1};
        }
        for (int i = 1; i <= m; i++) {
            double[][] current = new double[n + 1][];
            current[0] = new double[] {1};
            for (int j = 1; j <= n; j++) {
                double[] c = new double[i * j + 1];
                double[] left = current[j - 1];
                System.arraycopy(left, 0, c, 0, left.length);
                double[] up = previous[j];
                for (int k = 0; k < up.length; k++) {
                    c[k + j] += up[k];
                }
                current[j] = c;
            }
            previous = current;
        }
        return previous[n];
    }

    /** P(W ≤ q), or P(W &gt; q) when {@code lowerTail} is false, as R's {@code pwilcox(q, m, n, lower.tail)}. */
    double cdf(double q, boolean lowerTail) {
        q = Math.floor(q + 1e-7);
        double mn = (double) m * n;
        if (q < 0) {
            return lowerTail ? 0 : 1;
        }
        if (q >= mn) {
            return lowerTail ? 1 : 0;
        }
        double p = 0;
        if (q <= mn / 2) {
            for (int i = 0; i <= q; i++) {
                p += counts[i] / total;
            }
        } else {
            q = mn - q;
            for (int i = 0; i < q; i++) {
                p += counts[i] / total;
            }
            lowerTail = !lowerTail;
        }
        return lowerTail ? p : (0.5 - p + 0.5);
    }

    /** The smallest q with P(W ≤ q) ≥ x, as R's {@code qwilcox(x, m, n)}. */
    int quantile(double x) {
        if (x <= 0) {
            return 0;
        }
        if (x >= 1) {
            return m * n;
        }
        double p = 0;
        int q = 0;
        if (x <= 0.5) {
            x = x - 10 * Math.ulp(1.0);
            while (true) {
                p += counts[q] / total;
                if (p >= x) {
                    break;
                }
                q++;
            }
        } else {
            x = 1 - x + 10 * Math.ulp(1.0);
            while (true) {
                p += counts[q] / total;
                if (p > x) {
                    q = m * n - q;
                    break;
                }
                q++;
            }
        }
        return q;
    }
}
