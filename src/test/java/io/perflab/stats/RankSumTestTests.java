package io.perflab.stats;

import static io.perflab.stats.Tolerance.assertAbsolute;
import static io.perflab.stats.Tolerance.assertRelative;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class RankSumTestTests {

    static List<ReferenceCases.Case> cases() {
        return ReferenceCases.all();
    }

    // Expected: R 4.2.2 wilcox.test(with, without, alternative, conf.level, conf.int = TRUE) via reference.R.
    // Exact branch: p, bounds and estimate equal R's. Normal branch: p within 1e-10; R finds the bounds and the
    // estimate with uniroot(tol = 1e-4), so they are compared within that tolerance (scaled by the data's spread).
    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void matchesR(ReferenceCases.Case c) {
        String[] f = c.fields("wilcox");
        RankSumResult r = RankSumTest.test(c.with(), c.without(), c.alternative(), c.confidenceLevel());
        String method = f[6].replace('_', ' ');
        assertThat(r.method()).isEqualTo(method);
        assertThat(r.w()).isEqualTo(ReferenceCases.parse(f[0]));
        assertRelative(ReferenceCases.parse(f[1]), r.pValue(), 1e-10, c + " p");
        double[] all = concat(c.with(), c.without());
        double tol = 1e-4 * Math.max(1, spread(all));
        if (r.exact()) {
            assertThat(r.estimate()).as("estimate").isEqualTo(ReferenceCases.parse(f[2]));
            assertThat(r.ciLow()).as("ciLow").isEqualTo(ReferenceCases.parse(f[3]));
            assertThat(r.ciHigh()).as("ciHigh").isEqualTo(ReferenceCases.parse(f[4]));
        } else {
            double[] d = bruteForceDifferences(c.with(), c.without());
            int mid = (d.length - 1) / 2;
            // R's uniroot may stop anywhere in the flat stretch around the middle differences
            assertThat(ReferenceCases.parse(f[2])).as("R estimate near the middle differences")
                    .isBetween(d[Math.max(0, mid - 1)] - tol, d[Math.min(d.length - 1, mid + 2)] + tol);
            assertAbsolute(ReferenceCases.parse(f[3]), r.ciLow(), tol, c + " ciLow");
            assertAbsolute(ReferenceCases.parse(f[4]), r.ciHigh(), tol, c + " ciHigh");
        }
        assertRelative(ReferenceCases.parse(f[5]), r.confidenceLevel(), 1e-15, c + " conf.level");
    }

    @Test
    void exactCountsSumToTheNumberOfArrangements() {
        // choose(12, 5) = 792 arrangements; P(W ≤ 35) = 1
        WilcoxonDistribution d = WilcoxonDistribution.of(5, 7);
        assertThat(d.cdf(35, true)).isEqualTo(1.0);
        // R 4.2.2: sprintf('%.17g', pwilcox(10, 5, 7)) = 0.13383838383838387
        assertRelative(0.13383838383838387, d.cdf(10, true), 1e-15, "pwilcox(10, 5, 7)");
        // R 4.2.2: qwilcox(0.025, 5, 7) = 6
        assertThat(d.quantile(0.025)).isEqualTo(6);
    }

    @Test
    void largeSamplesUseTheNormalApproximationWithoutEnumeratingDifferences() {
        java.util.SplittableRandom random = new java.util.SplittableRandom(3);
        double[] with = random.doubles(100_000).map(v -> v + 0.01).toArray();
        double[] without = random.doubles(100_000).toArray();
        RankSumResult r = RankSumTest.test(with, without, Alternative.TWO_SIDED, 0.95);
        assertThat(r.exact()).isFalse();
        assertThat(r.estimate()).isBetween(0.005, 0.015);
        assertThat(r.ciLow()).isLessThan(r.estimate());
        assertThat(r.ciHigh()).isGreaterThan(r.estimate());
    }

    static double[] bruteForceDifferences(double[] x, double[] y) {
        double[] d = new double[x.length * y.length];
        int k = 0;
        for (double a : x) {
            for (double b : y) {
                d[k++] = a - b;
            }
        }
        Arrays.sort(d);
        return d;
    }

    private static double[] concat(double[] a, double[] b) {
        double[] r = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        return r;
    }

    private static double spread(double[] v) {
        return Arrays.stream(v).max().orElseThrow() - Arrays.stream(v).min().orElseThrow();
    }
}
