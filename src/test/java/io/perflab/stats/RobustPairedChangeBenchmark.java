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
 * Cost of the robust check of one metric of a paired experiment ({@link RobustPairedChange}): its estimate, its
 * interval and its p-value, at 8 pairs (the default), 16 (the most whose sign patterns are all counted), 40 and 150
 * (random patterns), 3 windows each. A paired experiment's page computes it once per metric and keeps the result.
 * Not part of the test run: {@code ./mvnw -B -q -pl src -am -Pjmh test -DskipTests
 * -Djmh.include=RobustPairedChangeBenchmark}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgs = {"-Xms512m", "-Xmx512m"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class RobustPairedChangeBenchmark {

    /** {@code pairs} pairs of 3 windows: a 2 % shift, 3 % noise, one window in twenty 15 % off. */
    @State(Scope.Benchmark)
    public static class Windows {
        @Param({"8", "16", "40", "150"})
        public int pairs;

        double[][] logRatios;

        @Setup(Level.Trial)
        public void setUp() {
            SplittableRandom random = new SplittableRandom(7);
            logRatios = new double[pairs][3];
            for (double[] pair : logRatios) {
                for (int j = 0; j < pair.length; j++) {
                    pair[j] = 0.02 + random.nextGaussian() * (random.nextInt(20) == 0 ? 0.15 : 0.03);
                }
            }
        }
    }

    @Benchmark
    public RobustPairedChange robust(Windows w) {
        return RobustPairedChange.of(w.logRatios, Alternative.TWO_SIDED, 0.95);
    }
}
