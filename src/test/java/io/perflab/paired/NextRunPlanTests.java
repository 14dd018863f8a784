package io.perflab.paired;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.perflab.runner.experiment.PairCosts;
import io.perflab.stats.ComparisonOptions;
import io.perflab.stats.NextRun;
import io.perflab.stats.PairWindows;
import io.perflab.stats.PairedAnalysis;
import io.perflab.stats.VarianceComponents;
import java.util.ArrayList;
import java.util.List;
import org.apache.commons.math3.distribution.TDistribution;
import org.junit.jupiter.api.Test;

class NextRunPlanTests {

    private static final ComparisonOptions OPTIONS = ComparisonOptions.defaults();
    private static final PairCosts COSTS = new PairCosts(20, 3);

    /** Pairs of three windows whose log(with/without) are {@code y[i]}. */
    private static PairedAnalysis analysis(double[][] y) {
        List<PairWindows> pairs = new ArrayList<>();
        for (double[] windows : y) {
            double[] with = new double[windows.length];
            double[] without = new double[windows.length];
            for (int j = 0; j < windows.length; j++) {
                with[j] = 100 * Math.exp(windows[j]);
                without[j] = 100;
            }
            pairs.add(PairWindows.of(with, without));
        }
        return PairedAnalysis.analyze(pairs, OPTIONS);
    }

    /** (t<sub>0.975,K−1</sub> + t<sub>0.8,K−1</sub>)·√variance as a relative change, Commons Math's quantiles. */
    private static double mdePercent(long pairs, double variance) {
        TDistribution t = new TDistribution(pairs - 1.0);
        return 100 * Math.expm1((t.inverseCumulativeProbability(0.975) + t.inverseCumulativeProbability(0.8))
                * Math.sqrt(variance));
    }

    @Test
    void whenTheBetweenPairsEstimateIsClampedThisRunsDesignShowsTheMdeOfItsTest() {
        // the windows of a pair spread by ±1 %, the pairs' means by far less: MS between < MS within, so
        // σ²between is clamped to 0 and the model MS within/(K·m) would claim a wider interval than the test had
        double[][] y = {{0.010, -0.010, 0.001}, {-0.011, 0.009, 0.000}, {0.012, -0.008, -0.003},
            {-0.009, 0.011, -0.001}, {0.008, -0.012, 0.002}, {-0.010, 0.010, 0.001}};
        PairedAnalysis a = analysis(y);
        VarianceComponents vc = a.varianceComponents().orElseThrow();
        assertThat(vc.betweenClamped()).isTrue();

        NextRunPlan plan = NextRunPlan.of(a, COSTS, 3, OPTIONS).orElseThrow();

        double observed = a.power().minimumDetectableEffectPercent();
        assertThat(vc.mdePercent(6, 3, 0.05, 0.8)).as("the unscaled model's figure").isGreaterThan(1.5 * observed);
        assertThat(plan.thisDesignMdePercent()).as("the sensitivity's MDE").isCloseTo(observed, within(1e-9));
        assertThat(plan.betweenClamped()).isTrue();
        assertThat(plan.kaliberaJonesOptimum()).isInfinite();
        // scaled so that σ²within/m is the spread s² of the pairs' log ratios: σ²within = 3·s², σ²between = 0, so a
        // design of K pairs of m windows has the variance 3·s²/(K·m); in this run's 6 · (20 + 3·3) = 174 s
        double s = a.pairLogRatioSd();
        assertThat(plan.next().mdePercent()).isCloseTo(mdePercent(plan.next().pairs(),
                3 * s * s / (plan.next().pairs() * plan.next().windowsPerPair())), within(1e-9));
        assertThat(plan.next().mdePercent()).as("a better design by the same measure").isLessThanOrEqualTo(
                plan.thisDesignMdePercent());
    }

    @Test
    void whenPairsDifferMoreThanTheirWindowsThePlanIsTheMeasuredModelsAsBefore() {
        // balanced and not clamped: σ²between + σ²within/m = MS between/m = s², the test's own spread
        double[][] y = {{0.020, 0.024, 0.019}, {-0.010, -0.006, -0.012}, {0.005, 0.001, 0.007},
            {0.030, 0.027, 0.033}, {-0.002, 0.001, -0.004}};
        PairedAnalysis a = analysis(y);
        VarianceComponents vc = a.varianceComponents().orElseThrow();
        assertThat(vc.betweenClamped()).isFalse();

        NextRunPlan plan = NextRunPlan.of(a, COSTS, 3, OPTIONS).orElseThrow();

        assertThat(plan.betweenClamped()).isFalse();
        assertThat(plan.thisDesignMdePercent()).isCloseTo(vc.mdePercent(5, 3, 0.05, 0.8), within(1e-9))
                .isCloseTo(a.power().minimumDetectableEffectPercent(), within(1e-9));
        NextRun model = vc.nextRun(5 * (20 + 3 * 3), 20, 3, VarianceComponents.DEFAULT_MAX_WINDOWS, 0.05, 0.8)
                .orElseThrow();
        assertThat(plan.next().windowsPerPair()).isEqualTo(model.windowsPerPair());
        assertThat(plan.next().pairs()).isEqualTo(model.pairs());
        assertThat(plan.next().mdePercent()).isCloseTo(model.mdePercent(), within(1e-9));
        assertThat(plan.kaliberaJonesOptimum()).isCloseTo(vc.kaliberaJonesOptimum(20, 3), within(1e-9));
    }
}
