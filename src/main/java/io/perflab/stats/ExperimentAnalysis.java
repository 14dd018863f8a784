package io.perflab.stats;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Compares every metric of one experiment and judges them together: the Welch p-values of the metrics that
 * could be compared are adjusted with {@link Holm} before each verdict, so that reporting a dozen metrics does
 * not multiply the chance of a false "improved". A metric that measured one value in every run of each side is
 * judged by its exact change ({@link ConstantChange}), outside the tests and their adjustment.
 */
public final class ExperimentAnalysis {

    private ExperimentAnalysis() {
    }

    /** Analyses the metrics in their given order; a metric that cannot be compared carries its error instead. */
    public static List<MetricOutcome> analyze(List<MetricInput> metrics, ComparisonOptions options) {
        List<ComparisonResult> raw = new ArrayList<>();
        List<String> errors = new ArrayList<>();
        List<Optional<ConstantChange>> constants = new ArrayList<>();
        for (MetricInput m : metrics) {
            Optional<ConstantChange> constant = ConstantChange.of(m.with().valuesShared(), m.without().valuesShared(),
                    m.direction(), 2);
            constants.add(constant);
            if (constant.isPresent()) {
                raw.add(null);
                errors.add(null);
                continue;
            }
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
            if (constants.get(i).isPresent()) {
                outcomes.add(new MetricOutcome(m.name(), m.direction(), Optional.empty(), constants.get(i),
                        Optional.empty()));
            } else if (r == null) {
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
