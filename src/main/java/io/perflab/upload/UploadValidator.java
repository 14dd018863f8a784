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

/**
 * Checks an upload before anything is stored; every message names the field or metric at fault, and every refusal
 * says where it is as a field ({@link UploadFields}): the request's parameter, the JSON path in PerfLab's JSON, the
 * file of a multipart upload, or none for another tool's output sent as the request body.
 *
 * <p>Over 300 lines: every check an upload passes before it is stored, each saying where its refusal is.
 */
final class UploadValidator {

    static final int MAX_VALUES_PER_METRIC = 100_000;

    /** A git field: its name in the JSON ({@code git.NAME}) and as a request parameter, and its longest text. */
    private record GitField(String name, int max, Function<GitInfo, String> value) {
    }

    private static final List<GitField> GIT_FIELDS = List.of(new GitField("repository", 400, GitInfo::repository),
            new GitField("branch", 200, GitInfo::branch), new GitField("commit", 100, GitInfo::commit),
            new GitField("baseCommit", 100, GitInfo::baseCommit), new GitField("pullRequest", 100,
                    GitInfo::pullRequest), new GitField("defaultBranch", 200, GitInfo::defaultBranch));

    /**
     * Where an upload's content came from, for a refusal to name it.
     *
     * @param parts the files of a multipart body the content is ({@link UploadRequest#parts}); empty for the body
     * @param variantLabel the label {@code ?variant=} gave (a side's label equal to it is the parameter's), or null
     */
    record Source(List<String> parts, String variantLabel) {

        static final Source BODY = new Source(List.of(), null);

        /** The file that {@code side}'s content came from: the one file, or of two the side's own; else null. */
        String file(String side) {
            return parts.size() == 1 ? parts.get(0) : parts.size() == 2 ? side : null;
        }

        /** {@code field} (null when nothing finer is known) in the file {@code side}'s content came from. */
        String in(String side, String field) {
            String file = file(side);
            return file == null ? field : UploadFields.inPart(file, field);
        }
    }

    /**
     * Where a metric's name, unit, direction and values are, for its refusals to name: its JSON path and the paths of
     * its fields in PerfLab's JSON; else each the file it came from, or null.
     *
     * @param indexed whether a value's field is its place in {@code values} ({@code metrics.parse.values[3]})
     */
    private record MetricFields(String metric, String unit, String direction, String values, boolean indexed) {

        /** The fields of the metric at {@code metric} in PerfLab's JSON, whose values are at {@code values}. */
        MetricFields(String metric, String values) {
            this(metric, UploadFields.key(metric, "unit"), UploadFields.key(metric, "direction"), values, true);
        }

        /** Every refusal of the metric naming {@code field}, such as its file, or none. */
        static MetricFields all(String field) {
            return new MetricFields(field, field, field, field, false);
        }

        String value(int index) {
            return indexed ? UploadFields.index(values, index) : values;
        }
    }

    private UploadValidator() {
    }

    /**
     * {@link #validate(ParsedUpload, String, String, GitInfo, Source, Map, JsonMapper)} of content sent as the
     * request body.
     */
    static ValidUpload validate(ParsedUpload parsed, String requestBenchmark, String requestName, GitInfo requestGit,
            Map<String, MetricDefinition> known, JsonMapper json) {
        return validate(parsed, requestBenchmark, requestName, requestGit, Source.BODY, known, json);
    }

