package io.perflab.experiment;

import io.perflab.display.Format;
import io.perflab.runner.trial.MetricKeys;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What an experiment's results say as a whole, before any table: the answer for the headline metrics, how many
 * metrics came out each way, and the notes that several metrics share, said once. A small sample gives every
 * metric the same warning, and an upload of one side gives each of its metrics the same reason it is not compared;
 * a table that repeats them on every row hides the notes that concern one metric only.
 */
public final class ResultsSummary {

    /** How many headline metrics an experiment without any of {@link MetricKeys#HEADLINE} leads with. */
    static final int HEADLINE_SIZE = MetricKeys.HEADLINE.size();

    /** How many metric names a page's shared note lists before the rest are one click away. */
    static final int EXAMPLES = 3;

    /**
     * A note that several metrics share.
     *
     * @param keys the metrics that have it, in the results' order
     */
    public record SharedNote(String text, List<String> keys) {

        public SharedNote {
            keys = List.copyOf(keys);
        }

        /** How many metrics have it. */
        public int metrics() {
            return keys.size();
        }

        /** The first {@value #EXAMPLES} of them (all of them when they are few), which a page names first. */
        public List<String> examples() {
            return keys.subList(0, Math.min(EXAMPLES, keys.size()));
        }

        /** Whether {@link #examples()} leaves any out. */
        public boolean shortened() {
            return keys.size() > EXAMPLES;
        }
    }

    private final List<MetricComparison> headline;
    private final Map<String, Long> verdicts;
    private final int metrics;
    private final List<SharedNote> notes;
    private final Set<String> shared;

    private ResultsSummary(List<MetricComparison> headline, Map<String, Long> verdicts, int metrics,
            List<SharedNote> notes) {
        this.headline = List.copyOf(headline);
        this.verdicts = verdicts;
        this.metrics = metrics;
        this.notes = List.copyOf(notes);
        this.shared = Set.copyOf(notes.stream().map(SharedNote::text).toList());
    }

    public static ResultsSummary of(List<MetricComparison> all) {
        Map<String, List<String>> byText = new LinkedHashMap<>();
        for (MetricComparison c : all) {
            for (String note : notes(c)) {
                byText.computeIfAbsent(note, t -> new ArrayList<>()).add(c.key());
            }
        }
        List<SharedNote> shared = new ArrayList<>();
        byText.forEach((text, keys) -> {
            if (keys.size() > 1) {
                shared.add(new SharedNote(text, keys));
            }
        });
        return new ResultsSummary(headline(all), ExperimentResults.verdictCounts(all), all.size(), shared);
    }

    /**
     * The metrics an experiment leads with: those of {@link MetricKeys#HEADLINE} that both variants measured, or,
     * when there are none (uploads, command experiments), the first {@value #HEADLINE_SIZE} that both measured, those
     * that measure time or throughput first ({@link LeadingMetrics}).
     */
    public static List<MetricComparison> headline(List<MetricComparison> all) {
        List<MetricComparison> compared = all.stream().filter(MetricComparison::bothSides).toList();
        List<MetricComparison> headline = compared.stream().filter(c -> MetricKeys.HEADLINE.contains(c.key()))
                .toList();
        return headline.isEmpty() ? LeadingMetrics.timeFirst(compared, MetricComparison::key,
                c -> c.metric().unit()).stream().limit(HEADLINE_SIZE).toList() : headline;
    }

    /** Why {@code c} could not be compared, if so, then its warnings. */
    private static List<String> notes(MetricComparison c) {
        List<String> notes = new ArrayList<>();
        if (c.error() != null) {
            notes.add(c.error());
        }
        notes.addAll(c.warnings());
        return notes;
    }

    /** Why {@code c}'s verdict is what it is, or, where that is a note said once above, a pointer to it. */
    public String reason(MetricComparison c) {
        return c.error() != null && shared.contains(c.error()) ? "not compared: see the notes above" : c.reason();
    }

    /** The notes of {@code c} that are not said once for several metrics. */
    public List<String> ownNotes(MetricComparison c) {
        return notes(c).stream().filter(n -> !shared.contains(n)).toList();
    }

    /**
     * Which metrics {@code note} concerns, as a page says it first: {@code all 13 metrics}, or
     * {@code 2 metrics: a, b}, or a count and the first few ({@code 19 metrics: a, b, c, …}), the rest one click away.
     */
    public String scope(SharedNote note) {
        if (note.metrics() == metrics) {
            return "all " + Format.count(metrics, "metric", "metrics");
        }
        return Format.count(note.metrics(), "metric", "metrics") + ": " + String.join(", ", note.examples())
                + (note.shortened() ? ", …" : "");
    }

    /**
     * Which metrics {@code note} concerns, as an exported report says it: {@code all 13 metrics}, or the count and
     * every one of them, since a report's reader has no click to see the rest.
     */
    public String fullScope(SharedNote note) {
        if (note.metrics() == metrics) {
            return "all " + Format.count(metrics, "metric", "metrics");
        }
        return Format.count(note.metrics(), "metric", "metrics") + ": " + String.join(", ", note.keys());
    }

    public List<MetricComparison> headline() {
        return headline;
    }

    /** Verdict → how many metrics have it, in order of first appearance. */
    public Map<String, Long> verdicts() {
        return verdicts;
    }

    /** How many metrics the experiment has. */
    public int metrics() {
        return metrics;
    }

    public List<SharedNote> notes() {
        return notes;
    }
}
