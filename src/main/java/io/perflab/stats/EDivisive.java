package io.perflab.stats;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;

/**
 * Change points in a metric's history by E-divisive means (Matteson &amp; James), as Apache Otava (Hunter) and
 * MongoDB's signal-processing library use it.
 *
 * <p>For a segment split into X = x₁…x_τ and Y = x_{τ+1}…x_κ, with α = 1,
 * Ê = 2/(τ·(κ−τ))·Σ|Xᵢ − Yⱼ| − C(τ,2)⁻¹·Σ_{i&lt;k}|Xᵢ − Xₖ| − C(κ−τ,2)⁻¹·Σ_{j&lt;k}|Yⱼ − Yₖ| and
 * Q̂ = τ(κ−τ)/κ · Ê. Each round takes, over all current segments, the split with the largest Q̂ (both sides at
 * least {@code minSegment} long) and accepts it when a permutation test finds it significant: the p-value is
 * (1 + #{permutations whose best Q̂ ≥ the observed}) / (1 + permutations), with the series values of that
 * segment shuffled by a seeded {@link Random}. Splitting stops at the first non-significant round. All Q̂ of a
 * segment are computed in O(κ log κ) from running sums and two Fenwick trees.
 *
 * <p>Defaults: significance level 0.01, 199 permutations, minimum segment length 5, seed 1. With these, a flat
 * series is reported as changed with probability about 0.01 per round.
 *
 * @param significanceLevel accept a split when its permutation p-value is at most this
 * @param permutations shuffles per test
 * @param minSegment shortest segment on either side of a change
 * @param seed seed of the shuffles (results are reproducible)
 * @see <a href="https://doi.org/10.1080/01621459.2013.849605">D. S. Matteson, N. A. James (2014), A nonparametric
 *     approach for multiple change point analysis of multivariate data, JASA 109(505)</a>
 * @see <a href="https://doi.org/10.1145/3358960.3375791">D. Daly et al. (2020), The use of change point detection
 *     to identify software performance regressions in a continuous integration system, ICPE</a>
 */
public record EDivisive(double significanceLevel, int permutations, int minSegment, long seed) {

    public EDivisive {
        if (!(significanceLevel > 0 && significanceLevel < 1)) {
            throw new IllegalArgumentException("significance level must be in (0, 1), got " + significanceLevel);
        }
        if (permutations < 1) {
            throw new IllegalArgumentException("permutations must be ≥ 1, got " + permutations);
        }
        if (minSegment < 2) {
            throw new IllegalArgumentException("minimum segment length must be ≥ 2, got " + minSegment);
        }
    }

    /** Level 0.01, 199 permutations, segments of at least 5 points, seed 1. */
    public static EDivisive defaults() {
        return new EDivisive(0.01, 199, 5, 1);
    }

    private record Split(int start, int end, int tau, double q) {
    }

    /** The change points of {@code series}, ordered by index. */
    public List<ChangePoint> detect(double[] series) {
        Inputs.requireSample(series, "series", 0);
        Random random = new Random(seed);
        TreeSet<Integer> cuts = new TreeSet<>(List.of(0, series.length));
        List<ChangePoint> found = new ArrayList<>();
        while (true) {
            Split best = null;
            Integer previous = null;
            for (int cut : cuts) {
                if (previous != null) {
                    Split s = bestSplit(series, previous, cut);
                    if (s != null && (best == null || s.q() > best.q())) {
                        best = s;
                    }
                }
                previous = cut;
            }
            if (best == null) {
                break;
            }
            double p = permutationPValue(series, best, random);
            if (p > significanceLevel) {
                break;
            }
            cuts.add(best.tau());
            found.add(new ChangePoint(best.tau(), p, best.q(), mean(series, best.start(), best.tau()),
                    mean(series, best.tau(), best.end())));
        }
        found.sort(Comparator.comparingInt(ChangePoint::index));
        return List.copyOf(found);
    }

