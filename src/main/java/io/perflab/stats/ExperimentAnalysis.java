package io.perflab.stats;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Compares every metric of one experiment and judges them together: the Welch p-values of the metrics that
 * could be compared are adjusted with {@link Holm} before each verdict, so that reporting a dozen metrics does
 * not multiply the chance of a false "improved".
 */
public final class ExperimentAnalysis {

    private ExperimentAnalysis() {
    }

    /** Analyses the metrics in their given order; a metric that cannot be compared carries its error instead. */
    public static List<MetricOutcome> analyze(List<MetricInput> metrics, ComparisonOptions options) {
        List<ComparisonResult> raw = new ArrayList<>();
        List<String> errors = new ArrayList<>();
        for (MetricInput m : metrics) {
            try {
                raw.add(Comparison.compare(m.with(), m.without(), m.direction(), options));
                errors.add(null);
            } catch (IllegalArgumentException e) {
                raw.add(null);
                errors.add(e.getMessage());
            }
        }
        double[] p = raw.stream().filter(r -> r != null).mapToDouble(r -> r.welch().pValue()).toArray();
        double[] adjusted = Holm.adjust(p);
        List<MetricOutcome> outcomes = new ArrayList<>();
        int k = 0;
        for (int i = 0; i < metrics.size(); i++) {
            MetricInput m = metrics.get(i);
            ComparisonResult r = raw.get(i);
            if (r == null) {
                outcomes.add(new MetricOutcome(m.name(), m.direction(), Optional.empty(),
                        Optional.of(errors.get(i))));
            } else {
                // a metric compared alone has nothing to adjust for: its verdict and reason stay Welch's own
                ComparisonResult judged = p.length > 1 ? r.withAdjustedPValue(adjusted[k]) : r;
                k++;
                outcomes.add(new MetricOutcome(m.name(), m.direction(), Optional.of(judged), Optional.empty()));
            }
        }
        return List.copyOf(outcomes);
    }
}
