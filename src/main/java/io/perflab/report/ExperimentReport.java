package io.perflab.report;

import io.perflab.experiment.ExperimentView;
import io.perflab.experiment.MetricComparison;
import io.perflab.experiment.MetricDefinition;
import io.perflab.experiment.RunRecord;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Everything one exported report shows, read once so that the three formats agree: the experiment as the API
 * shows it (with its per-metric results), its runs with their samples, and the metric definitions.
 *
 * @param generatedAt when the report was made
 */
record ExperimentReport(ExperimentView experiment, List<RunRecord> runs, Map<String, MetricDefinition> definitions,
                        Instant generatedAt, String version) {

    /** The metrics DESIGN calls headline: what a change to the engine is judged on first. */
    static final List<String> HEADLINE_METRICS = List.of("user_cpu_us_per_req", "sys_cpu_us_per_req",
            "ctx_switches_per_req");

    static final String WITHOUT = "without";
    static final String WITH = "with";

    List<MetricComparison> results() {
        return experiment.results();
    }

    /** The headline metrics that were measured, or, when none was (command experiments), the first three. */
    List<MetricComparison> headline() {
        List<MetricComparison> headline = results().stream()
                .filter(c -> HEADLINE_METRICS.contains(c.key()))
                .toList();
        return headline.isEmpty() ? results().stream().limit(3).toList() : headline;
    }

    /** The values of one metric in one variant's successful runs, in plan order — what the statistics used. */
    double[] values(String metric, String variant) {
        return okRuns(metric, variant).stream().mapToDouble(r -> r.metrics().get(metric)).toArray();
    }

    /** The successful runs of one variant that measured {@code metric}, in plan order. */
    List<RunRecord> okRuns(String metric, String variant) {
        return runs.stream()
                .filter(r -> r.ok() && r.variant().equals(variant) && r.metrics().containsKey(metric))
                .toList();
    }

    /** Runs that failed or timed out, with their errors (cancelled runs are not failures of the experiment). */
    List<RunRecord> failedRuns() {
        return runs.stream().filter(r -> !r.ok() && !"CANCELLED".equals(r.status())).toList();
    }

    /**
     * What the runs ran on: each environment entry with its distinct values across the runs, in the order the
     * runner recorded them. Most entries (JVM, host, CPU) have one value; some (load, warmup) vary per run.
     */
    Map<String, List<String>> environment() {
        Map<String, Set<String>> values = new LinkedHashMap<>();
        for (RunRecord run : runs) {
            run.environment().forEach((key, value) -> values.computeIfAbsent(key, k -> new LinkedHashSet<>())
                    .add(value == null ? "" : value));
        }
        Map<String, List<String>> environment = new LinkedHashMap<>();
        values.forEach((key, distinct) -> environment.put(key, new ArrayList<>(distinct)));
        return environment;
    }

    /** The unit of a metric, or an empty string when it has none. */
    String unit(String metric) {
        MetricDefinition definition = definitions.get(metric);
        return definition == null || definition.unit() == null ? "" : definition.unit();
    }
}
