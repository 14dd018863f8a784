package io.perflab.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.perflab.stats.format.ComparisonTable;
import java.util.List;
import org.junit.jupiter.api.Test;

class ConstantChangeTests {

    private static final ComparisonOptions OPTIONS = ComparisonOptions.defaults();

    @Test
    void aMetricThatEveryRunMeasuresAlikeIsJudgedByItsExactChange() {
        // Go's B/op: 64 in every run without the change, 96 with it
        ConstantChange more = ConstantChange.of(new double[] {96, 96, 96}, new double[] {64, 64, 64, 64},
                Direction.LOWER_IS_BETTER, 2).orElseThrow();
        assertThat(more.verdict()).isEqualTo(Verdict.REGRESSED);
        assertThat(more.percent()).contains(50.0);
        assertThat(more.difference()).isEqualTo(32.0);
        assertThat(more.withRuns()).isEqualTo(3);
        assertThat(more.withoutRuns()).isEqualTo(4);
        assertThat(more.reason()).isEqualTo("every run measured 64 without and 96 with: an exact change of +50.00% "
                + "(lower is better; no test is needed, or possible, as the values do not vary)");

        assertThat(ConstantChange.of(new double[] {96, 96}, new double[] {64, 64}, Direction.HIGHER_IS_BETTER, 2))
                .map(ConstantChange::verdict).contains(Verdict.IMPROVED);
        ConstantChange same = ConstantChange.of(new double[] {0, -0.0}, new double[] {0, 0}, Direction.LOWER_IS_BETTER,
                2).orElseThrow();
        assertThat(same.verdict()).isEqualTo(Verdict.UNCHANGED);
        assertThat(same.percent()).isEmpty();
        assertThat(same.reason()).startsWith("every run measured 0 on both sides: no change");
        ConstantChange fromZero = ConstantChange.of(new double[] {3, 3}, new double[] {0, 0},
                Direction.LOWER_IS_BETTER, 2).orElseThrow();
        assertThat(fromZero.verdict()).isEqualTo(Verdict.REGRESSED);
        assertThat(fromZero.percent()).isEmpty();
        assertThat(fromZero.reason()).contains("a change of 3 (lower is better");
    }

    @Test
    void aSideThatVariesAtAllOrHasTooFewRunsIsLeftToTheTests() {
        assertThat(ConstantChange.of(new double[] {96, 96, 96.000001}, new double[] {64, 64}, Direction.LOWER_IS_BETTER,
                2)).isEmpty();
        assertThat(ConstantChange.of(new double[] {96}, new double[] {64, 64}, Direction.LOWER_IS_BETTER, 2)).isEmpty();
        assertThat(ConstantChange.of(new double[] {Double.NaN, Double.NaN}, new double[] {64, 64},
                Direction.LOWER_IS_BETTER, 2)).isEmpty();
        // the tests themselves still stop on constant data, as R's t.test does
        assertThatThrownBy(() -> Comparison.compare(new double[] {96, 96}, new double[] {64, 64},
                Direction.LOWER_IS_BETTER, OPTIONS)).hasMessageStartingWith("data are essentially constant");
    }

    @Test
    void anExperimentsConstantMetricsTakeNoShareOfTheHolmAdjustmentAndShowInTheTable() {
        double[] a = {240.1, 238.7, 241.5, 239.9, 242.2, 237.8};
        double[] b = {230.4, 231.9, 229.5, 232.2, 228.8, 230.7};
        List<MetricOutcome> outcomes = ExperimentAnalysis.analyze(List.of(
                new MetricInput("Join:ns/op", Direction.LOWER_IS_BETTER, Sample.of(b), Sample.of(a)),
                new MetricInput("Join:B/op", Direction.LOWER_IS_BETTER, Sample.of(96, 96, 96, 96, 96, 96),
                        Sample.of(64, 64, 64, 64, 64, 64)),
                new MetricInput("Join:allocs/op", Direction.LOWER_IS_BETTER, Sample.of(2, 2, 2, 2, 2, 2),
                        Sample.of(2, 2, 2, 2, 2, 2))), OPTIONS);

        double alone = Comparison.compare(b, a, Direction.LOWER_IS_BETTER, OPTIONS).welch().pValue();
        assertThat(outcomes.get(0).result().orElseThrow().decision().pValue()).isEqualTo(alone);
        assertThat(outcomes.get(1).verdict()).contains(Verdict.REGRESSED);
        assertThat(outcomes.get(1).error()).isEmpty();
        assertThat(outcomes.get(2).verdict()).contains(Verdict.UNCHANGED);

        String table = ComparisonTable.render(outcomes, OPTIONS);
        assertThat(table).containsPattern("Join:B/op +64 ± 0% \\(n=6\\) +96 ± 0% \\(n=6\\) +\\+50.00% +exact +— +"
                + "regressed \\[2\\]")
                .containsPattern("Join:allocs/op +2 ± 0% \\(n=6\\) +2 ± 0% \\(n=6\\) +\\+0.00% +exact +— +unchanged")
                .contains("[2] Join:B/op: every run measured 64 without and 96 with: an exact change of +50.00%")
                .contains("± : the half-width of the mean's 95% CI, in percent of the mean")
                .doesNotContain("not compared");
    }
}
