package io.perflab.stats;

import static io.perflab.stats.Tolerance.assertAbsolute;
import static io.perflab.stats.Tolerance.assertRelative;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class GroupSequentialTests {

    private static final double[] FIVE_EQUAL = {0.2, 0.4, 0.6, 0.8, 1.0};

    private static double[] z(List<SequentialBoundary> boundaries) {
        return boundaries.stream().mapToDouble(SequentialBoundary::z).toArray();
    }

    @Test
    void obrienFlemingSpendingMatchesPublishedBoundaries() {
        // Lan-DeMets O'Brien-Fleming type spending, K = 5 equally spaced looks, two-sided alpha = 0.05:
        // 4.877, 3.357, 2.680, 2.290, 2.031 (D. M. Reboussin, D. L. DeMets, K. Kim, K. K. G. Lan (2000),
        // Computations for group sequential boundaries using the Lan-DeMets spending function method, Controlled
        // Clinical Trials 21, the example of ld98 repeated in R package ldbounds' ldBounds(5)); gsDesign's sfLDOF
        // with test.type = 2, alpha = 0.025 gives the same
        double[] published = {4.877, 3.357, 2.680, 2.290, 2.031};
        double[] z = z(GroupSequential.boundaries(SpendingFunction.OBRIEN_FLEMING, 0.05, FIVE_EQUAL));
        for (int k = 0; k < 5; k++) {
            assertAbsolute(published[k], z[k], 5e-4, "look " + (k + 1));
        }
        // R 4.2.2 with ldbounds 2.0.2: ldBounds(5)$upper.bounds; its own integration is accurate to about 1e-4
        // (its second boundary is 6.6e-5 below the exact one of sequential.txt)
        double[] ldbounds = {4.876884949, 3.356946291, 2.680258430, 2.289788675, 2.030998253};
        for (int k = 0; k < 5; k++) {
            assertAbsolute(ldbounds[k], z[k], 1e-4, "look " + (k + 1) + " against ldbounds");
        }
    }

    @Test
    void firstThreeLooksMatchDirectIntegration() throws IOException {
        // src/test/resources/stats/sequential.txt: base R 4.2.2 integrate() of the joint distribution of
        // (Z1, Z2, Z3) at t = 0.2, 0.4, 0.6 and uniroot(), written by sequential_reference.R
        try (InputStream in = getClass().getResourceAsStream("/stats/sequential.txt")) {
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (line.startsWith("#")) {
                    continue;
                }
                String[] w = line.trim().split(" ");
                SpendingFunction spending = SpendingFunction.valueOf(w[0]);
                double[] z = z(GroupSequential.boundaries(spending, 0.05, new double[] {0.2, 0.4, 0.6}));
                for (int k = 0; k < 3; k++) {
                    assertRelative(Double.parseDouble(w[k + 1]), z[k], 1e-7, spending + " look " + (k + 1));
                }
            }
        }
    }

    @Test
    void pocockSpendingMatchesLdbounds() {
        // R 4.2.2 with ldbounds 2.0.2: ldBounds(5, iuse = 2)$upper.bounds (Lan-DeMets Pocock type,
        // alpha * log(1 + (e - 1) t)), K = 5 equally spaced looks, two-sided alpha = 0.05; to ldbounds' accuracy
        double[] ldbounds = {2.437976688, 2.426773493, 2.410139876, 2.396580003, 2.385906320};
        double[] z = z(GroupSequential.boundaries(SpendingFunction.POCOCK, 0.05, FIVE_EQUAL));
        for (int k = 0; k < 5; k++) {
            assertAbsolute(ldbounds[k], z[k], 1e-4, "look " + (k + 1));
        }
    }

    @Test
    void classicalBoundariesMatchJennisonTurnbull() {
        // C. Jennison, B. W. Turnbull (2000), Group Sequential Methods with Applications to Clinical Trials,
        // Table 2.1: Pocock's C_P(5, 0.05) = 2.413 (also S. J. Pocock (1977), Biometrika 64, Table 1), and
        // Table 2.3: O'Brien & Fleming's C_B(5, 0.05) = 2.040, i.e. boundaries 4.562, 3.226, 2.634, 2.281, 2.040
        assertAbsolute(2.413, GroupSequential.pocockConstant(5, 0.05), 5e-4, "C_P(5, 0.05)");
        double cb = GroupSequential.obrienFlemingConstant(5, 0.05);
        double[] published = {4.562, 3.226, 2.634, 2.281, 2.040};
        for (int k = 0; k < 5; k++) {
            assertAbsolute(published[k], cb * Math.sqrt(5.0 / (k + 1)), 5e-4, "O'Brien-Fleming look " + (k + 1));
        }
        // one look is the fixed-sample test: z(0.975)
        assertRelative(1.959963984540054, GroupSequential.pocockConstant(1, 0.05), 1e-10, "one look");
        // Jennison & Turnbull Table 2.1, C_P(2, 0.05) = 2.178; Table 2.3, C_B(2, 0.05) = 1.977
        assertAbsolute(2.178, GroupSequential.pocockConstant(2, 0.05), 5e-4, "C_P(2, 0.05)");
        assertAbsolute(1.977, GroupSequential.obrienFlemingConstant(2, 0.05), 5e-4, "C_B(2, 0.05)");
    }

    @Test
    void boundariesSpendExactlyTheIncrements() {
        // the exit probabilities under H0 of the computed boundaries give back the spending function's increments
        double[] fractions = {0.1, 0.25, 0.3, 0.55, 0.7, 0.85, 1.0};
        List<SequentialBoundary> b = GroupSequential.boundaries(SpendingFunction.OBRIEN_FLEMING, 0.05, fractions);
        double[] exit = GroupSequential.exitProbabilities(fractions, z(b));
        double spent = 0;
        for (int k = 0; k < fractions.length; k++) {
            spent += exit[k];
            assertRelative(SpendingFunction.OBRIEN_FLEMING.spent(0.05, fractions[k]), spent, 1e-8,
                    "cumulative alpha at look " + (k + 1));
            assertRelative(b.get(k).alphaSpent(), spent, 1e-8, "reported alpha at look " + (k + 1));
        }
        assertRelative(0.05, spent, 1e-9, "total");
    }

    @Test
    void manyLooksStayAccurate() {
        // 40 looks, one per pair: the error spent still adds up to alpha; R 4.2.2 with ldbounds 2.0.2,
        // ldBounds((1:40) / 40)$upper.bounds ends 2.2113493, 2.1826120, 2.1549667 (ldbounds' grid is coarser:
        // its boundaries are within about 1e-4 of the exact ones, see obrienFlemingSpendingMatchesPublishedBoundaries)
        double[] fractions = new double[40];
        for (int k = 0; k < 40; k++) {
            fractions[k] = (k + 1) / 40.0;
        }
        double[] z = z(GroupSequential.boundaries(SpendingFunction.OBRIEN_FLEMING, 0.05, fractions));
        double total = 0;
        for (double p : GroupSequential.exitProbabilities(fractions, z)) {
            total += p;
        }
        assertRelative(0.05, total, 1e-7, "total alpha");
        double[] ldbounds = {2.2113493, 2.1826120, 2.1549667};
        for (int k = 0; k < 3; k++) {
            assertAbsolute(ldbounds[k], z[37 + k], 2e-4, "look " + (38 + k));
        }
    }

    /**
     * Non-binding futility bounds spend β under the alternative as asked: simulated paths of the score with that
     * drift, stopped at the efficacy boundaries and the futility bounds, stop for futility by each look with the
     * cumulative β (within 4 Monte Carlo standard errors); under H₀ the same test rejects no more often than the
     * efficacy boundaries alone allow (α), the futility stops only taking chances away.
     */
    @Test
    void futilityBoundsSpendBetaUnderTheAlternative() {
        double[] information = {2, 5, 9, 14, 20};
        double[] fractions = Arrays.stream(information).map(i -> i / 20).toArray();
        double[] efficacy = z(GroupSequential.boundaries(SpendingFunction.OBRIEN_FLEMING, 0.05, fractions));
        double drift = 0.7;
        double[] beta = Arrays.stream(fractions).map(t -> 0.1 * t * t).toArray();
        double[] futility = GroupSequential.futilityBounds(information, efficacy, drift, beta);

        assertThat(futility[0]).as("little to spend at the first look").isLessThan(futility[1]);
        int paths = 200_000;
        Random random = new Random(20261206);
        long[] futile = new long[5];
        long rejected = 0;
        for (int p = 0; p < paths; p++) {
            // the same increments with the drift and without it (H0)
            double alternative = 0;
            double nothing = 0;
            double before = 0;
            boolean running = true;
            boolean runningNull = true;
            for (int k = 0; k < 5; k++) {
                double step = Math.sqrt(information[k] - before) * random.nextGaussian();
                alternative += step + drift * (information[k] - before);
                nothing += step;
                before = information[k];
                double z = Math.abs(alternative) / Math.sqrt(information[k]);
                if (running && z >= efficacy[k]) {
                    running = false;
                } else if (running && z < futility[k]) {
                    running = false;
                    futile[k]++;
                }
                double z0 = Math.abs(nothing) / Math.sqrt(information[k]);
                if (runningNull && z0 >= efficacy[k]) {
                    runningNull = false;
                    rejected++;
                } else if (runningNull && z0 < futility[k]) {
                    runningNull = false;
                }
            }
        }
        long cumulative = 0;
        for (int k = 0; k < 5; k++) {
            cumulative += futile[k];
            double expected = beta[k];
            double se = Math.sqrt(expected * (1 - expected) / paths);
            assertAbsolute(expected, (double) cumulative / paths, Math.max(4 * se, 1e-4), "β by look " + (k + 1));
        }
        assertThat((double) rejected / paths).as("type I error with the futility stops")
                .isLessThan(0.05 + 4 * Math.sqrt(0.05 * 0.95 / paths));
    }

    /** Nothing to spend gives no futility bound; a bound never passes the efficacy boundary of its look. */
    @Test
    void futilityBoundsAreZeroWithoutBetaAndAtMostTheEfficacyBoundary() {
        double[] information = {1, 2, 3};
        double[] efficacy = {Double.POSITIVE_INFINITY, 2.5, 2.0};
        assertThat(GroupSequential.futilityBounds(information, efficacy, 1, new double[] {0, 0, 0}))
                .containsExactly(0, 0, 0);
        // no drift, the first look without an efficacy boundary: P(|Z| < b) = 0.2 gives b = Φ⁻¹(0.6)
        double[] greedy = GroupSequential.futilityBounds(information, efficacy, 0, new double[] {0.2, 0.999, 0.9995});
        assertAbsolute(0.2533471031357997, greedy[0], 1e-9, "the first look's bound");
        assertThat(greedy[1]).as("more asked than the paths below c hold").isEqualTo(2.5);
        assertThatThrownBy(() -> GroupSequential.futilityBounds(information, efficacy, -1, new double[3]))
                .hasMessageContaining("drift");
        assertThatThrownBy(() -> GroupSequential.futilityBounds(information, efficacy, 1, new double[] {0, 1, 1}))
                .hasMessageContaining("cumulative β");
    }

    @Test
    void spendingFunctionsAreAsPublished() {
        // gsDesign sfLDOF(alpha = 0.025, t): 2 - 2 pnorm(qnorm(1 - 0.0125) / sqrt(t)) per tail, doubled
        double perTail = 2 * (1 - new org.apache.commons.math3.distribution.NormalDistribution()
                .cumulativeProbability(2.241402727604947 / Math.sqrt(0.2)));
        assertRelative(2 * perTail, SpendingFunction.OBRIEN_FLEMING.spent(0.05, 0.2), 1e-6, "OBF at 0.2");
        assertRelative(0.05 * Math.log(1 + (Math.E - 1) * 0.5), SpendingFunction.POCOCK.spent(0.05, 0.5), 1e-15,
                "Pocock at 0.5");
        assertThat(SpendingFunction.OBRIEN_FLEMING.spent(0.05, 1)).isEqualTo(0.05);
        assertThat(SpendingFunction.POCOCK.spent(0.05, 0)).isZero();
        assertThatThrownBy(() -> SpendingFunction.POCOCK.spent(0.05, 1.5)).hasMessageContaining("[0, 1]");
        assertThatThrownBy(() -> GroupSequential.boundaries(SpendingFunction.POCOCK, 0.05, new double[] {0.5, 0.4}))
                .hasMessageContaining("increasing");
    }

    @Test
    void stagewiseEstimateOfASingleLookIsTheFixedSampleOne() {
        double[] e = GroupSequential.stagewiseEstimate(new double[] {1}, new double[0], 2.3, 0.95);

        assertAbsolute(2.3 - 1.959963984540054, e[0], 1e-8, "lower end");
        assertAbsolute(2.3, e[1], 1e-8, "median-unbiased estimate");
        assertAbsolute(2.3 + 1.959963984540054, e[2], 1e-8, "upper end");
    }

    @Test
    void stagewiseProbabilityMatchesDirectIntegrationOverTwoLooks() {
        // P(Z1 ≥ c1) + P(|Z1| < c1, Z2 ≥ z), for Z1 = S1/√I1, Z2 = S2/√I2 and S with independent increments of
        // mean θ·ΔI and variance ΔI, integrated here over Z1 by Simpson's rule on 20,000 intervals; the recursion's
        // grid of 12 points per standard deviation holds it to below 5e-7 (1e-6 of η at the estimate)
        double[] information = {0.4, 1.0};
        double c1 = 2.9626;
        for (double drift : new double[] {-1.5, 0, 0.8, 2.5, 4}) {
            for (double z : new double[] {-1.2, 0.3, 2.1, 3.5}) {
                int intervals = 20_000;
                double h = 2 * c1 / intervals;
                double sum = 0;
                for (int i = 0; i <= intervals; i++) {
                    double x = -c1 + i * h;
                    double s1 = x * Math.sqrt(information[0]);
                    double f = Math.exp(-0.5 * Math.pow(x - drift * Math.sqrt(information[0]), 2))
                            / Math.sqrt(2 * Math.PI) * Distributions.normalUpper((z * Math.sqrt(information[1]) - s1
                            - drift * (information[1] - information[0])) / Math.sqrt(information[1] - information[0]));
                    sum += f * (i == 0 || i == intervals ? 1 : (i % 2 == 1 ? 4 : 2));
                }
                double direct = Distributions.normalUpper(c1 - drift * Math.sqrt(information[0])) + sum * h / 3;

                assertAbsolute(direct, GroupSequential.stagewiseUpper(information, new double[] {c1}, z, drift), 5e-7,
                        "θ = " + drift + ", z = " + z);
            }
        }
    }

    /**
     * Experiments of three looks with O'Brien–Fleming-type boundaries and a true effect that stops about half of them
     * early: the estimate at the stop overshoots the effect more often than not, the stage-wise median-unbiased
     * estimate does not, and its intervals cover the effect 95 % of the time.
     */
    @Test
    void stagewiseEstimateIsMedianUnbiasedAndItsIntervalCoversAfterEarlyStops() {
        double[] information = {1.0 / 3, 2.0 / 3, 1.0};
        double[] c = z(GroupSequential.boundaries(SpendingFunction.OBRIEN_FLEMING, 0.05, information));
        double theta = 3;
        Random random = new Random(20261206);
        int experiments = 600;
        int naiveAbove = 0;
        int adjustedAbove = 0;
        int covered = 0;
        int early = 0;
        for (int e = 0; e < experiments; e++) {
            double s = 0;
            int k = 0;
            double zk;
            while (true) {
                double step = information[k] - (k == 0 ? 0 : information[k - 1]);
                s += theta * step + Math.sqrt(step) * random.nextGaussian();
                zk = s / Math.sqrt(information[k]);
                if (Math.abs(zk) >= c[k] || k == information.length - 1) {
                    break;
                }
                k++;
            }
            early += k < information.length - 1 ? 1 : 0;
            double root = Math.sqrt(information[k]);
            double[] eta = GroupSequential.stagewiseEstimate(Arrays.copyOf(information, k + 1), c, zk, 0.95);
            naiveAbove += zk / root > theta ? 1 : 0;
            adjustedAbove += eta[1] / root > theta ? 1 : 0;
            covered += eta[0] / root <= theta && theta <= eta[2] / root ? 1 : 0;
        }

        assertThat(early).as("early stops").isBetween(200, 400);
        assertThat(naiveAbove).as("naive estimates above the effect").isGreaterThan(experiments * 58 / 100);
        assertThat(adjustedAbove).as("median-unbiased estimates above the effect")
                .isBetween(experiments * 45 / 100, experiments * 55 / 100);
        assertThat(covered).as("stage-wise intervals covering the effect")
                .isBetween(experiments * 93 / 100, experiments * 97 / 100);
    }
}
