package io.perflab.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class HolmTests {

    @Test
    void matchesRsPAdjust() {
        // R 4.2.2 p.adjust(c(0.01, 0.04, 0.03, 0.005, 0.5, 0.04), "holm") (extras_reference.R)
        double[] adjusted = Holm.adjust(new double[] {0.01, 0.04, 0.03, 0.005, 0.5, 0.04});
        assertThat(adjusted).containsExactly(0.050000000000000003, 0.12, 0.12, 0.029999999999999999, 0.5, 0.12);
    }

    @Test
    void rejectsValuesOutsideTheUnitInterval() {
        assertThatThrownBy(() -> Holm.adjust(new double[] {0.1, Double.NaN})).hasMessageContaining("p-value 2");
    }

    @Test
    void multiMetricVerdictsUseAdjustedPValues() {
        java.util.SplittableRandom random = new java.util.SplittableRandom(5);
        double[] a = random.doubles(10).map(v -> 100 + v).toArray();
        double[] b = random.doubles(10).map(v -> 100.6 + v).toArray();
        ComparisonOptions options = ComparisonOptions.defaults();
        double single = Comparison.compare(a, b, Direction.LOWER_IS_BETTER, options).welch().pValue();
        var outcomes = ExperimentAnalysis.analyze(java.util.List.of(
                new MetricInput("m1", Direction.LOWER_IS_BETTER, Sample.of(a), Sample.of(b)),
                new MetricInput("zeros", Direction.LOWER_IS_BETTER, Sample.of(0, 0, 0), Sample.of(0, 0, 0)),
                new MetricInput("m2", Direction.LOWER_IS_BETTER, Sample.of(b), Sample.of(b))), options);
        assertThat(outcomes.get(0).result().orElseThrow().decision().pValue()).isEqualTo(Math.min(1, 2 * single));
        // a counter that stayed 0 on both sides is unchanged, exactly, and takes no share of the adjustment
        assertThat(outcomes.get(1).verdict()).contains(Verdict.UNCHANGED);
        assertThat(outcomes.get(1).result()).isEmpty();
        assertThat(outcomes.get(2).result().orElseThrow().decision().pValue()).isEqualTo(1.0);
    }

    @Test
    void aVerdictOnTheHolmAdjustedPNamesBothPValues() {
        java.util.SplittableRandom random = new java.util.SplittableRandom(5);
        double[] a = random.doubles(10).map(v -> 100 + v).toArray();
        double[] b = random.doubles(10).map(v -> 100.6 + v).toArray();
        ComparisonOptions options = ComparisonOptions.defaults();
        var outcomes = ExperimentAnalysis.analyze(java.util.List.of(
                new MetricInput("m1", Direction.LOWER_IS_BETTER, Sample.of(a), Sample.of(b)),
                new MetricInput("m2", Direction.LOWER_IS_BETTER, Sample.of(b), Sample.of(b))), options);
        ComparisonResult m1 = outcomes.get(0).result().orElseThrow();
        double raw = m1.welch().pValue();
        double holm = m1.decision().pValue();

        assertThat(holm).isEqualTo(2 * raw);
        // the reason's p is the one the page, the reports and the API show as Holm's, beside Welch's own
        assertThat(m1.decision().reason()).startsWith("Welch p = " + Display.pValue(raw) + ", Holm-adjusted p = "
                + Display.pValue(holm) + " < α = 0.05: ");
        assertThat(outcomes.get(1).result().orElseThrow().decision().reason())
                .startsWith("no significant change (Welch p = 1, Holm-adjusted p = 1 ≥ α = 0.05)");
        // a metric judged alone has no adjustment to name
        assertThat(ExperimentAnalysis.analyze(java.util.List.of(new MetricInput("m1", Direction.LOWER_IS_BETTER,
                Sample.of(a), Sample.of(b))), options).get(0).result().orElseThrow().decision().reason())
                .startsWith("Welch p = " + Display.pValue(raw) + " < α = 0.05: ");
    }
}
