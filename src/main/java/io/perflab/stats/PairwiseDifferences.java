package io.perflab.stats;

import java.util.SplittableRandom;

/**
 * Order statistics of the n·m pairwise differences xᵢ − yⱼ without forming them.
 *
 * <p>With x and y sorted, row i of the implicit matrix, xᵢ − y₍ₘ₎ ≤ … ≤ xᵢ − y₍₁₎, is ascending, and so is every
 * column; the number of differences ≤ p is therefore counted in O(n + m) by walking the staircase boundary.
 * Each round picks a pivot uniformly among the differences still in play (Monahan's randomised choice),
 * counts, and discards every row segment on the wrong side of the pivot, so the expected number of rounds is
 * O(log(nm)); once few candidates remain they are copied out and quick-selected. Sorting dominates:
 * O((n + m) log(n + m)) overall in expectation. Floating-point subtraction is monotone, so counts and the
 * final value are consistent with sorting the computed differences {@code x[i] - y[j]}. The pivot sequence
 * comes from a fixed seed; the answer does not depend on it.
 *
 * @see <a href="https://doi.org/10.1145/1271.319414">J. F. Monahan (1984), Algorithm 616: fast computation of
 *     the Hodges–Lehmann location estimator, ACM TOMS 10(3)</a>
 * @see <a href="https://doi.org/10.1137/0207013">D. B. Johnson, T. Mizoguchi (1978), Selecting the Kth element
 *     in X + Y and X1 + X2 + … + Xm, SIAM J. Comput. 7(2)</a>
 */
final class PairwiseDifferences {

    private final double[] x;
    private final double[] y;
    private final int n;
    private final int m;

    /** @param xAscending x sorted ascending; @param yAscending y sorted ascending (neither is copied) */
    PairwiseDifferences(double[] xAscending, double[] yAscending) {
        this.x = xAscending;
        this.y = yAscending;
        this.n = x.length;
        this.m = y.length;
    }

    long size() {
        return (long) n * m;
    }

    /** The element of row i at ascending position t: xᵢ − y₍ₘ₋₁₋ₜ₎. */
    private double at(int i, int t) {
        return x[i] - y[m - 1 - t];
    }

    /** The k-th smallest difference, k from 1 to n·m. */
    double select(long k) {
        if (k < 1 || k > size()) {
            throw new IllegalArgumentException("order " + k + " outside 1.." + size());
        }
        int[] lo = new int[n];
        int[] hi = new int[n];
        java.util.Arrays.fill(hi, m);
        int[] countLess = new int[n];
        int[] countAtMost = new int[n];
        long below = 0;
        long active = size();
        long threshold = Math.max(64L, 4L * (n + m));
        SplittableRandom random = new SplittableRandom(0x5DEECE66DL + 31L * n + m);
        while (active > threshold) {
            double pivot = pick(random.nextLong(active), lo, hi);
            long less = count(pivot, true, countLess);
            long atMost = count(pivot, false, countAtMost);
            if (k <= less) {
                for (int i = 0; i < n; i++) {
                    hi[i] = Math.min(hi[i], countLess[i]);
                }
            } else if (k <= atMost) {
                return pivot;
            } else {
                for (int i = 0; i < n; i++) {
                    lo[i] = Math.max(lo[i], countAtMost[i]);
                }
            }
            below = 0;
            active = 0;
            for (int i = 0; i < n; i++) {
                below += lo[i];
                if (hi[i] > lo[i]) {
                    active += hi[i] - lo[i];
                }
            }
        }
        double[] rest = new double[(int) active];
        int r = 0;
        for (int i = 0; i < n; i++) {
            for (int t = lo[i]; t < hi[i]; t++) {
                rest[r++] = at(i, t);
            }
        }
        return QuickSelect.select(rest, (int) (k - below - 1));
    }

    /** The median of all differences (mean of the two middle ones for an even count), as R's {@code median}. */
    double median() {
        long size = size();
        if (size % 2 == 1) {
            return select((size + 1) / 2);
        }
        double a = select(size / 2);
        double b = select(size / 2 + 1);
        return (a + b) / 2;
    }

    private double pick(long r, int[] lo, int[] hi) {
        for (int i = 0; i < n; i++) {
            int width = hi[i] - lo[i];
            if (width > 0) {
                if (r < width) {
                    return at(i, lo[i] + (int) r);
                }
                r -= width;
            }
        }
        throw new IllegalStateException("no active difference left");
    }

    /**
     * Per row, how many differences are &lt; p ({@code strict}) or ≤ p; returns the total. The count is
     * non-increasing in i, so one pointer walks down from m.
     */
    private long count(double p, boolean strict, int[] perRow) {
        long total = 0;
        int t = m;
        for (int i = 0; i < n; i++) {
            while (t > 0 && (strict ? !(at(i, t - 1) < p) : !(at(i, t - 1) <= p))) {
                t--;
            }
            perRow[i] = t;
            total += t;
        }
        return total;
    }
}
