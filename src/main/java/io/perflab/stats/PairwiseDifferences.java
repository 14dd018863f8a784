package io.perflab.stats;

import java.util.SplittableRandom;

/**
 * Order statistics of the n·m pairwise differences xᵢ − yⱼ without forming them.
 *
 * <p>With x and y sorted, row i of the implicit matrix, xᵢ − y₍ₘ₎ ≤ … ≤ xᵢ − y₍₁₎, is ascending, and so is every
 * column; the number of differences below a pivot p is therefore counted in O(n + m) by walking the staircase
 * boundary. Each round draws a random sample of the differences still in play (as Monahan's algorithm draws its
 * pivot at random), takes two sample order statistics that bracket rank k (Floyd–Rivest), counts, and discards
 * every row segment outside the bracket; a round keeps about a tenth of the candidates, so a handful of O(n + m)
 * rounds suffice before the rest is copied out and quick-selected. Sorting dominates:
 * O((n + m) log(n + m)) overall in expectation. Floating-point subtraction is monotone, so counts and the
 * result are consistent with sorting the computed differences {@code x[i] - y[j]}. The sample comes from a
 * fixed seed; the answer does not depend on it.
 *
 * <p>Small matrices (at most {@link #MATERIALIZE_LIMIT} differences, e.g. 40 × 40 runs) are instead formed and
 * sorted once, on first use: a rank test with its interval asks for three or four order statistics, and one sort
 * of a few thousand values costs less than the sampling rounds of a single selection.
 *
 * @see <a href="https://doi.org/10.1145/1271.319414">J. F. Monahan (1984), Algorithm 616: fast computation of
 *     the Hodges–Lehmann location estimator, ACM TOMS 10(3)</a>
 * @see <a href="https://doi.org/10.1145/360680.360691">R. W. Floyd, R. L. Rivest (1975), Expected time bounds
 *     for selection, CACM 18(3)</a>
 * @see <a href="https://doi.org/10.1137/0207013">D. B. Johnson, T. Mizoguchi (1978), Selecting the Kth element
 *     in X + Y and X1 + X2 + … + Xm, SIAM J. Comput. 7(2)</a>
 */
final class PairwiseDifferences {

    private final double[] x;
    private final double[] y;
    private final int n;
    private final int m;
    private final long materializeLimit;
    /** All differences in ascending order, once formed (small matrices only). */
    private double[] sorted;

    /** Matrices up to this many differences are sorted outright instead of selected from. */
    static final long MATERIALIZE_LIMIT = 4096;

    /** @param xAscending x sorted ascending; @param yAscending y sorted ascending (neither is copied) */
    PairwiseDifferences(double[] xAscending, double[] yAscending) {
        this(xAscending, yAscending, MATERIALIZE_LIMIT);
    }

    /** As above, sorting outright only up to {@code materializeLimit} differences (tests use 0 and a large one). */
    PairwiseDifferences(double[] xAscending, double[] yAscending, long materializeLimit) {
        this.x = xAscending;
        this.y = yAscending;
        this.n = x.length;
        this.m = y.length;
        this.materializeLimit = materializeLimit;
    }

