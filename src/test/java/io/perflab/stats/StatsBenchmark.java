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
 * Cost of the statistics on large samples (issue 5, acceptance 3: Hodges–Lehmann and the full analysis of
 * 2 × 100,000 samples under 1 s). Not part of the test run; run it with
 * {@code ./mvnw -B -q -pl src -am -Pjmh test -DskipTests}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
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

    /** Two samples of 100,000 each. */
    @State(Scope.Benchmark)
    public static class Large {
        double[] with = generate(100_000, 100);
        double[] without = generate(100_000, 100.5);
    }

    static double[] generate(int size, double mean) {
        SplittableRandom random = new SplittableRandom(42 + (long) mean);
        double[] v = new double[size];
        for (int i = 0; i < size; i++) {
            v[i] = mean + Math.sqrt(-2 * Math.log(1 - random.nextDouble())) * Math.cos(2 * Math.PI * random.nextDouble());
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

    @Benchmark
    public double hodgesLehmann100k(Large s) {
        double[] x = s.with.clone();
        double[] y = s.without.clone();
        java.util.Arrays.sort(x);
        java.util.Arrays.sort(y);
        return new PairwiseDifferences(x, y).median();
    }

    @Benchmark
    public ComparisonResult analyze100k(Large s) {
        return Comparison.compare(s.with, s.without, Direction.LOWER_IS_BETTER, ComparisonOptions.defaults());
    }
}