    /**
     * @param source where the content came from, for a refusal's field
     * @param known the global metric definitions (units and directions of DESIGN's metrics)
     * @throws InvalidUploadException naming what is wrong
     */
    static ValidUpload validate(ParsedUpload parsed, String requestBenchmark, String requestName, GitInfo requestGit,
            Source source, Map<String, MetricDefinition> known, JsonMapper json) {
        boolean benchmarkGiven = requestBenchmark != null && !requestBenchmark.isBlank();
        String benchmark = benchmarkGiven ? requestBenchmark : parsed.benchmark();
        if (benchmark == null || benchmark.isBlank()) {
            throw new InvalidUploadException("benchmark", "The upload names no benchmark: add \"benchmark\" to the "
                    + "JSON or ?benchmark=NAME to the request (perflab upload --benchmark NAME).");
        }
        // strip(), not trim(): trim() drops every character up to U+0020, so a leading escape code was cut off
        // silently instead of refused below; strip() drops what Java counts as white space (spaces, tabs, line
        // breaks and the separators U+001C to U+001F)
        benchmark = Texts.composed(benchmark.strip());
        // the machine, tags and name of PerfLab's JSON are at their paths, another tool's are said by its text; a
        // two-file upload's are its file 'with''s
        boolean inJson = source.parts().size() == 2 ? parsed.variants().get(ParsedUpload.WITH).fields() != null
                : parsed.variants().values().stream().anyMatch(side -> side.fields() != null);
        GitInfo git = requestGit.orElse(parsed.git());
        for (GitField field : GIT_FIELDS) {
            String given = field.value().apply(requestGit);
            requireLength("git." + field.name(), given != null && !given.isBlank() ? field.name()
                    : "git." + field.name(), field.value().apply(git), field.max());
        }
        boolean nameGiven = requestName != null && !requestName.isBlank();
        String nameField = nameGiven ? "name" : source.in(ParsedUpload.WITH, "name");
        String name = nameGiven ? requestName.strip() : parsed.name();
        if (name == null || name.isBlank()) {
            // only a name made here is cut; one given was cut without a word, where POST /experiments refuses it
            name = Texts.cut(benchmark + (git.commit() == null ? "" : " @ " + shortCommit(git.commit())), 200);
        }
        if (name.length() > 200) {
            throw new InvalidUploadException(nameField, "'name' is longer than 200 characters.");
        }
        if (parsed.variants().isEmpty()) {
            throw new InvalidUploadException(source.file(null), "The upload has no metrics.");
        }
        UploadLimits.DEFAULT.check(parsed);
        Map<String, MetricDefinition> metrics = new LinkedHashMap<>();
        Map<String, Said<String>> units = new LinkedHashMap<>();
        Map<String, Said<Boolean>> directions = new LinkedHashMap<>();
        for (Map.Entry<String, VariantSamples> side : parsed.variants().entrySet()) {
            VariantSamples variant = side.getValue();
            VariantSamples.Fields fields = variant.fields();
            String label = variant.label();
            requireLength(side.getKey() + ".label", label != null && label.equals(source.variantLabel()) ? "variant"
                    : source.in(side.getKey(), fields == null ? null : fields.label()), label, 200);
            String file = source.in(side.getKey(), null);
            variant.configuration().forEach((setting, value) -> {
                requirePrintable("configuration of '" + side.getKey() + "'", file, false, setting, false);
                requirePrintable("configuration '" + setting + "' of '" + side.getKey() + "'", file, false, value,
                        true);
            });
            if (!variant.configuration().isEmpty()
                    && json.writeValueAsString(variant.configuration()).length() > 4_000) {
                throw new InvalidUploadException(file, "The configuration of '" + side.getKey() + "' is longer than "
                        + "4000 characters as JSON.");
            }
            if (variant.metrics().isEmpty()) {
                throw new InvalidUploadException(source.in(side.getKey(), fields == null ? null : fields.metrics()),
                        "Variant '" + side.getKey() + "' has no metrics.");
            }
            for (Map.Entry<String, MetricSamples> entry : variant.metrics().entrySet()) {
                String key = entry.getKey();
                MetricSamples samples = entry.getValue();
                MetricFields at = fields == null ? MetricFields.all(file) : new MetricFields(
                        source.in(side.getKey(), fields.metric(key)), source.in(side.getKey(), fields.values(key)));
                checkMetric(side.getKey(), key, samples, at);
                MetricDefinition definition = known.get(key);
                // a metric's definition is the default unit of a side that gives none; "" is none
                String unit = samples.unit() != null ? samples.unit()
                        : definition != null ? definition.unit() : "";
                sameOnBothSides(key, side.getKey(), units, unit,
                        u -> MetricSamples.describeUnit(MetricSamples.unitOrNull(u)),
                        "Give both sides the same unit (for JMH, run both with the same -tu and -bm).", at.unit());
                sameOnBothSides(key, side.getKey(), directions, samples.higherIsBetter(),
                        higherIsBetter -> higherIsBetter ? "direction 'higher'" : "direction 'lower'",
                        "Run both sides with the same settings (for JMH, the same -bm).", at.direction());
                boolean higher = samples.higherIsBetter() != null ? samples.higherIsBetter()
                        : definition != null && definition.higherIsBetter();
                metrics.putIfAbsent(key, new MetricDefinition(key, unit, higher, 0, ""));
            }
        }
        // after the metrics: a harness output's benchmark is named after its metrics, whose message is clearer
        requireLength("benchmark", benchmarkGiven || inJson ? "benchmark" : source.in(ParsedUpload.WITH, null),
                benchmark, 200);
        requirePrintable("'name'", nameField, false, name, false);
        requirePrintable("machine", source.in(ParsedUpload.WITH, inJson ? "machine" : null), inJson,
                parsed.machine(), true);
        for (int i = 0; i < parsed.tags().size(); i++) {
            requirePrintable("tags", source.in(ParsedUpload.WITH, UploadFields.index("tags", i)), false,
                    parsed.tags().get(i), false);
        }
        if (!parsed.machine().isEmpty() && json.writeValueAsString(parsed.machine()).length() > 16_000) {
            throw new InvalidUploadException(source.in(ParsedUpload.WITH, inJson ? "machine" : null), "'machine' is "
                    + "longer than 16000 characters as JSON.");
        }
        if (!parsed.tags().isEmpty() && json.writeValueAsString(parsed.tags()).length() > 4_000) {
            throw new InvalidUploadException(source.in(ParsedUpload.WITH, "tags"), "'tags' are longer than 4000 "
                    + "characters as JSON.");
        }
        return new ValidUpload(benchmark, name, parsed, git, metrics);
    }

