package io.perflab.experiment;

import java.util.Locale;

/**
 * Which of an experiment's metrics a results page lists: those whose key contains {@code metric} (ignoring case;
 * for an upload of many benchmarks, a benchmark's name picks its metrics) and whose verdict is {@code verdict}.
 * Blank criteria select everything.
 */
public record MetricFilter(String metric, String verdict) {

    public static final MetricFilter ALL = new MetricFilter(null, null);

    public MetricFilter {
        metric = metric == null || metric.isBlank() ? null : metric.strip();
        verdict = verdict == null || verdict.isBlank() ? null : verdict.strip().toLowerCase(Locale.ROOT);
    }

    public boolean matches(MetricComparison c) {
        return (metric == null || c.key().toLowerCase(Locale.ROOT).contains(metric.toLowerCase(Locale.ROOT)))
                && (verdict == null || verdict.equals(c.verdict()));
    }

    /** Whether it selects every metric. */
    public boolean isAll() {
        return metric == null && verdict == null;
    }
}