    /** The sorted differences when the matrix is small enough, else null. */
    private double[] sortedIfSmall() {
        if (sorted == null && size() <= materializeLimit) {
            double[] all = new double[(int) size()];
            int r = 0;
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < m; j++) {
                    all[r++] = x[i] - y[j];
                }
            }
            java.util.Arrays.sort(all);
            sorted = all;
        }
        return sorted;
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
        return selectPair(k, false)[0];
    }

    /**
     * The k-th smallest difference and, when {@code withNext}, the (k+1)-th, found from the k-th in one more
     * counting pass.
     */
    double[] selectPair(long k, boolean withNext) {
        if (k < 1 || k > size() || (withNext && k == size())) {
            throw new IllegalArgumentException("order " + k + " outside 1.." + size());
        }
        double[] all = sortedIfSmall();
        if (all != null) {
            return withNext ? new double[] {all[(int) k - 1], all[(int) k]} : new double[] {all[(int) k - 1]};
        }
        double value = selectKth(k);
        if (!withNext) {
            return new double[] {value};
        }
        // the next one is the same value if it repeats, else the smallest difference above it
        if (countPivot(value, countLow) >= k + 1) {
            return new double[] {value, value};
        }
        double next = Double.POSITIVE_INFINITY;
        for (int i = 0; i < n; i++) {
            if (countLow[i] < m) {
                next = Math.min(next, at(i, countLow[i]));
            }
        }
        return new double[] {value, next};
    }

    // per-row counts of the two pivots: less than / at most
    private int[] lessLow;
    private int[] countLow;
    private int[] lessHigh;
    private int[] countHigh;

    private double selectKth(long k) {
        int[] lo = new int[n];
        int[] hi = new int[n];
        java.util.Arrays.fill(hi, m);
        lessLow = new int[n];
        countLow = new int[n];
        lessHigh = new int[n];
        countHigh = new int[n];
        long[] starts = new long[n + 1];
        double[] sample = new double[SAMPLE];
        long below = 0;
        long active = size();
        long threshold = Math.max(1024L, 2L * (n + m));
        SplittableRandom random = new SplittableRandom(0x5DEECE66DL + 31L * n + m);
        while (active > threshold) {
            // Floyd–Rivest: two pivots from a random sample of the active differences, bracketing rank k
            for (int i = 0; i < n; i++) {
                starts[i + 1] = starts[i] + Math.max(0, hi[i] - lo[i]);
            }
            for (int j = 0; j < SAMPLE; j++) {
                long r = random.nextLong(active);
                int row = row(starts, r);
                sample[j] = at(row, lo[row] + (int) (r - starts[row]));
            }
            java.util.Arrays.sort(sample);
            double position = (double) (k - below) / active * SAMPLE;
            double low = sample[(int) Math.max(0, Math.min(SAMPLE - 1, position - SPREAD))];
            double high = sample[(int) Math.max(0, Math.min(SAMPLE - 1, position + SPREAD))];
            long lessThanLow = countPivot(low, lessLow, countLow);
            long atMostLow = total(countLow);
            if (k <= lessThanLow) {
                shrinkHigh(hi, lessLow);
            } else if (k <= atMostLow) {
                return low;
            } else {
                long lessThanHigh = countPivot(high, lessHigh, countHigh);
                long atMostHigh = total(countHigh);
                if (k <= lessThanHigh) {
                    shrinkLow(lo, countLow);
                    shrinkHigh(hi, lessHigh);
                } else if (k <= atMostHigh) {
                    return high;
                } else {
                    shrinkLow(lo, countHigh);
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

    private static final int SAMPLE = 1024;
    private static final double SPREAD = 48;

    private static int row(long[] starts, long r) {
        int a = 0;
        int b = starts.length - 2;
        while (a < b) {
            int mid = (a + b + 1) >>> 1;
            if (starts[mid] <= r) {
                a = mid;
            } else {
                b = mid - 1;
            }
        }
        return a;
    }

    private static long total(int[] counts) {
        long t = 0;
        for (int c : counts) {
            t += c;
        }
        return t;
    }

    private void shrinkHigh(int[] hi, int[] bound) {
        for (int i = 0; i < n; i++) {
            hi[i] = Math.min(hi[i], bound[i]);
        }
    }

    private void shrinkLow(int[] lo, int[] bound) {
        for (int i = 0; i < n; i++) {
            lo[i] = Math.max(lo[i], bound[i]);
        }
    }

    /** The median of all differences (mean of the two middle ones for an even count), as R's {@code median}. */
    double median() {
        long size = size();
        if (size % 2 == 1) {
            return select((size + 1) / 2);
        }
        double[] pair = selectPair(size / 2, true);
        return (pair[0] + pair[1]) / 2;
    }

    /** Per row the number of differences ≤ p into {@code atMost}; returns the total. */
    private long countPivot(double p, int[] atMost) {
        long total = 0;
        int t = m;
        for (int i = 0; i < n; i++) {
            while (t > 0 && !(at(i, t - 1) <= p)) {
                t--;
            }
            atMost[i] = t;
            total += t;
        }
        return total;
    }

    /**
     * Per row the number of differences &lt; p and ≤ p; returns the total of the first. Both counts are
     * non-increasing in i, so two pointers walk down from m.
     */
    private long countPivot(double p, int[] less, int[] atMost) {
        long total = 0;
        int t = m;
        int u = m;
        for (int i = 0; i < n; i++) {
            while (t > 0 && !(at(i, t - 1) < p)) {
                t--;
            }
            while (u > 0 && !(at(i, u - 1) <= p)) {
                u--;
            }
            less[i] = t;
            atMost[i] = u;
            total += t;
        }
        return total;
    }
}
