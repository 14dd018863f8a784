package io.perflab.upload;

import io.perflab.experiment.MetricDefinition;
import io.perflab.stats.Sample;
import io.perflab.system.PrintableText;
import io.perflab.system.Texts;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import tools.jackson.databind.json.JsonMapper;

/** Checks an upload before anything is stored; every message names the field or metric at fault. */
final class UploadValidator {

    static final int MAX_VALUES_PER_METRIC = 100_000;

    private UploadValidator() {
    }

    /**
     * @param known the global metric definitions (units and directions of DESIGN's metrics)
     * @throws InvalidUploadException naming what is wrong
     */
    static ValidUpload validate(ParsedUpload parsed, String requestBenchmark, String requestName, GitInfo requestGit,
            Map<String, MetricDefinition> known, JsonMapper json) {
        String benchmark = requestBenchmark != null && !requestBenchmark.isBlank() ? requestBenchmark
                : parsed.benchmark();
        if (benchmark == null || benchmark.isBlank()) {
            throw new InvalidUploadException("The upload names no benchmark: add \"benchmark\" to the JSON or "
                    + "?benchmark=NAME to the request (perflab upload --benchmark NAME).");
        }
        // strip(), not trim(): trim() drops every character up to U+0020, so a leading escape code was cut off
        // silently instead of refused below; strip() drops what Java counts as white space (spaces, tabs, line
        // breaks and the separators U+001C to U+001F)
        benchmark = Texts.composed(benchmark.strip());
        GitInfo git = requestGit.orElse(parsed.git());
        requireLength("git.repository", git.repository(), 400);
        requireLength("git.branch", git.branch(), 200);
        requireLength("git.commit", git.commit(), 100);
        requireLength("git.baseCommit", git.baseCommit(), 100);
        requireLength("git.pullRequest", git.pullRequest(), 100);
        requireLength("git.defaultBranch", git.defaultBranch(), 200);
        String name = requestName != null && !requestName.isBlank() ? requestName.strip() : parsed.name();
        if (name == null || name.isBlank()) {
            // only a name made here is cut; one given was cut without a word, where POST /experiments refuses it
            name = Texts.cut(benchmark + (git.commit() == null ? "" : " @ " + shortCommit(git.commit())), 200);
        }
        if (name.length() > 200) {
            throw new InvalidUploadException("'name' is longer than 200 characters.");
        }
        if (parsed.variants().isEmpty()) {
            throw new InvalidUploadException("The upload has no metrics.");
        }
        UploadLimits.DEFAULT.check(parsed);
        Map<String, MetricDefinition> metrics = new LinkedHashMap<>();
        Map<String, Said<String>> units = new LinkedHashMap<>();
        Map<String, Said<Boolean>> directions = new LinkedHashMap<>();
        for (Map.Entry<String, VariantSamples> side : parsed.variants().entrySet()) {
            requireLength(side.getKey() + ".label", side.getValue().label(), 200);
            side.getValue().configuration().forEach((setting, value) -> {
                requirePrintable("configuration of '" + side.getKey() + "'", setting, false);
                requirePrintable("configuration '" + setting + "' of '" + side.getKey() + "'", value, true);
            });
            if (!side.getValue().configuration().isEmpty()
                    && json.writeValueAsString(side.getValue().configuration()).length() > 4_000) {
                throw new InvalidUploadException("The configuration of '" + side.getKey() + "' is longer than 4000 "
                        + "characters as JSON.");
            }
            if (side.getValue().metrics().isEmpty()) {
                throw new InvalidUploadException("Variant '" + side.getKey() + "' has no metrics.");
            }
            for (Map.Entry<String, MetricSamples> entry : side.getValue().metrics().entrySet()) {
                String key = entry.getKey();
                MetricSamples samples = entry.getValue();
                checkMetric(side.getKey(), key, samples);
                MetricDefinition definition = known.get(key);
                // a metric's definition is the default unit of a side that gives none; "" is none
                String unit = samples.unit() != null ? samples.unit()
                        : definition != null ? definition.unit() : "";
                sameOnBothSides(key, side.getKey(), units, unit,
                        u -> MetricSamples.describeUnit(MetricSamples.unitOrNull(u)),
                        "Give both sides the same unit (for JMH, run both with the same -tu and -bm).");
                sameOnBothSides(key, side.getKey(), directions, samples.higherIsBetter(),
                        higherIsBetter -> higherIsBetter ? "direction 'higher'" : "direction 'lower'",
                        "Run both sides with the same settings (for JMH, the same -bm).");
                boolean higher = samples.higherIsBetter() != null ? samples.higherIsBetter()
                        : definition != null && definition.higherIsBetter();
                metrics.putIfAbsent(key, new MetricDefinition(key, unit, higher, 0, ""));
            }
        }
        // after the metrics: a harness output's benchmark is named after its metrics, whose message is clearer
        requireLength("benchmark", benchmark, 200);
        requirePrintable("'name'", name, false);
        requirePrintable("machine", parsed.machine(), true);
        parsed.tags().forEach(tag -> requirePrintable("tags", tag, false));
        if (!parsed.machine().isEmpty() && json.writeValueAsString(parsed.machine()).length() > 16_000) {
            throw new InvalidUploadException("'machine' is longer than 16000 characters as JSON.");
        }
        if (!parsed.tags().isEmpty() && json.writeValueAsString(parsed.tags()).length() > 4_000) {
            throw new InvalidUploadException("'tags' are longer than 4000 characters as JSON.");
        }
        return new ValidUpload(benchmark, name, parsed, git, metrics);
    }

