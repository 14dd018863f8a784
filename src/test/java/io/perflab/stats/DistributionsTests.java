package io.perflab.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
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
    void normalQuantilesKeepTheirDigitsFarBeyondWhereErfInverseGivesOut() {
        // erf⁻¹(2p − 1) returns −∞ below p ≈ 1e-17 (2p − 1 rounds to −1); the quantile there comes from the tail's
        // asymptotic start, polished on ln Φ, and Φ (from erfc, another path) must give p back
        double[] ps = {1e-14, 9.99e-16, 1e-15, 1.001e-15, 1e-16, 3e-17, 1e-17, 1e-20, 1e-50, 1e-100, 1e-200, 1e-300};
        double previous = Double.NEGATIVE_INFINITY;
        for (double p : Arrays.stream(ps).sorted().toArray()) {
            double q = Distributions.normalQuantile(p);
            assertThat(q).as("qnorm(%s)", p).isFinite().isGreaterThan(previous);
            // one ulp of q moves ln Φ(q) by about |q|·ulp(q)
            double tolerance = p * (1e-14 + 4 * q * q * Math.ulp(1.0));
            assertThat(Distributions.normalLower(q)).as("pnorm(qnorm(%s))", p).isCloseTo(p, within(tolerance));
            previous = q;
        }
        // the root of Φ(q) = p at 60 digits (mpmath): −9.2623400897984075737, −14.933337534788488981,
        // −37.047096299361199237
        assertThat(Distributions.normalQuantile(1e-20)).isCloseTo(-9.2623400897984075737, within(1e-14 * 9.27));
        assertThat(Distributions.normalQuantile(1e-50)).isCloseTo(-14.933337534788488981, within(1e-14 * 14.94));
        assertThat(Distributions.normalQuantile(1e-300)).isCloseTo(-37.047096299361199237, within(1e-14 * 37.05));
        assertThat(Distributions.normalQuantile(0)).isEqualTo(Double.NEGATIVE_INFINITY);
        assertThat(Distributions.normalQuantile(1)).isEqualTo(Double.POSITIVE_INFINITY);
    }

    @Test
    void tUpperTailsKeepTheirDigitsWhereTIsSmallBesideItsDegreesOfFreedom() {
        // {t, df, pt(t, df, lower.tail = FALSE)} by R 4.2.2, printed with %.17g; where t² ≤ df the tail was
        // ½ − ½·I(½, ν/2), which lost a digit per factor of ten below ½ (ν = 1000, t = 10 came out as 0)
        double[][] cases = {
            {0.5, 2, 0.33333333333333337},
            {1, 2, 0.21132486540518713},
            {1.5, 2, 0.13619656244550046},
            {2, 2, 0.091751709536136955},
            {3, 2, 0.047732983133354563},
            {5, 2, 0.018874775675311862},
            {8, 2, 0.0076340360826690698},
            {10, 2, 0.0049262285116628462},
            {20, 2, 0.0012453319461835485},
            {0.5, 5, 0.31914943582046451},
            {1, 5, 0.18160873382456127},
            {1.5, 5, 0.096951840121236574},
            {2, 5, 0.05096973941492914},
            {3, 5, 0.015049623948731284},
            {5, 5, 0.0020523579900266612},
            {8, 5, 0.00024645333028622187},
            {10, 5, 8.5473787871481787e-05},
            {20, 5, 2.8877581866120836e-06},
            {0.5, 10, 0.31394680287148646},
            {1, 10, 0.17044656615103004},
            {1.5, 10, 0.082253663222720083},
            {2, 10, 0.036694017385370196},
            {3, 10, 0.006671827511284794},
            {5, 10, 0.00026866680137822624},
            {8, 10, 5.8874713948330681e-06},
            {10, 10, 7.9477658779820508e-07},
            {20, 10, 1.0730311586021232e-09},
            {0.5, 30, 0.31036150244256366},
            {1, 30, 0.16265430771301492},
            {1.5, 30, 0.072032964564323038},
            {2, 30, 0.02731252248149155},
            {3, 30, 0.0026949820328259705},
            {5, 30, 1.1648342733503893e-05},
            {8, 30, 3.1329112378503861e-09},
            {10, 30, 2.2876257041148048e-11},
            {20, 30, 3.3745418328856423e-19},
            {0.5, 100, 0.30908678291544334},
            {1, 100, 0.15986207789206186},
            {1.5, 100, 0.068382529062344447},
            {2, 100, 0.024106089365566834},
            {3, 100, 0.0017039576716647252},
            {5, 100, 1.225086706751898e-06},
            {8, 100, 1.1364324038640401e-12},
            {10, 100, 4.9508444922970468e-17},
            {20, 100, 4.9971339306684723e-37},
            {0.5, 1000, 0.30859254041693751},
            {1, 1000, 0.15877620904233633},
            {1.5, 1000, 0.066965019411043103},
            {2, 1000, 0.022885173246625829},
            {3, 1000, 0.001383354522119095},
            {5, 1000, 3.3836281823243068e-07},
            {8, 1000, 1.7133307411957424e-15},
            {10, 1000, 8.3353514793000405e-23},
            {20, 1000, 2.0311442497624919e-75},
            {0.5, 10000, 0.30854303966161667},
            {1, 10000, 0.15866735216521471},
            {1.5, 10000, 0.066822985911809837},
            {2, 10000, 0.022763630330717734},
            {3, 10000, 0.0013532240949988327},
            {5, 10000, 2.9151633068313211e-07},
            {8, 10000, 6.9106043645326545e-16},
            {10, 10000, 9.8164037143320108e-24},
            {20, 10000, 1.3823262932703463e-87},
            {0.5, 1000000, 0.30853759373618583},
            {1, 1000000, 0.15865537491678908},
            {1.5, 1000000, 0.066807359118396414},
            {2, 1000000, 0.022750266925659592},
            {3, 1000000, 0.0013499312707108962},
            {5, 1000000, 2.8669989354453676e-07},
            {8, 1000000, 6.2275317166012665e-16},
            {10, 1000000, 7.6393053840891504e-24},
            {20, 1000000, 2.8665435236952241e-89}
        };
        for (double[] c : cases) {
            // for ν = 10⁶ Commons Math's continued fraction itself is good to a few parts in 1e11
            double tolerance = (c[1] > 1e5 ? 1e-10 : 1e-12) * c[2];
            assertThat(Distributions.tUpper(c[0], c[1])).as("pt(%s, %s, lower.tail = FALSE)", c[0], c[1])
                    .isCloseTo(c[2], within(tolerance));
            assertThat(Distributions.tLower(-c[0], c[1])).isCloseTo(c[2], within(tolerance));
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
