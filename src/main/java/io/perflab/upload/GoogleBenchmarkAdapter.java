package io.perflab.upload;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * Google Benchmark's JSON ({@code --benchmark_format=json} or {@code --benchmark_out}), typically with
 * {@code --benchmark_repetitions}: each {@code iteration} entry is one sample; aggregates (mean, median, stddev,
 * cv) are ignored, as are entries that report an error. Metrics per benchmark {@code run_name}:
 * {@code :real_time} and {@code :cpu_time} in {@code time_unit}, {@code :items_per_second} and
 * {@code :bytes_per_second} (higher is better), and each user counter.
 */
final class GoogleBenchmarkAdapter implements FormatAdapter {

    /** Fields of an entry that are not measurements. */
    private static final Set<String> NOT_METRICS = Set.of("name", "run_name", "run_type", "family_index",
            "per_family_instance_index", "repetitions", "repetition_index", "threads", "iterations", "time_unit",
            "aggregate_name", "aggregate_unit", "label", "error_occurred", "error_message", "real_time", "cpu_time");

    @Override
    public ParsedUpload parse(String content, String variant, String label, UploadLimits.Counter limits) {
        JsonNode root = JsonContent.read(content);
        if (!root.isObject() || !root.has("benchmarks") || !root.get("benchmarks").isArray()) {
            throw UploadFormats.wrongFormat(UploadFormat.GOOGLEBENCHMARK, content);
        }
        SampleCollector samples = new SampleCollector(limits);
        for (JsonNode entry : root.get("benchmarks")) {
            String runType = NativeJsonAdapter.text(entry, "run_type");
            if ("aggregate".equals(runType) || entry.path("error_occurred").asBoolean(false)) {
                continue;
            }
            String name = NativeJsonAdapter.text(entry, "run_name");
            if (name == null) {
                name = NativeJsonAdapter.text(entry, "name");
            }
            String timeUnit = entry.has("time_unit") ? NativeJsonAdapter.text(entry, "time_unit") : "ns";
            add(samples, name + ":real_time", timeUnit, false, entry.get("real_time"));
            add(samples, name + ":cpu_time", timeUnit, false, entry.get("cpu_time"));
            for (Map.Entry<String, JsonNode> field : entry.properties()) {
                if (NOT_METRICS.contains(field.getKey()) || !field.getValue().isNumber()) {
                    continue;
                }
                String unit = switch (field.getKey()) {
                    case "items_per_second" -> "items/s";
                    case "bytes_per_second" -> "B/s";
                    default -> null;
                };
                add(samples, name + ":" + field.getKey(), unit, unit != null, field.getValue());
            }
        }
        if (samples.isEmpty()) {
            throw new UploadFormatException("The Google Benchmark JSON has no 'iteration' entries to use as "
                    + "samples (only aggregates or errors).");
        }
        String benchmark = null;
        JsonNode executable = root.path("context").get("executable");
        if (executable != null && executable.isString()) {
            String path = executable.asString();
            benchmark = path.substring(path.lastIndexOf('/') + 1);
        }
        Map<String, Object> machine = new LinkedHashMap<>();
        JsonNode context = root.get("context");
        if (context != null && context.isObject()) {
            for (String field : new String[] {"host_name", "num_cpus", "mhz_per_cpu", "cpu_scaling_enabled",
                    "library_build_type"}) {
                if (context.has(field)) {
                    machine.put(field, context.get(field).asString());
                }
            }
        }
        ParsedUpload parsed = ParsedUpload.single(benchmark, variant, label, samples.metrics());
        return new ParsedUpload(parsed.benchmark(), null, parsed.variants(), null, machine, null);
    }

    private static void add(SampleCollector samples, String key, String unit, boolean higher, JsonNode value) {
        if (value == null || value.isNull()) {
            return;
        }
        if (!value.isNumber()) {
            throw new InvalidUploadException("Metric '" + key + "': " + value + " is not a number.");
        }
        samples.add(key, unit, higher, value.doubleValue());
    }
}