    private double permutationPValue(double[] series, Split best, Random random) {
        double[] segment = Arrays.copyOfRange(series, best.start(), best.end());
        int atLeast = 0;
        for (int i = 0; i < permutations; i++) {
            shuffle(segment, random);
            Split s = bestSplit(segment, 0, segment.length);
            if (s != null && s.q() >= best.q()) {
                atLeast++;
            }
        }
        return (1.0 + atLeast) / (1.0 + permutations);
    }

    /**
     * The split of series[start, end) with the largest Q̂, or null when the segment is too short. The points move
     * one by one from the right part to the left; each one's distances to either part come from two Fenwick trees
     * over the segment's sorted values (count and sum of the values below it), so a segment costs O(κ log κ), not
     * the O(κ²) of summing the distances pair by pair (3 s a request at 3,500 uploads of one benchmark).
     */
    private Split bestSplit(double[] v, int start, int end) {
        int n = end - start;
        if (n < 2 * minSegment) {
            return null;
        }
        // centred on the median, so that count × value − sum loses no digits to a large common offset
        double[] sorted = Arrays.copyOfRange(v, start, end);
        Arrays.sort(sorted);
        double centre = sorted[n / 2];
        for (int i = 0; i < n; i++) {
            sorted[i] -= centre;
        }
        Fenwick left = new Fenwick(n);
        Fenwick right = new Fenwick(n);
        int[] rank = new int[n];
        double rightWithin = 0;
        double below = 0;
        for (int k = 0; k < n; k++) {
            rightWithin += k * sorted[k] - below;
            below += sorted[k];
        }
        for (int i = 0; i < n; i++) {
            rank[i] = lowerBound(sorted, v[start + i] - centre);
            right.add(rank[i], v[start + i] - centre);
        }
        double leftWithin = 0;
        double cross = 0;
        Split best = null;
        for (int tau = start + 1; tau < end; tau++) {
            int p = tau - 1 - start;
            double x = v[tau - 1] - centre;
            double toLeft = left.distances(rank[p], x);
            right.remove(rank[p], x);
            double toRight = right.distances(rank[p], x);
            left.add(rank[p], x);
            leftWithin += toLeft;
            rightWithin -= toRight;
            cross += toRight - toLeft;
            int m = tau - start;
            int r = end - tau;
            if (m >= minSegment && r >= minSegment) {
                double e = 2 * cross / ((double) m * r) - leftWithin / (m * (m - 1) / 2.0)
                        - rightWithin / (r * (r - 1) / 2.0);
                double q = (double) m * r / n * e;
                if (best == null || q > best.q()) {
                    best = new Split(start, end, tau, q);
                }
            }
        }
        return best;
    }

    /** The first index of {@code ascending} whose value is not below {@code x}. */
    private static int lowerBound(double[] ascending, double x) {
        int lo = 0;
        int hi = ascending.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (ascending[mid] < x) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** Counts and sums of a multiset of values by their rank among a segment's sorted values. */
    private static final class Fenwick {
        private final int[] count;
        private final double[] sum;
        private int size;
        private double total;

        Fenwick(int ranks) {
            count = new int[ranks + 1];
            sum = new double[ranks + 1];
        }

        void add(int rank, double x) {
            update(rank, 1, x);
        }

        void remove(int rank, double x) {
            update(rank, -1, -x);
        }

        private void update(int rank, int c, double x) {
            size += c;
            total += x;
            for (int i = rank + 1; i < count.length; i += i & -i) {
                count[i] += c;
                sum[i] += x;
            }
        }

        /** Σ |y − x| over the values y held, x being the value of {@code rank}. */
        double distances(int rank, double x) {
            int lowerCount = 0;
            double lowerSum = 0;
            for (int i = rank; i > 0; i -= i & -i) {
                lowerCount += count[i];
                lowerSum += sum[i];
            }
            return (x * lowerCount - lowerSum) + ((total - lowerSum) - x * (size - lowerCount));
        }
    }

    private static void shuffle(double[] a, Random random) {
        for (int i = a.length - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            double t = a[i];
            a[i] = a[j];
            a[j] = t;
        }
    }

    private static double mean(double[] v, int from, int to) {
        return Sums.mean(Arrays.copyOfRange(v, from, to));
    }
}
