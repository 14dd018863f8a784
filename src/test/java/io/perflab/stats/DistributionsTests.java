package io.perflab.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class DistributionsTests {

    @Test
    void tQuantilesFromTheCornishFisherStartAgreeWithTheSolversToFullPrecision() {
        double[] dfs = {3, 3.7, 5, 9, 17.25, 38.6, 49, 98, 1_000, 123_456.5};
        double[] ps = {0.5001, 0.6, 0.8, 0.9, 0.95, 0.975, 0.99, 0.995, 0.9995, 1 - 1e-6, 1 - 1e-9};
        for (double df : dfs) {
            for (double p : ps) {
                double solver = Distributions.tQuantileBySolver(p, (0.5 - p) + 0.5, df);
                // in the far tail the incomplete beta function itself is good to about 1e-10 relative, so two
                // Newton walks from different starts stop at different points of that noise
                double tolerance = (p > 0.9995 ? 1e-9 : 1e-12) * Math.abs(solver);
                assertThat(Distributions.tQuantile(p, df)).as("qt(%s, %s)", p, df)
                        .isCloseTo(solver, within(tolerance));
                assertThat(Distributions.tQuantile(1 - p, df)).as("qt(%s, %s)", 1 - p, df)
                        .isCloseTo(-solver, within(tolerance));
            }
        }
    }

    @Test
    void fUpperTailsMatchTheIncompleteBetaToFullPrecision() {
        // pf(f, df1, df2, lower.tail = FALSE) by mpmath 1.3 betainc at 40 digits
        double[][] cases = {
            {0.5, 3, 10, 0.6906222455335574},
            {2.5, 9, 40, 0.022585656582757744},
            {7.3, 9, 40, 3.391007843442249e-06},
            {1.0, 1, 1, 0.5},
            {300.0, 4, 45, 8.161000047267903e-32},
            {1e-3, 2, 5, 0.9990006995802309},
        };
        for (double[] c : cases) {
            assertThat(Distributions.fUpper(c[0], c[1], c[2])).as("pf(%s, %s, %s)", c[0], c[1], c[2])
                    .isCloseTo(c[3], within(1e-12 * c[3]));
        }
        assertThat(Distributions.fUpper(0, 3, 10)).isEqualTo(1);
        assertThat(Distributions.fUpper(Double.POSITIVE_INFINITY, 3, 10)).isZero();
    }

    @Test
    void tQuantilesMatchTheTables() {
        // SciPy 1.17.1 scipy.stats.t.ppf(p, df); a part in 1e12 is what the incomplete beta function allows
        assertThat(Distributions.tQuantile(0.975, 3)).isCloseTo(3.1824463052837078, within(3e-12));
        assertThat(Distributions.tQuantile(0.975, 10)).isCloseTo(2.228138851986274, within(2e-12));
        assertThat(Distributions.tQuantile(0.95, 5)).isCloseTo(2.0150483733330233, within(2e-12));
        assertThat(Distributions.tQuantile(0.99, 20)).isCloseTo(2.527977002741573, within(3e-12));
        assertThat(Distributions.tQuantile(0.999999999, 98)).isCloseTo(6.612240700199182, within(1e-8));
        assertThat(Distributions.tQuantile(0.5, 7)).isZero();
    }
}
