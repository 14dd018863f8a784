package io.perflab.stats;

import static io.perflab.stats.Tolerance.assertRelative;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class SequentialPlanTests {

    private static final int[] FIVE_LOOKS = {4, 8, 12, 16, 20};

    /** The t boundaries of the plan at each of the looks (they do not depend on the data). */
    private static double[] tBoundaries(SequentialPlan plan, int[] looks) {
        double[] anyValues = new double[looks[looks.length - 1]];
        for (int i = 0; i < anyValues.length; i++) {
            anyValues[i] = i % 3;
        }
        double[] bounds = new double[looks.length];
        for (int k = 0; k < looks.length; k++) {
            bounds[k] = plan.look(Arrays.copyOf(looks, k + 1), anyValues, false).tBoundary();
        }
        return bounds;
    }

    /**
     * The share of null experiments (normal pair values with mean 0) that some look declares significant, with the
     * given t boundaries at the given looks.
     */
    private static double falsePositiveRate(int[] looks, double[] bounds, int experiments, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        int rejected = 0;
        int n = looks[looks.length - 1];
        double[] x = new double[n];
        for (int e = 0; e < experiments; e++) {
            for (int i = 0; i < n; i++) {
                x[i] = random.nextGaussian();
            }
            double sum = 0;
            double sumSquares = 0;
            int done = 0;
            for (int k = 0; k < looks.length; k++) {
                for (; done < looks[k]; done++) {
                    sum += x[done];
                    sumSquares += x[done] * x[done];
                }
                double mean = sum / done;
                double sd = Math.sqrt((sumSquares - done * mean * mean) / (done - 1));
                if (Math.abs(mean / (sd / Math.sqrt(done))) >= bounds[k]) {
                    rejected++;
                    break;
                }
            }
        }
        return (double) rejected / experiments;
    }

    @Test
    void keepsAlphaUnderTheNullAndLooksWithoutBoundariesDoNot() {
        // 20000 seeded A/A experiments of up to 20 pairs, looked at after 4, 8, 12, 16 and 20 pairs. With the
        // O'Brien-Fleming-type boundaries on the t scale the false-positive rate stays at alpha = 0.05 (binomial
        // sd 0.0015); testing each look at p < 0.05 instead inflates it to about 0.14 (Armitage, McPherson and
        // Rowe 1969 give 0.142 for five looks with known variance). The t-scale boundaries are an approximation:
        // 3 x 100000 runs of this simulation measured 0.052 (O'Brien-Fleming) and 0.055 (Pocock, which spends
        // more at the 4-pair look with 3 degrees of freedom) against 0.050 for one look at 20 pairs.
        int experiments = 20_000;
        SequentialPlan plan = SequentialPlan.of(0.05, 20);
        double obf = falsePositiveRate(FIVE_LOOKS, tBoundaries(plan, FIVE_LOOKS), experiments, 15);
        double pocock = falsePositiveRate(FIVE_LOOKS,
                tBoundaries(plan.withSpending(SpendingFunction.POCOCK), FIVE_LOOKS), experiments, 15);
        double[] naive = new double[FIVE_LOOKS.length];
        for (int k = 0; k < naive.length; k++) {
            naive[k] = Distributions.tUpperQuantile(0.025, FIVE_LOOKS[k] - 1.0);
        }
        double unadjusted = falsePositiveRate(FIVE_LOOKS, naive, experiments, 15);
        assertThat(obf).isBetween(0.045, 0.056);
        assertThat(pocock).isBetween(0.045, 0.061);
        assertThat(unadjusted).isBetween(0.12, 0.16);
    }

    @Test
    void oneLookAtTheEndIsTheFixedSampleTest() {
        // a single look at the last pair spends all of alpha: the boundary is qt(0.975, 7) and the repeated interval
        // is t.test(r)$conf.int of R 4.2.2 (paired_windows.txt, design balanced, the first design)
        double[] r = {-0.01278151610546285, -0.03241881509401702, -0.039783167675408994, -0.029000992532372281,
            -0.032876363444252092, -0.030693241889660237, -0.016465020491473789, -0.026105788744763866};
        SequentialLook look = SequentialPlan.of(0.05, 8).look(new int[] {8}, r, false);
        assertRelative(2.3646242515927844, look.tBoundary(), 1e-10, "qt(0.975, 7)");
        assertRelative(-0.034971631864563688, look.ciLow(), 1e-10, "ciLow");
        assertRelative(-0.020059594629789089, look.ciHigh(), 1e-10, "ciHigh");
        assertRelative(-8.7263846458205894, look.t(), 1e-12, "t");
        assertRelative(-3.4367190928667397, look.relativeChange().ciLowPercent(), 1e-9, "percent low");
        assertThat(look.outcome()).isEqualTo(SequentialLook.Outcome.SIGNIFICANT);
        assertThat(look.stop()).isTrue();

        PairedAnalysis analysis = PairedAnalysis.analyze(PairedAnalysisTests.designs().get(0).pairs(),
                ComparisonOptions.defaults());
        SequentialLook fromAnalysis = SequentialPlan.of(0.05, 8).look(new int[] {8}, analysis, false);
        assertThat(fromAnalysis.ciLow()).isEqualTo(look.ciLow());
        assertThat(fromAnalysis.relativeChange()).isEqualTo(look.relativeChange());
        // with no earlier look, the estimate adjusted for stopping is the mean and its interval t.test's
        RelativeChange adjusted = look.stagewise(0.95);
        assertRelative(look.relativeChange().percent(), adjusted.percent(), 1e-7, "adjusted estimate");
        assertRelative(-3.4367190928667397, adjusted.ciLowPercent(), 1e-7, "adjusted low");
        assertRelative(look.relativeChange().ciHighPercent(), adjusted.ciHighPercent(), 1e-7, "adjusted high");
    }

    @Test
    void theEstimateAdjustedForStoppingHoldsForStatisticsFarInTheTail() {
        // a nearly deterministic metric (allocation per call, a command's count) gives t in the millions; its tail
        // probability is below 1e-16, where the normal quantile once came out as −∞ and the adjustment threw
        for (double spread : new double[] {1e-4, 1e-7, 1e-10}) {
            double[] r = new double[20];
            for (int i = 0; i < r.length; i++) {
                r[i] = 0.02 + spread * (i % 2 == 0 ? 1 : -1);
            }
            for (int pairs : new int[] {3, 5, 20}) {
                SequentialLook look = SequentialPlan.of(0.05, 20).look(new int[] {pairs}, r, false);
                RelativeChange adjusted = look.stagewise(0.95);
                assertThat(adjusted.percent()).as("spread %s, %d pairs", spread, pairs)
                        .isCloseTo(look.relativeChange().percent(), within(1e-6));
                assertThat(adjusted.ciLowPercent()).isLessThanOrEqualTo(adjusted.percent());
                assertThat(adjusted.ciHighPercent()).isGreaterThanOrEqualTo(adjusted.percent()).isFinite();
            }
        }
        // beyond the smallest double the adjustment is NaN, as documented, rather than infinite or thrown
        double[] exact = new double[100];
        for (int i = 0; i < exact.length; i++) {
            exact[i] = 0.02 + 1e-9 * (i % 2 == 0 ? 1 : -1);
        }
        SequentialLook far = SequentialPlan.of(0.05, 100).look(new int[] {100}, exact, false);
        assertThat(far.stagewise(0.95).percent()).isNaN();
    }

    @Test
    void anEarlyStopOnALargeEstimateIsAdjustedTowardsNoChange() {
        // the first of the seeded experiments (a +2 % change, pairs spread 3 %) that the rule, looking after every
        // pair, stops as significant before its last pair but not at its first look
        SequentialPlan plan = SequentialPlan.of(0.05, 20);
        for (int seed = 1; seed <= 200; seed++) {
            SplittableRandom random = new SplittableRandom(seed);
            double[] r = new double[20];
            for (int i = 0; i < r.length; i++) {
                r[i] = Math.log1p(0.02) + 0.03 * random.nextGaussian();
            }
            int[] looks = new int[0];
            for (int n = 2; n <= 20; n++) {
                looks = Arrays.copyOf(looks, looks.length + 1);
                looks[looks.length - 1] = n;
                SequentialLook look = plan.look(looks, r, false);
                if (look.stop()) {
                    if (look.outcome() == SequentialLook.Outcome.SIGNIFICANT && look.look() > 1 && n < 20) {
                        RelativeChange adjusted = look.stagewise(0.95);
                        assertThat(adjusted.percent()).as("seed %d, look %d", seed, look.look())
                                .isLessThan(look.relativeChange().percent()).isGreaterThan(0);
                        assertThat(adjusted.ciLowPercent()).isLessThan(adjusted.percent());
                        assertThat(adjusted.ciHighPercent()).isGreaterThan(adjusted.percent());
                        return;
                    }
                    break;
                }
            }
        }
        fail("none of 200 experiments stopped early");
    }

    /**
     * A change large against its spread stops at the first looks, with 2–5 degrees of freedom. The adjustment made
     * its shift on the normal scale and took the median back through the t distribution's tail, which at so few
     * degrees of freedom stretched a fraction of a standard error into tens of them: +10 % stopped at 4 pairs came
     * out as +7.4 % [+6.4, +8.4], and 61–67 % of the intervals held the change. Over 120 seeded experiments of each
     * change (looks after every pair from the second, as ab looks), the adjusted estimates are now centred on it, and
     * their intervals hold it as often as the t intervals that ignore the looks (92–93 %: a stop at so few pairs
     * picks samples whose spread came out small, which no shift of the estimate undoes; the repeated interval holds
     * it in all). Changes that stop later, at more degrees of freedom, are the other tests'.
     */
    @Test
    void aDecisiveEarlyStopKeepsItsEstimateCentredAndItsIntervalsCoverage() {
        for (double[] effect : new double[][] {{0.10, 0.01}, {0.10, 0.005}, {0.30, 0.02}}) {
            SequentialPlan plan = SequentialPlan.of(0.05, 20);
            double truth = 100 * effect[0];
            int stopped = 0;
            int covered = 0;
            int coveredIgnoringLooks = 0;
            int below = 0;
            for (int seed = 1; seed <= 120; seed++) {
                SplittableRandom random = new SplittableRandom(seed);
                double[] r = new double[20];
                for (int i = 0; i < r.length; i++) {
                    r[i] = Math.log1p(effect[0]) + effect[1] * random.nextGaussian();
                }
                int[] looks = new int[0];
                for (int n = 2; n <= 20; n++) {
                    looks = Arrays.copyOf(looks, looks.length + 1);
                    looks[looks.length - 1] = n;
                    SequentialLook look = plan.look(looks, r, false);
                    if (look.outcome() == SequentialLook.Outcome.SIGNIFICANT) {
                        RelativeChange adjusted = look.stagewise(0.95);
                        stopped++;
                        covered += adjusted.ciLowPercent() <= truth && truth <= adjusted.ciHighPercent() ? 1 : 0;
                        below += adjusted.percent() < truth ? 1 : 0;
                        double q = Distributions.tUpperQuantile(0.025, look.df());
                        coveredIgnoringLooks += 100 * Math.expm1(look.estimate() - q * look.stdErr()) <= truth
                                && truth <= 100 * Math.expm1(look.estimate() + q * look.stdErr()) ? 1 : 0;
                        break;
                    }
                    if (look.stop()) {
                        break;
                    }
                }
            }
            String what = "+" + truth + " %, pairs spread " + effect[1];
            assertThat(stopped).as(what).isEqualTo(120);
            assertThat(covered).as("intervals holding the change, " + what)
                    .isGreaterThanOrEqualTo(coveredIgnoringLooks - 3).isGreaterThan((int) (0.85 * stopped));
            assertThat((double) below / stopped).as("estimates below the change, " + what).isBetween(0.4, 0.6);
        }
    }

    @Test
    void stopsOnALargeEffectEarlyAndWidensTheIntervalForTheLooks() {
        double[] r = new double[40];
        SplittableRandom random = new SplittableRandom(3);
        for (int i = 0; i < r.length; i++) {
            r[i] = -0.05 + 0.005 * random.nextGaussian();
        }
        SequentialPlan plan = SequentialPlan.of(0.05, 40);
        SequentialLook first = plan.look(new int[] {8}, r, false);
        assertThat(first.outcome()).isEqualTo(SequentialLook.Outcome.SIGNIFICANT);
        // the boundary of an early look is far above the fixed-sample t quantile, and so is the interval's width
        assertThat(first.tBoundary()).isGreaterThan(Distributions.tUpperQuantile(0.025, 7) * 2);
        assertThat(first.ciHigh()).isLessThan(0);
        assertThat(first.boundaries()).hasSize(1);
        assertThat(first.informationFraction()).isEqualTo(0.2);
    }

    @Test
    void stopsForPrecisionWithoutASignificantChange() {
        double[] r = new double[30];
        SplittableRandom random = new SplittableRandom(5);
        for (int i = 0; i < r.length; i++) {
            r[i] = 0.002 * random.nextGaussian();
        }
        SequentialPlan plan = SequentialPlan.of(0.05, 30).withTargetHalfWidthPercent(0.5);
        int[] looks = {5, 10, 15, 20};
        SequentialLook look = null;
        for (int k = 1; k <= looks.length; k++) {
            look = plan.look(Arrays.copyOf(looks, k), r, false);
            if (look.stop()) {
                break;
            }
        }
        assertThat(look.outcome()).isEqualTo(SequentialLook.Outcome.PRECISE_ENOUGH);
        assertThat(look.halfWidthPercent()).isLessThanOrEqualTo(0.5);
        assertThat(look.relativeChange().ciLowPercent()).isLessThan(0);
        assertThat(look.relativeChange().ciHighPercent()).isGreaterThan(0);
    }

    /**
     * The futility stop of a smallest change d: seeded experiments of at most 20 normal pairs (SD 1, unknown to the
     * plan), looked at after 4, 8, 12, 16 and 20 pairs (futile from 12 on), with d the change a fixed 20-pair test
     * finds 90 % of the time (log(1 + d) = 3.24 / √20). Where nothing changed, the false-positive rate stays at α
     * (the bounds are non-binding; binomial sd 0.007) and most experiments end early as futile. Where d is the
     * change, the same experiments without the stop are the reference: the stop costs about the share of β spent
     * before the last look that would have gone on to reject (β*(0.8) = 0.066 is spent by the fourth look), a few
     * points of power, not more.
     */
    @Test
    void aFutilityStopEndsExperimentsWithoutAChangeEarlyKeepingAlphaAndMostOfThePower() {
        double shift = 3.24 / Math.sqrt(20);
        SequentialPlan without = SequentialPlan.of(0.05, 20);
        SequentialPlan plan = without.withSmallestChangePercent(100 * Math.expm1(shift));
        int experiments = 1000;
        int[] nothing = simulate(plan, 0, experiments, 41);
        int[] change = simulate(plan, shift, experiments, 42);
        int[] reference = simulate(without, shift, experiments, 42);

        org.assertj.core.api.SoftAssertions.assertSoftly(softly -> {
            softly.assertThat((double) nothing[0] / experiments).as("false positives").isLessThan(0.056);
            softly.assertThat((double) nothing[1] / experiments).as("ended futile before the last look")
                    .isGreaterThan(0.6);
            softly.assertThat((double) nothing[2] / experiments).as("mean pairs where nothing changed")
                    .isLessThan(15.5);
            softly.assertThat((double) reference[0] / experiments).as("power at d without the stop")
                    .isBetween(0.84, 0.90);
            softly.assertThat((double) (reference[0] - change[0]) / experiments).as("power the stop costs at d")
                    .isBetween(0.0, 0.06);
            softly.assertThat((double) change[2] / experiments).as("mean pairs at d")
                    .isLessThan((double) reference[2] / experiments);
        });
    }

    /**
     * A look's futility bound for |t| is the normal bound b<sub>k</sub> of {@link GroupSequential#futilityBounds} at
     * the same tail probability on the look's degrees of freedom, below the efficacy boundary; and it is the bound
     * the rule decides by: pairs whose |t| is a hair below it are futile, a hair above it go on. (Shifting the pairs
     * moves t and leaves their SD, and so the bound, as it was.) Looks before the tenth pair, and the last, have none.
     */
    @Test
    void aLooksFutilityBoundIsTheOneItsRuleDecidesBy() {
        SplittableRandom random = new SplittableRandom(7);
        double[] centred = new double[12];
        for (int i = 0; i < centred.length; i++) {
            centred[i] = 0.02 * random.nextGaussian();
        }
        double mean = Arrays.stream(centred).average().orElseThrow();
        centred = Arrays.stream(centred).map(v -> v - mean).toArray();
        double sd = Math.sqrt(Arrays.stream(centred).map(v -> v * v).sum() / (centred.length - 1));
        int[] looks = {4, 8, 12};
        SequentialPlan plan = SequentialPlan.of(0.05, 20).withSmallestChangePercent(1);

        SequentialLook look = plan.look(looks, centred, false);
        double[] efficacy = look.boundaries().stream().mapToDouble(SequentialBoundary::z).toArray();
        double[] spent = Arrays.stream(looks).mapToDouble(n -> 2 * Distributions.normalUpper(
                Distributions.normalQuantile(0.95) / Math.sqrt(n / 20.0))).toArray();
        double[] b = GroupSequential.futilityBounds(new double[] {4, 8, 12}, efficacy, Math.log1p(0.01) / sd, spent);
        assertThat(b[2]).as("sd %s, boundary %s", sd, efficacy[2]).isPositive().isLessThan(efficacy[2]);
        assertRelative(Distributions.normalUpper(b[2]), Distributions.tUpper(look.tFutility(), 11), 1e-9,
                "the bound's tail");
        assertThat(look.tFutility()).isLessThan(look.tBoundary());
        assertThat(look.outcome()).as("|t| = 0").isEqualTo(SequentialLook.Outcome.FUTILE);

        for (double side : new double[] {-1, 1}) {
            double seFactor = sd / Math.sqrt(centred.length);
            double[] below = shifted(centred, side * look.tFutility() * (1 - 1e-6) * seFactor);
            double[] above = shifted(centred, side * look.tFutility() * (1 + 1e-6) * seFactor);
            assertThat(plan.look(looks, below, false).outcome()).isEqualTo(SequentialLook.Outcome.FUTILE);
            assertThat(plan.look(looks, above, false).outcome()).isEqualTo(SequentialLook.Outcome.CONTINUE);
            assertThat(plan.look(looks, above, false).tFutility()).isCloseTo(look.tFutility(), within(1e-9));
        }
        assertThat(plan.look(new int[] {4, 8}, centred, false).tFutility()).as("8 pairs").isNaN();
        assertThat(plan.look(looks, centred, true).tFutility()).as("the last look").isNaN();
        assertThat(SequentialPlan.of(0.05, 20).look(looks, centred, false).tFutility()).as("no smallest change")
                .isNaN();
    }

    private static double[] shifted(double[] values, double by) {
        return Arrays.stream(values).map(v -> v + by).toArray();
    }

    /** {rejected, futile, pairs used} over {@code experiments} runs of {@code plan} on normal pairs of mean shift. */
    private static int[] simulate(SequentialPlan plan, double shift, int experiments, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        int[] counts = new int[3];
        double[] x = new double[20];
        for (int e = 0; e < experiments; e++) {
            for (int i = 0; i < x.length; i++) {
                x[i] = shift + random.nextGaussian();
            }
            for (int k = 1; k <= FIVE_LOOKS.length; k++) {
                SequentialLook look = plan.look(Arrays.copyOf(FIVE_LOOKS, k), x, false);
                if (look.stop()) {
                    counts[0] += look.outcome() == SequentialLook.Outcome.SIGNIFICANT ? 1 : 0;
                    counts[1] += look.outcome() == SequentialLook.Outcome.FUTILE ? 1 : 0;
                    counts[2] += look.pairs();
                    break;
                }
            }
        }
        return counts;
    }

    @Test
    void aSmallestChangeNeedsNoHalfWidthAndIsAPercentage() {
        assertThatThrownBy(() -> SequentialPlan.of(0.05, 20).withSmallestChangePercent(-1))
                .hasMessageContaining("smallest change must be a percentage ≥ 0");
        assertThat(SequentialPlan.of(0.05, 20).withSmallestChangePercent(2).smallestChangePercent()).isEqualTo(2);
    }

    @Test
    void spendsTheRestOfAlphaWhenTheBudgetEndsTheExperiment() {
        double[] r = {0.01, -0.02, 0.015, 0.0, -0.01, 0.02, 0.005, -0.004, 0.012, -0.007, 0.003, 0.001};
        SequentialPlan plan = SequentialPlan.of(0.05, 40);
        SequentialLook planned = plan.look(new int[] {6, 12}, r, false);
        SequentialLook ended = plan.look(new int[] {6, 12}, r, true);
        assertThat(planned.outcome()).isEqualTo(SequentialLook.Outcome.CONTINUE);
        assertThat(ended.outcome()).isEqualTo(SequentialLook.Outcome.LAST_LOOK);
        assertThat(ended.boundaries().get(1).alphaSpent()).isEqualTo(0.05);
        assertThat(planned.boundaries().get(1).alphaSpent()).isLessThan(0.01);
        assertThat(ended.tBoundary()).isLessThan(planned.tBoundary());
        double[] all = new double[40];
        for (int i = 0; i < all.length; i++) {
            all[i] = r[i % r.length];
        }
        assertThat(plan.look(new int[] {6, 12, 40}, all, false).outcome()).isEqualTo(SequentialLook.Outcome.LAST_LOOK);
    }

    @Test
    void tQuantilesOfFarTailsMatchR() {
        // R 4.2.2 qt(p, df, lower.tail = FALSE): the far boundaries of early looks need tails that 1 - p cannot hold
        double[][] cases = {{1e-20, 3, 4795275.7204689756}, {5.4e-7, 7, 15.590281219591521},
            {1e-150, 1, 3.1830988618379069e+149}, {0.025, 19, 2.0930240544083096}, {0.3, 2.5, 0.59730773825231553}};
        for (double[] c : cases) {
            assertRelative(c[2], Distributions.tUpperQuantile(c[0], c[1]), 1e-12, "qt(" + c[0] + ", " + c[1] + ")");
        }
    }

    @Test
    void refusesLooksOutOfOrderOrRange() {
        SequentialPlan plan = SequentialPlan.of(0.05, 10);
        double[] r = {0.1, 0.2, 0.3, 0.1, 0.2, 0.3, 0.1, 0.2, 0.3, 0.4};
        assertThatThrownBy(() -> plan.look(new int[] {4, 3}, r, false)).hasMessageContaining("must increase");
        assertThatThrownBy(() -> plan.look(new int[] {1}, r, false)).hasMessageContaining("at least 2");
        assertThatThrownBy(() -> plan.look(new int[] {11}, r, false)).hasMessageContaining("at most 10");
        assertThatThrownBy(() -> plan.look(new int[] {5}, new double[] {1, 2}, false))
                .hasMessage("look 1 is at 5 pairs but 2 pair values were given");
        assertThatThrownBy(() -> SequentialPlan.of(0.05, 1)).hasMessageContaining("at least 2");
        assertThatThrownBy(() -> plan.withTargetHalfWidthPercent(-1)).hasMessageContaining("target half-width");
    }
}
