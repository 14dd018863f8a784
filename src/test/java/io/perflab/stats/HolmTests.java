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
        assertThat(outcomes.get(1).error()).hasValueSatisfying(e -> assertThat(e).startsWith("data are essentially"));
        assertThat(outcomes.get(2).result().orElseThrow().decision().pValue()).isEqualTo(1.0);
    }
}