    /** Refuses git fields of an upload's content that are too long or not printable, naming {@code git.NAME}. */
    static void checkGit(GitInfo git) {
        for (GitField field : GIT_FIELDS) {
            requireLength("git." + field.name(), "git." + field.name(), field.value().apply(git), field.max());
        }
    }

    /**
     * Refuses a metric whose name, unit or values cannot be stored.
     *
     * @param fields where they are, for the refusal's field
     */
    private static void checkMetric(String side, String key, MetricSamples samples, MetricFields fields) {
        if (key == null || key.isBlank()) {
            throw new InvalidUploadException(fields.metric(), "A metric of '" + side + "' has an empty name.");
        }
        if (key.length() > 100) {
            throw new InvalidUploadException(fields.metric(), "Metric '" + UploadText.excerpt(key) + "': the name is "
                    + "longer than 100 characters.");
        }
        requirePrintable("the name of metric '" + key + "'", fields.metric(), false, key, false);
        if (samples.unit() != null && samples.unit().length() > 40) {
            throw new InvalidUploadException(fields.unit(), "Metric '" + key + "': the unit is longer than 40 "
                    + "characters.");
        }
        requirePrintable("the unit of metric '" + key + "'", fields.unit(), false, samples.unit(), false);
        List<Double> values = samples.values();
        if (values.isEmpty()) {
            throw new InvalidUploadException(fields.values(), "Metric '" + key + "' of '" + side + "' has no values; "
                    + "give at least one (two or more per side to compare).");
        }
        if (values.size() > MAX_VALUES_PER_METRIC) {
            throw new InvalidUploadException(fields.values(), "Metric '" + key + "' of '" + side + "' has "
                    + values.size() + " values; at most " + MAX_VALUES_PER_METRIC + " are accepted.");
        }
        for (int i = 0; i < values.size(); i++) {
            String problem = Sample.problem(values.get(i));
            if (problem != null) {
                throw new InvalidUploadException(fields.value(i), "Metric '" + key + "' of '" + side + "': value "
                        + (i + 1) + " " + problem + ".");
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
     * @param field where {@code side} says it, for the refusal's field
     */
    private static <T> void sameOnBothSides(String key, String side, Map<String, Said<T>> said, T value,
            Function<T, String> describe, String advice, String field) {
        if (value == null) {
            return;
        }
        Said<T> before = said.putIfAbsent(key, new Said<>(side, value));
        if (before != null && !before.value().equals(value)) {
            throw new InvalidUploadException(field, "Metric '" + key + "' has " + describe.apply(before.value())
                    + " in '" + before.side() + "' and " + describe.apply(value) + " in '" + side + "'; its values "
                    + "cannot be compared. " + advice);
        }
    }

    /**
     * Text of bounded length without control characters (names are shown on pages and used in links).
     *
     * @param name how the message names it: {@code git.commit}
     * @param field where it is, for the refusal's field: {@code git.commit}, or the parameter {@code commit}
     */
    private static void requireLength(String name, String field, String value, int max) {
        if (value != null && value.length() > max) {
            throw new InvalidUploadException(field, "'" + name + "' is longer than " + max + " characters.");
        }
        requirePrintable("'" + name + "'", field, false, value, false);
    }

    /**
     * Text shown on pages, in reports and on terminals, and every text inside {@code value} when it is a map or a
     * list (a machine description), keys too: no control characters, none that hide or reorder text.
     *
     * @param field where {@code value} is, for the refusal's field
     * @param path whether {@code field} is a JSON path, which a text inside {@code value} is named by extending
     *     ({@code machine.cpu}); else a text inside it is named as {@code value} is
     * @param details whether the text may hold line breaks and tabs (a value of a machine description or a
     *     configuration setting, such as lscpu output); names, keys and units may not
     */
    private static void requirePrintable(String what, String field, boolean path, Object value, boolean details) {
        if (value instanceof Map<?, ?> map) {
            map.forEach((key, inner) -> {
                requirePrintable(what, field, false, key, false);
                requirePrintable(what + " '" + key + "'", path ? UploadFields.key(field, String.valueOf(key)) : field,
                        path, inner, details);
            });
        } else if (value instanceof List<?> list) {
            for (int i = 0; i < list.size(); i++) {
                requirePrintable(what, path ? UploadFields.index(field, i) : field, path, list.get(i), details);
            }
        } else if (value instanceof String text) {
            int at = PrintableText.Validator.firstProblem(text, details);
            if (at >= 0) {
                throw new InvalidUploadException(field, Character.toUpperCase(what.charAt(0)) + what.substring(1)
                        + " holds " + PrintableText.Validator.problemAt(text, at) + "; it must be printable text.");
            }
        }
    }

    static String shortCommit(String commit) {
        return commit.matches("[0-9a-fA-F]{12,}") ? commit.substring(0, 10) : commit;
    }
}
