package io.perflab.stats;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

class PairwiseDifferencesTests {

    // Expected: the sorted list of all n·m differences (brute force), on random small inputs with ties allowed;
    // both ways of answering: selection without forming the differences (limit 0), and sorting them outright.
    @Property(tries = 200)
    void everyOrderStatisticEqualsBruteForce(@ForAll @IntRange(min = 1, max = 40) int n,
            @ForAll @IntRange(min = 1, max = 40) int m, @ForAll @IntRange(min = 1, max = 6) int granularity,
            @ForAll @LongRange(min = 0, max = Long.MAX_VALUE) long seed, @ForAll boolean materialize) {
        java.util.SplittableRandom random = new java.util.SplittableRandom(seed);
        // few distinct values at low granularity, so ties among differences are common
        double[] x = random.doubles(n).map(v -> Math.floor(v * Math.pow(4, granularity))).sorted().toArray();
        double[] y = random.doubles(m).map(v -> Math.floor(v * Math.pow(4, granularity)) * 0.5).sorted().toArray();
        double[] expected = RankSumTestTests.bruteForceDifferences(x, y);
        PairwiseDifferences differences = new PairwiseDifferences(x, y, materialize ? Long.MAX_VALUE : 0);
        // every rank of small matrices; a stride through larger ones (always including both ends)
        int stride = Math.max(1, expected.length / 97);
        for (int k = 1; k <= expected.length; k += (k == expected.length - 1 ? 1 : Math.min(stride, Math.max(1,
                expected.length - 1 - k)))) {
            assertThat(differences.select(k)).as("k = %d", k).isEqualTo(expected[k - 1]);
        }
        for (int k = 1; k < expected.length; k += stride) {
            assertThat(differences.selectPair(k, true)).as("pair at k = %d", k)
                    .containsExactly(expected[k - 1], expected[k]);
        }
        double[] copy = expected.clone();
        Arrays.sort(copy);
        int size = copy.length;
        double median = size % 2 == 1 ? copy[size / 2] : (copy[size / 2 - 1] + copy[size / 2]) / 2;
        assertThat(differences.median()).isEqualTo(median);
    }

    @Property(tries = 20)
    void selectsInLargerContinuousInputs(@ForAll @IntRange(min = 50, max = 400) int n,
            @ForAll @IntRange(min = 50, max = 400) int m, @ForAll @LongRange(min = 0, max = Long.MAX_VALUE) long seed) {
        java.util.SplittableRandom random = new java.util.SplittableRandom(seed);
        double[] x = random.doubles(n).map(v -> v * 1e3).sorted().toArray();
        double[] y = random.doubles(m).map(v -> v * 1e3 + 100).sorted().toArray();
        double[] expected = RankSumTestTests.bruteForceDifferences(x, y);
        PairwiseDifferences differences = new PairwiseDifferences(x, y, 0);
        for (long k : new long[] {1, 2, expected.length / 3, expected.length / 2, expected.length / 2 + 1,
                expected.length - 1, expected.length}) {
            assertThat(differences.select(k)).isEqualTo(expected[(int) k - 1]);
        }
    }
}
