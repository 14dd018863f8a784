package io.perflab.stats;

import static io.perflab.stats.Tolerance.assertRelative;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class PairedAnalysisTests {

    private static final ComparisonOptions OPTIONS = ComparisonOptions.defaults();

    /** A design of src/test/resources/stats/paired_windows.txt with R 4.2.2's results (paired_reference.R). */
    record Design(String name, List<PairWindows> pairs, Map<String, double[]> lines) {
        double[] numbers(String key) {
            return lines.get(key);
        }

        @Override
        public String toString() {
            return name;
        }
    }

    static List<Design> designs() {
        List<Design> designs = new ArrayList<>();
        try (InputStream in = PairedAnalysisTests.class.getResourceAsStream("/stats/paired_windows.txt")) {
            String name = null;
            List<PairWindows> pairs = null;
            Map<String, double[]> lines = null;
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                String[] w = line.split(" ", 2);
                switch (w[0]) {
                    case "#" -> { }
                    case "design" -> {
                        name = w[1];
                        pairs = new ArrayList<>();
                        lines = new HashMap<>();
                    }
                    case "pair" -> {
                        String[] sides = w[1].split(" ; ");
                        pairs.add(PairWindows.of(numbers(sides[0]), numbers(sides[1])));
                    }
                    case "end" -> designs.add(new Design(name, pairs, lines));
                    default -> lines.put(w[0], numbers(w[1]));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return designs;
    }

    private static double[] numbers(String text) {
        return Arrays.stream(text.trim().split(" "))
                .mapToDouble(s -> s.equals("NA") ? Double.NaN : Double.parseDouble(s)).toArray();
    }

    private static Design design(String name) {
        return designs().stream().filter(d -> d.name().equals(name)).findFirst().orElseThrow();
    }

    // Expected: R 4.2.2 via paired_reference.R: per pair r = mean(log1p((with - without) / without)) over the
    // windows measured on both sides; t.test(r); 100 * expm1(estimate and interval); t.test(pair means,
    // paired = TRUE); t.test(pair means) (Welch); anova(lm(y ~ factor(pair))) with n0 and clamping; relative 1e-12
    @ParameterizedTest(name = "{0}")
    @MethodSource("designs")
    void matchesR(Design d) {
        PairedAnalysis a = PairedAnalysis.analyze(d.pairs(), OPTIONS);
        String what = d.name();
        assertThat(a.pairs()).isEqualTo((int) d.numbers("counts")[0]);
        assertThat(a.windows()).isEqualTo((int) d.numbers("counts")[1]);
        double[] ratios = d.numbers("ratios");
        for (int i = 0; i < ratios.length; i++) {
            assertRelative(ratios[i], a.pairLogRatios().get(i), 1e-12, what + " r" + (i + 1));
        }
        double[] lr = d.numbers("logratio");
        Tolerance.assertTTest(lr, a.logRatio(), 1e-12, what + " log ratio");
        assertRelative(lr[5], a.logRatio().difference(), 1e-12, what + " mean log ratio");
        assertRelative(lr[6], a.logRatio().stdErr(), 1e-12, what + " log ratio stderr");
        double[] pc = d.numbers("percent");
        assertRelative(pc[0], a.relativeChange().percent(), 1e-12, what + " percent");
        assertRelative(pc[1], a.relativeChange().ciLowPercent(), 1e-12, what + " percent low");
        assertRelative(pc[2], a.relativeChange().ciHighPercent(), 1e-12, what + " percent high");
        double[] u = d.numbers("units");
        Tolerance.assertTTest(u, a.difference(), 1e-12, what + " units");
        assertRelative(u[5], a.difference().difference(), 1e-12, what + " mean difference");
        assertRelative(u[7], a.difference().meanWith(), 1e-12, what + " mean of with means");
        assertRelative(u[8], a.difference().meanWithout(), 1e-12, what + " mean of without means");
        assertThat(a.difference().paired()).isTrue();
        Tolerance.assertTTest(d.numbers("welch"), a.welchIgnoringPairing(), 1e-12, what + " welch");

        double[] anova = d.numbers("anova");
        if (anova == null) {
            assertThat(a.varianceComponents()).as(what).isEmpty();
            return;
        }
        VarianceComponents vc = a.varianceComponents().orElseThrow();
        assertRelative(anova[0], vc.meanSquareBetween(), 1e-12, what + " MS between");
        assertRelative(anova[1], vc.meanSquareWithin(), 1e-12, what + " MS within");
        assertThat(vc.dfBetween()).isEqualTo((int) anova[2]);
        assertThat(vc.dfWithin()).isEqualTo((int) anova[3]);
        assertRelative(anova[4], vc.n0(), 1e-14, what + " n0");
        assertThat(vc.betweenClamped()).isEqualTo(anova[5] < 0);
        assertRelative(anova[6], vc.between(), 1e-11, what + " sigma2 between");
        assertRelative(anova[7], vc.within(), 1e-12, what + " sigma2 within");
        double[] costs = d.numbers("costs");
        double[] kj = d.numbers("kj");
        if (kj != null) {
            assertRelative(kj[0], vc.kaliberaJonesOptimum(costs[0], costs[1]), 1e-11, what + " m*");
        } else {
            assertThat(vc.kaliberaJonesOptimum(costs[0], costs[1])).as(what + " m*").isInfinite();
        }
        double[] next = d.numbers("next");
        NextRun run = vc.nextRun(costs[2], costs[0], costs[1], 100, 0.05, 0.8).orElseThrow();
        assertThat(run.windowsPerPair()).as(what + " next windows per pair").isEqualTo((int) next[0]);
        assertThat(run.pairs()).as(what + " next pairs").isEqualTo((long) next[1]);
        assertRelative(next[2], run.mdePercent(), 1e-12, what + " next MDE");
    }

    @Test
    void averagesWindowsWithinAPairBeforeTheTest() {
        // R 4.2.2 (paired_windows.txt, design balanced): 8 pairs of 4 windows. The pair is the unit: t.test over the
        // 8 pair means has df = 7, p = 5.21e-05; counting the 32 windows as independent would claim df = 31 and
        // p = 1.79e-13
        Design d = design("balanced");
        PairedAnalysis a = PairedAnalysis.analyze(d.pairs(), OPTIONS);
        assertThat(a.logRatio().df()).isEqualTo(7);
        assertThat(d.numbers("independent")[0]).isEqualTo(31);
        assertRelative(5.2120350206295708e-05, a.logRatio().pValue(), 1e-12, "pair-level p");
        assertThat(a.logRatio().pValue()).isGreaterThan(1e6 * d.numbers("independent")[1]);
        assertThat(a.warnings()).isEmpty();
    }

    @Test
    void leavesOutWindowsMissingOnOneSideAndSaysSo() {
        // paired_windows.txt, design missing_windows: a NaN in the second pair (with) and the fourth (without), the
        // fifth has 3 'with' windows against 5, the sixth 4 'without' windows against 5: 1 + 1 + 2 + 1 = 5 left
        // out; pairs are named by their index from 0, here their place in the list
        PairedAnalysis a = PairedAnalysis.analyze(design("missing_windows").pairs(), OPTIONS);
        assertThat(a.windows()).isEqualTo(25);
        assertThat(a.warnings()).extracting(StatWarning::kind).containsExactly(StatWarning.Kind.MISSING_WINDOWS);
        assertThat(a.warnings().get(0).message()).isEqualTo(
                "5 windows without a partner: left out windows measured on one side only (pairs 1, 3, 4, 5)");

        List<PairWindows> pairs = new ArrayList<>(design("balanced").pairs());
        pairs.add(PairWindows.of(new double[] {Double.NaN, 3}, new double[] {2}));
        PairedAnalysis b = PairedAnalysis.analyze(pairs, OPTIONS);
        assertThat(b.pairs()).isEqualTo(8);
        assertThat(b.warnings().get(0).message()).isEqualTo(
                "2 windows without a partner: left out pair 8 with no window measured on both sides");
    }

    @Test
    void clampsANegativeBetweenPairsComponentAndKaliberaJonesOptimumIsInfinite() {
        // R 4.2.2 (design negative_between): MS between 9.93e-05 < MS within 2.39e-04, raw estimate -4.65e-05
        PairedAnalysis a = PairedAnalysis.analyze(design("negative_between").pairs(), OPTIONS);
        VarianceComponents vc = a.varianceComponents().orElseThrow();
        assertThat(vc.between()).isZero();
        assertThat(vc.betweenClamped()).isTrue();
        assertThat(a.warnings()).extracting(StatWarning::kind)
                .containsExactly(StatWarning.Kind.NEGATIVE_VARIANCE_COMPONENT);
        assertThat(vc.kaliberaJonesOptimum(30, 3)).isInfinite();
    }

    /** Any one-way grouping, e.g. a calibration's experiments and their pairs: the F test of "one effect". */
    @Test
    void varianceComponentsTestWhetherTheGroupsDiffer() {
        // SciPy 1.17.1 scipy.stats.f_oneway(*groups); R: oneway.test(y ~ g, var.equal = TRUE)
        VarianceComponents vc = VarianceComponents.of(new double[][] {{0.01, 0.03, -0.02, 0.05}, {0.08, 0.1, 0.07},
            {0.02, 0.0, 0.01, 0.03, 0.02}});
        assertRelative(12.29563040509786, vc.f(), 1e-12, "F");
        assertRelative(0.0026673064822517567, vc.fPValue(), 1e-10, "Pr(>F)");
        assertThat(vc.dfBetween()).isEqualTo(2);
        assertThat(vc.dfWithin()).isEqualTo(9);

        VarianceComponents same = VarianceComponents.of(new double[][] {{0.01, 0.03}, {0.03, 0.01}});
        assertThat(same.f()).isZero();
        assertThat(same.fPValue()).isEqualTo(1);

        assertThatThrownBy(() -> VarianceComponents.of(new double[][] {{0.01, 0.02}}))
                .hasMessageContaining("at least 2 groups, got 1");
        assertThatThrownBy(() -> VarianceComponents.of(new double[][] {{0.01, 0.02}, {}}))
                .hasMessageContaining("values in every group");
        assertThatThrownBy(() -> VarianceComponents.of(new double[][] {{0.01}, {0.02}}))
                .hasMessageContaining("a group of at least 2 values");
    }

    @Test
    void hasNoVarianceComponentsWithOneWindowPerPair() {
        PairedAnalysis a = PairedAnalysis.analyze(design("one_window").pairs(), OPTIONS);
        assertThat(a.varianceComponents()).isEmpty();
        assertThat(a.windows()).isEqualTo(10);
    }

    @Test
    void kaliberaJonesOptimumWeighsTheCostsAgainstTheComponents() {
        // m* = sqrt(c1 s2w / (c2 s2b)) = sqrt(30 * 1e-4 / (3 * 1e-5)) = 10 exactly
        VarianceComponents vc = new VarianceComponents(1e-5, 1e-4, 0, 0, 1, 1, 1, false);
        assertRelative(10, vc.kaliberaJonesOptimum(30, 3), 1e-15, "m*");
        assertRelative(Math.sqrt(30 * 1e-4 / (3 * 1.9e-5)),
                new VarianceComponents(1.9e-5, 1e-4, 0, 0, 1, 1, 1, false).kaliberaJonesOptimum(30, 3), 1e-15, "m*");
        assertThat(new VarianceComponents(1e-3, 0, 0, 0, 1, 1, 1, false).kaliberaJonesOptimum(30, 3)).isZero();
        assertThatThrownBy(() -> vc.kaliberaJonesOptimum(0, 3)).hasMessageContaining("seconds per pair");
        assertThatThrownBy(() -> vc.kaliberaJonesOptimum(30, Double.NaN)).hasMessageContaining("seconds per window");
    }

    @Test
    void theNextRunCountsTheTQuantileOfItsFewPairs() {
        // SciPy 1.17.1: for m = 1, 2, … with K = floor(budget / (c1 + m c2)) >= 2 pairs,
        // 100 * expm1((t.ppf(0.975, K - 1) + t.ppf(0.8, K - 1)) * sqrt(s2b / K + s2w / (K m))), the least kept.
        // No variance between pairs, a window's log ratio spread by 5.14 %, c1 = 20 s, c2 = 7.2 s, and the budget of
        // 8 pairs of 3 windows: Kalibera and Jones's m* is infinite, yet 3 x 8 detects the least (3.4803 %), before
        // 6 x 5 (3.5501 %), 2 x 9 (3.9465 %) and 13 x 2 (15.2528 %).
        VarianceComponents flat = new VarianceComponents(0, 0.0514 * 0.0514, 0, 0, 1, 1, 1, true);
        NextRun next = flat.nextRun(8 * (20 + 3 * 7.2), 20, 7.2, VarianceComponents.DEFAULT_MAX_WINDOWS, 0.05, 0.8)
                .orElseThrow();
        assertThat(next.windowsPerPair()).isEqualTo(3);
        assertThat(next.pairs()).as("a budget of exactly 8 pairs counts 8").isEqualTo(8);
        assertRelative(3.4802636265401476, next.mdePercent(), 1e-9, "MDE of 3 x 8");
        assertRelative(3.4802636265401476, flat.mdePercent(8, 3, 0.05, 0.8), 1e-9, "this design's MDE");
        assertThat(flat.kaliberaJonesOptimum(20, 7.2)).isInfinite();

        // m* = 10 for s2b = 1e-5, s2w = 1e-4, c1 = 30, c2 = 3; in 1,200 s the fewer pairs of 10 windows (20) lose
        // to 9 x 21 by their t quantile: 0.295808 % against 0.295833 %
        VarianceComponents kj = new VarianceComponents(1e-5, 1e-4, 0, 0, 1, 1, 1, false);
        NextRun nine = kj.nextRun(1200, 30, 3, 100, 0.05, 0.8).orElseThrow();
        assertThat(nine).extracting(NextRun::windowsPerPair, NextRun::pairs).containsExactly(9, 21L);
        assertRelative(0.29580775679888566, nine.mdePercent(), 1e-9, "MDE of 9 x 21");
        assertRelative(10, kj.kaliberaJonesOptimum(30, 3), 1e-15, "m* of the same components");

        // pairs that differ much more than their windows: one window each, as many pairs as fit (18 in 600 s)
        NextRun one = new VarianceComponents(1e-3, 1e-4, 0, 0, 1, 1, 1, false).nextRun(600, 30, 3, 100, 0.05, 0.8)
                .orElseThrow();
        assertThat(one).extracting(NextRun::windowsPerPair, NextRun::pairs).containsExactly(1, 18L);
        assertRelative(2.351394370202243, one.mdePercent(), 1e-9, "MDE of 1 x 18");

        assertThat(flat.nextRun(50, 20, 7.2, 100, 0.05, 0.8)).as("not 2 pairs of one window in 50 s").isEmpty();
        // the model's MDE is Power.paired's for pairs whose means spread by sqrt(s2b + s2w / m)
        assertRelative(Power.paired(Math.sqrt(1e-5 + 1e-4 / 4), 12, 0.05, 0.8, 1).minimumDetectableEffectPercent(),
                kj.mdePercent(12, 4, 0.05, 0.8), 1e-14, "as Power.paired");
        assertThatThrownBy(() -> kj.mdePercent(1, 3, 0.05, 0.8)).hasMessageContaining("at least 2 pairs");
        assertThatThrownBy(() -> kj.nextRun(600, 30, 3, 0, 0.05, 0.8)).hasMessageContaining("at least 1");
        assertThatThrownBy(() -> kj.nextRun(600, 30, 3, 10, 0.05, 1)).hasMessageContaining("alpha and power");
        assertThatThrownBy(() -> flat.nextRun(50, 20, 7.2, 100, 0, 0.8)).as("refused even when no pair fits")
                .hasMessageContaining("alpha and power");
    }

    @Test
    void aConstantShiftKeepsTheLogRatioVerdictAndLeavesOutOnlyTheDifferencesTest() {
        // every pair's 'with' is its 'without' + 5: the differences of the pair means are all 5, which R refuses
        // (t.test(without + 5, without, paired = TRUE): "data are essentially constant"), but the log ratios
        // log1p(5 / without) differ. R 4.2.2: r <- log1p(5 / c(100, 120, 90, 110)); t.test(r);
        // 100 * expm1(mean(r) and the interval)
        double[] without = {100, 120, 90, 110};
        List<PairWindows> pairs = new ArrayList<>();
        for (double w : without) {
            pairs.add(PairWindows.of(new double[] {w + 5, w + 5}, new double[] {w, w}));
        }
        PairedAnalysis a = PairedAnalysis.analyze(pairs, OPTIONS);
        assertRelative(0.00048676863353183609, a.logRatio().pValue(), 1e-10, "p of the log ratios");
        assertRelative(4.8156372986187383, a.relativeChange().percent(), 1e-12, "change");
        assertRelative(3.8676321843649246, a.relativeChange().ciLowPercent(), 1e-10, "low");
        assertRelative(5.7722949033332593, a.relativeChange().ciHighPercent(), 1e-10, "high");
        assertThat(a.difference()).as("the paired test of the differences has no answer").isNull();
        assertThat(a.welchIgnoringPairing()).isNotNull();
        assertThat(a.warnings()).extracting(StatWarning::kind).contains(StatWarning.Kind.CONSTANT_DATA);
        assertThat(a.warnings()).extracting(StatWarning::message).anySatisfy(m -> assertThat(m)
                .startsWith("the paired t-test of the difference in the metric's units is left out (data are"
                        + " essentially constant: ")
                .endsWith("); the change and the verdict come from the pairs' log ratios, which differ"));
    }

    @Test
    void refusesTooFewPairsAndValuesThatHaveNoLogRatio() {
        List<PairWindows> one = List.of(PairWindows.of(new double[] {1, 2}, new double[] {1, 3}));
        assertThatThrownBy(() -> PairedAnalysis.analyze(one, OPTIONS)).hasMessage("not enough pairs: 1 (need ≥ 2)");
        List<PairWindows> zero = List.of(PairWindows.of(new double[] {1, 2}, new double[] {1, 3}),
                PairWindows.of(new double[] {1, 2}, new double[] {0, 3}));
        assertThatThrownBy(() -> PairedAnalysis.analyze(zero, OPTIONS))
                .hasMessage("pair 1, window 0: 'without' is 0.0: a log ratio needs positive values");
        assertThatThrownBy(() -> PairWindows.of(new double[] {1, Double.POSITIVE_INFINITY}, new double[] {1, 2}))
                .hasMessageContaining("'with' window 1 is Infinity");
    }
}
