package io.perflab.upload;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * Google Benchmark's JSON ({@code --benchmark_format=json} or {@code --benchmark_out}), typically with
 * {@code --benchmark_repetitions}: each {@code iteration} entry is one sample; aggregates (mean, median, stddev,
 * cv) are ignored, as are entries that report an error or were skipped ({@code SkipWithMessage}). Metrics per
 * benchmark {@code run_name}: {@code :real_time} and {@code :cpu_time} in {@code time_unit} (ns when empty or absent),
 * {@code :items_per_second} and {@code :bytes_per_second} (higher is better), and each user counter. The benchmark
 * is named after the file name of the context's {@code executable}. The context's {@code host_name},
 * {@code executable}, {@code num_cpus}, {@code mhz_per_cpu}, {@code cpu_scaling_enabled} and
 * {@code library_build_type} are machine details; a debug build of the library, enabled CPU frequency scaling and
 * entries left out are warnings, as Google Benchmark itself prints them. An entry without a name, in a time unit
 * Google Benchmark does not write, or that is no object, and a context that is no object or entries that are no list,
 * are refused naming them.
 */
final class GoogleBenchmarkAdapter implements FormatAdapter {

    /** Fields of an entry that are not measurements. */
    private static final Set<String> NOT_METRICS = Set.of("name", "run_name", "run_type", "family_index",
            "per_family_instance_index", "repetitions", "repetition_index", "threads", "iterations", "time_unit",
            "aggregate_name", "aggregate_unit", "label", "error_occurred", "error_message", "skipped", "skip_message",
            "real_time", "cpu_time");

    /** The time unit of an entry that names none ({@code benchmark::kNanosecond}). */
    private static final String DEFAULT_TIME_UNIT = "ns";

    /** The time units Google Benchmark writes ({@code GetTimeUnitString}). */
    private static final List<String> TIME_UNITS = List.of("ns", "us", "ms", "s");

    /** The fields of an entry that are times or rates the library measures, never below 0. */
    private static final List<String> NEVER_NEGATIVE = List.of("real_time", "cpu_time", "items_per_second",
            "bytes_per_second");

    /** Context fields kept as machine details. */
    private static final List<String> MACHINE_FIELDS = List.of("host_name", "executable", "num_cpus",
            "mhz_per_cpu", "cpu_scaling_enabled", "library_build_type");

    @Override
    public UploadFormat format() {
        return UploadFormat.GOOGLEBENCHMARK;
    }

    /** The times and rates {@link #requireNotNegative} refuses below 0, keyed {@code name:field}; counters may be. */
    @Override
    public String negativeRefusal(String key, String unit) {
        String field = key.substring(key.lastIndexOf(':') + 1);
        return NEVER_NEGATIVE.contains(field) ? "a " + field + " as Google Benchmark measures it cannot be" : null;
    }