    private static void checkMetric(String side, String key, MetricSamples samples) {
        if (key == null || key.isBlank()) {
            throw new InvalidUploadException("A metric of '" + side + "' has an empty name.");
        }
        if (key.length() > 100) {
            throw new InvalidUploadException("Metric '" + UploadText.excerpt(key) + "': the name is longer than 100 "
                    + "characters.");
        }
        requirePrintable("the name of metric '" + key + "'", key, false);
        if (samples.unit() != null && samples.unit().length() > 40) {
            throw new InvalidUploadException("Metric '" + key + "': the unit is longer than 40 characters.");
        }
        requirePrintable("the unit of metric '" + key + "'", samples.unit(), false);
        List<Double> values = samples.values();
        if (values.isEmpty()) {
            throw new InvalidUploadException("Metric '" + key + "' of '" + side + "' has no values; give at least "
                    + "one (two or more per side to compare).");
        }
        if (values.size() > MAX_VALUES_PER_METRIC) {
            throw new InvalidUploadException("Metric '" + key + "' of '" + side + "' has " + values.size()
                    + " values; at most " + MAX_VALUES_PER_METRIC + " are accepted.");
        }
        for (int i = 0; i < values.size(); i++) {
            String problem = Sample.problem(values.get(i));
            if (problem != null) {
                throw new InvalidUploadException("Metric '" + key + "' of '" + side + "': value " + (i + 1) + " "
                        + problem + ".");
            }
        }
    }

    /** What the side {@code side} said of a metric, for the other side's word to be compared with. */
    private record Said<T>(String side, T value) {
    }

    /**
     * Refuses a metric whose two sides say different things of it (e.g. JMH run with {@code -tu us} on one side and
     * {@code -tu ms} on the other, or a unit on one side and none on the other): their values would be compared as
     * if alike. A side whose {@code value} is null says nothing, and takes the other's word.
     *
     * @param describe how a message names a value: {@code unit 'ms'}
     * @param advice what to do, the message's last sentence
     */
    private static <T> void sameOnBothSides(String key, String side, Map<String, Said<T>> said, T value,
            Function<T, String> describe, String advice) {
        if (value == null) {
            return;
        }
        Said<T> before = said.putIfAbsent(key, new Said<>(side, value));
        if (before != null && !before.value().equals(value)) {
            throw new InvalidUploadException("Metric '" + key + "' has " + describe.apply(before.value()) + " in '"
                    + before.side() + "' and " + describe.apply(value) + " in '" + side + "'; its values cannot be "
                    + "compared. " + advice);
        }
    }

    /** Text of bounded length without control characters (names are shown on pages and used in links). */
    private static void requireLength(String field, String value, int max) {
        if (value != null && value.length() > max) {
            throw new InvalidUploadException("'" + field + "' is longer than " + max + " characters.");
        }
        requirePrintable("'" + field + "'", value, false);
    }

    /**
     * Text shown on pages, in reports and on terminals, and every text inside {@code value} when it is a map or a
     * list (a machine description), keys too: no control characters, none that hide or reorder text.
     *
     * @param details whether the text may hold line breaks and tabs (a value of a machine description or a
     *     configuration setting, such as lscpu output); names, keys and units may not
     */
    private static void requirePrintable(String what, Object value, boolean details) {
        if (value instanceof Map<?, ?> map) {
            map.forEach((key, inner) -> {
                requirePrintable(what, key, false);
                requirePrintable(what + " '" + key + "'", inner, details);
            });
        } else if (value instanceof List<?> list) {
            list.forEach(inner -> requirePrintable(what, inner, details));
        } else if (value instanceof String text) {
            int at = PrintableText.Validator.firstProblem(text, details);
            if (at >= 0) {
                throw new InvalidUploadException(Character.toUpperCase(what.charAt(0)) + what.substring(1)
                        + " holds " + PrintableText.Validator.problemAt(text, at) + "; it must be printable text.");
            }
        }
    }

    static String shortCommit(String commit) {
        return commit.matches("[0-9a-fA-F]{12,}") ? commit.substring(0, 10) : commit;
    }
}
