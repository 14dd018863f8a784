package io.perflab.stats;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Cost of the statistics hot paths at 100, 10,000 and 100,000 samples per side (issue 5, acceptance 3:
 * Hodges–Lehmann and the full analysis of 2 × 100,000 samples under 1 s; issue 9, section 4): Welch's t-test,
 * the rank-sum test alone (p-value from sorted samples), the Hodges–Lehmann shift alone, the rank test with the
 * shift and its interval, and the whole comparison. Inputs are unsorted, as callers hand them over, so sorting
 * is part of each cost. Not part of the test run; the whole class takes about 3 minutes:
 * {@code ./mvnw -B -q -pl src -am -Pjmh test -DskipTests [-Djmh.include=StatsBenchmark.welch]}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgs = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class StatsBenchmark {

    /** Two samples of {@code size} values each: normal noise around 100 and 100.5, with a few ties. */
    @State(Scope.Benchmark)
    public static class Samples {
        @Param({"100", "10000", "100000"})
        public int size;

        double[] with;
        double[] without;

        @Setup(Level.Trial)
        public void setUp() {
            with = generate(size, 100);
            without = generate(size, 100.5);
        }
    }

    static double[] generate(int size, double mean) {
        // a seed per mean: both sides share no noise (100 and 100.5 once gave the same stream)
        SplittableRandom random = new SplittableRandom(42 + (long) (mean * 10));
        double[] v = new double[size];
        for (int i = 0; i < size; i++) {
            v[i] = mean + Math.sqrt(-2 * Math.log(1 - random.nextDouble()))
                    * Math.cos(2 * Math.PI * random.nextDouble());
        }
        return v;
    }

    @Benchmark
    public TTestResult welch(Samples s) {
        return TTest.welch(s.with, s.without, Alternative.TWO_SIDED, 0.95);
    }

    @Benchmark
    public RankSumResult rankSumWithHodgesLehmann(Samples s) {
        return RankSumTest.test(s.with, s.without, Alternative.TWO_SIDED, 0.95);
    }

    /** The rank sum W and its tie term: sorting both sides and one merge, without the shift. */
    @Benchmark
    public double rankSum(Samples s) {
        double[] x = s.with.clone();
        double[] y = s.without.clone();
        java.util.Arrays.sort(x);
        java.util.Arrays.sort(y);
        RankSumTest.Ranks ranks = RankSumTest.Ranks.of(x, y);
        return ranks.rankSumOfX + ranks.tieTerm;
    }

    /** The Hodges–Lehmann shift alone: the median of the size² pairwise differences, never formed for large sizes. */
    @Benchmark
    public double hodgesLehmann(Samples s) {
        double[] x = s.with.clone();
        double[] y = s.without.clone();
        java.util.Arrays.sort(x);
        java.util.Arrays.sort(y);
        return new PairwiseDifferences(x, y).median();
    }

    /** Everything the analyze API and a results page compute for one metric. */
    @Benchmark
    public ComparisonResult compare(Samples s) {
        return Comparison.compare(s.with, s.without, Direction.LOWER_IS_BETTER, ComparisonOptions.defaults());
    }
}