    @Override
    public ParsedUpload parse(String content, String variant, String label, UploadLimits.Counter limits) {
        JsonNode root = JsonContent.read(content);
        if (!root.isObject() || !root.has("benchmarks")) {
            throw UploadFormats.wrongFormat(UploadFormat.GOOGLEBENCHMARK, content);
        }
        if (!root.get("benchmarks").isArray()) {
            // was "not in the format 'googlebenchmark' … found a JSON object with the fields [context, benchmarks]
            // (it looks like googlebenchmark)"
            throw new InvalidUploadException("benchmarks", "The Google Benchmark JSON's 'benchmarks' must be a list "
                    + "of its runs, as Google Benchmark writes it; " + NativeJsonAdapter.got(root.get("benchmarks"))
                    + ".");
        }
        JsonNode context = root.path("context");
        if (!context.isMissingNode() && !context.isNull() && !context.isObject()) {
            throw new InvalidUploadException("context",
                    "The Google Benchmark JSON's 'context' must be an object, as Google "
                    + "Benchmark writes it, or left out; " + NativeJsonAdapter.got(context) + ".");
        }
        SampleCollector samples = new SampleCollector(limits);
        List<String> warnings = new ArrayList<>();
        JsonNode entries = root.get("benchmarks");
        for (int index = 0; index < entries.size(); index++) {
            JsonNode entry = entries.get(index);
            String where = "Google Benchmark entry " + (index + 1);
            String at = UploadFields.index("benchmarks", index);
            if (!entry.isObject()) {
                throw new InvalidUploadException(at, where + " must be an object, as Google Benchmark writes each run; "
                        + NativeJsonAdapter.got(entry) + ".");
            }
            String name = name(entry, "name", where, at);
            String timeUnit = timeUnit(entry, where + " ('" + UploadText.shown(name) + "')", at);
            String runType = NativeJsonAdapter.text(entry, "run_type", "", at);
            if ("aggregate".equals(runType)) {
                continue;
            }
            if (entry.path("error_occurred").asBoolean(false)) {
                warnings.add("Google Benchmark entry '" + UploadText.excerpt(name) + "' reported an error"
                        + message(entry, "error_message", at) + "; it was left out.");
                continue;
            }
            if (entry.path("skipped").asBoolean(false)) {
                // SkipWithMessage: the entry still carries times, the zeros of a run that did not run
                warnings.add("Google Benchmark entry '" + UploadText.excerpt(name) + "' was skipped"
                        + message(entry, "skip_message", at) + "; it was left out.");
                continue;
            }
            // where the library writes it, the name the run's aggregates share (BM_a/8 of BM_a/8_mean)
            JsonNode runName = entry.get("run_name");
            if (runName != null && !runName.isNull()) {
                name = name(entry, "run_name", where, at);
            }
            requireNotNegative(entry, where + " ('" + UploadText.shown(name) + "')", at);
            add(samples, name + ":real_time", timeUnit, false, entry.get("real_time"), where, at, "real_time");
            add(samples, name + ":cpu_time", timeUnit, false, entry.get("cpu_time"), where, at, "cpu_time");
            for (Map.Entry<String, JsonNode> field : entry.properties()) {
                if (NOT_METRICS.contains(field.getKey()) || !field.getValue().isNumber()) {
                    continue;
                }
                String unit = switch (field.getKey()) {
                    case "items_per_second" -> "items/s";
                    case "bytes_per_second" -> "B/s";
                    default -> null;
                };
                add(samples, name + ":" + field.getKey(), unit, unit != null, field.getValue(), where, at,
                        field.getKey());
            }
        }
        if (samples.isEmpty()) {
            throw new UploadFormatException("benchmarks",
                    "The Google Benchmark JSON has no 'iteration' entries to use as "
                    + "samples (only aggregates or errors).");
        }
        String benchmark = null;
        JsonNode executable = context.get("executable");
        if (executable != null && executable.isString()) {
            // argv[0]: a path with '/' or, on Windows, a backslash
            String path = executable.asString();
            benchmark = path.substring(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
            benchmark = benchmark.isBlank() ? null : benchmark;
        }
        Map<String, Object> machine = new LinkedHashMap<>();
        for (String field : MACHINE_FIELDS) {
            JsonNode value = context.get(field);
            if (value != null && value.isValueNode() && !value.isNull()) {
                machine.put(field, JsonContent.MAPPER.convertValue(value, Object.class));
            }
        }
        if ("debug".equalsIgnoreCase(NativeJsonAdapter.text(context, "library_build_type", "", "context"))) {
            warnings.add("The Google Benchmark library was built as debug (library_build_type \"debug\"): "
                    + "timings may be affected. Compare builds of the library in release mode.");
        }
        if (context.path("cpu_scaling_enabled").asBoolean(false)) {
            warnings.add("CPU frequency scaling was enabled on the benchmark machine (cpu_scaling_enabled): "
                    + "real-time measurements may be noisy.");
        }
        return ParsedUpload.single(benchmark, variant, label, samples.metrics()).withMachine(machine)
                .withWarnings(warnings);
    }

    /**
     * The benchmark's name in {@code field}, which Google Benchmark writes for every entry: an entry named null was
     * stored as the metrics {@code null:real_time} and {@code null:cpu_time}.
     *
     * @param where the entry, for the message: "Google Benchmark entry 2"
     * @param at the entry's path, for the refusal's field: {@code benchmarks[1]}
     */
    private static String name(JsonNode entry, String field, String where, String at) {
        JsonNode name = entry.get(field);
        if (name == null || !name.isString() || name.asString().isEmpty()) {
            throw new InvalidUploadException(UploadFields.key(at, field),
                    where + ": '" + field + "' must be the benchmark's name as text; "
                    + NativeJsonAdapter.got(name) + ".");
        }
        return name.asString();
    }

    /**
     * The entry's time unit: one of those Google Benchmark writes, or its default ns where the entry names none
     * (absent, null or ""), as the library would. Another unit was stored as the metrics' unit.
     *
     * @param where the entry, for the message: "Google Benchmark entry 2 ('BM_a')"
     * @param at the entry's path, for the refusal's field: {@code benchmarks[1]}
     */
    private static String timeUnit(JsonNode entry, String where, String at) {
        JsonNode unit = entry.get("time_unit");
        if (unit == null || unit.isNull() || unit.isString() && unit.asString().isEmpty()) {
            return DEFAULT_TIME_UNIT;
        }
        if (!unit.isString() || !TIME_UNITS.contains(unit.asString())) {
            throw new InvalidUploadException(UploadFields.key(at, "time_unit"),
                    where + ": 'time_unit' must be one of Google Benchmark's time units "
                    + String.join(", ", TIME_UNITS.subList(0, TIME_UNITS.size() - 1)) + " or "
                    + TIME_UNITS.get(TIME_UNITS.size() - 1) + "; " + NativeJsonAdapter.got(unit) + ".");
        }
        return unit.asString();
    }

    /**
     * Refuses a negative time or rate, which the library never measures: a real_time of -5 was stored and judged
     * as a run faster than any.
     *
     * @param where the entry, for the message: "Google Benchmark entry 2 ('BM_a')"
     * @param at the entry's path, for the refusal's field: {@code benchmarks[1]}
     */
    private static void requireNotNegative(JsonNode entry, String where, String at) {
        for (String field : NEVER_NEGATIVE) {
            JsonNode value = entry.get(field);
            if (value != null && value.isNumber() && value.doubleValue() < 0) {
                throw new InvalidUploadException(UploadFields.key(at, field),
                        where + ": '" + field + "' is " + value.asString()
                        + ", which Google Benchmark never measures; a time or a rate is at least 0.");
            }
        }
    }

    /**
     * " (the message)" of a warning, or " (without a message)" when the entry gives none.
     *
     * @param at the entry's path, for a refusal's field: {@code benchmarks[1]}
     */
    private static String message(JsonNode entry, String field, String at) {
        String message = NativeJsonAdapter.text(entry, field, "", at);
        return message == null || message.isBlank() ? " (without a message)"
                : " (" + UploadText.excerpt(message) + ")";
    }

    /**
     * @param where the entry, for a message about its unit: "Google Benchmark entry 2"
     * @param at the entry's path, for a refusal's field: {@code benchmarks[1]}
     * @param field the entry's field that holds {@code value}: {@code real_time}
     */
    private static void add(SampleCollector samples, String key, String unit, boolean higher, JsonNode value,
            String where, String at, String field) {
        if (value == null || value.isNull()) {
            return;
        }
        if (!value.isNumber()) {
            throw new InvalidUploadException(UploadFields.key(at, field), "Metric '" + UploadText.excerpt(key)
                    + "': " + UploadText.excerpt(value.toString()) + " is not a number.");
        }
        // the times' unit is the entry's time_unit; a counter's is the same for every entry
        samples.add(key, unit, higher, value.doubleValue(), where, UploadFields.key(at, "time_unit"));
    }
}
