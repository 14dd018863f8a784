package io.perflab.upload;

import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import tools.jackson.databind.JsonNode;

/**
 * JMH's {@code -rf json}: one entry per benchmark and parameter set. Every fork's every measurement iteration
 * ({@code rawData}) is one sample. The primary metric is keyed {@code Class.method[param=value,…]}, each secondary
 * metric (such as {@code gc.alloc.rate.norm} from {@code -prof gc}) {@code Class.method[…]:name}. Throughput
 * modes are higher-is-better, time modes lower; secondary metrics are lower-is-better unless their unit is a rate
 * of operations.
 */
final class JmhAdapter implements FormatAdapter {

    @Override
    public ParsedUpload parse(String content, String variant, String label, UploadLimits.Counter limits) {
        JsonNode root = JsonContent.read(content);
        if (!root.isArray() || root.isEmpty() || !root.get(0).has("primaryMetric")) {
            throw UploadFormats.wrongFormat(UploadFormat.JMH, content);
        }
        SampleCollector samples = new SampleCollector(limits);
        String commonClass = null;
        boolean oneClass = true;
        for (JsonNode entry : root) {
            String benchmark = NativeJsonAdapter.text(entry, "benchmark");
            if (benchmark == null || !entry.has("primaryMetric")) {
                throw UploadFormats.wrongFormat(UploadFormat.JMH, content);
            }
            String className = benchmark.contains(".") ? benchmark.substring(0, benchmark.lastIndexOf('.')) : "";
            oneClass &= commonClass == null || commonClass.equals(className);
            commonClass = className;
            String key = shortName(benchmark) + params(entry.get("params"));
            boolean throughput = "thrpt".equals(NativeJsonAdapter.text(entry, "mode"));
            collect(samples, key, entry.get("primaryMetric"), throughput);
            JsonNode secondary = entry.get("secondaryMetrics");
            if (secondary != null && secondary.isObject()) {
                for (Map.Entry<String, JsonNode> metric : secondary.properties()) {
                    String unit = NativeJsonAdapter.text(metric.getValue(), "scoreUnit");
                    collect(samples, key + ":" + metric.getKey(), metric.getValue(),
                            unit != null && SampleCollector.isRate(unit) && unit.startsWith("ops"));
                }
            }
        }
        if (samples.isEmpty()) {
            throw new UploadFormatException("The JMH results have no 'rawData' samples (modes 'sample' and 'all' "
                    + "keep only histograms); run with -bm avgt, thrpt or ss.");
        }
        String benchmarkName = oneClass && commonClass != null && !commonClass.isEmpty() ? commonClass : null;
        return ParsedUpload.single(benchmarkName, variant, label, samples.metrics());
    }

    private static void collect(SampleCollector samples, String key, JsonNode metric, boolean higherIsBetter) {
        JsonNode raw = metric.get("rawData");
        if (raw == null || !raw.isArray()) {
            return;
        }
        String unit = NativeJsonAdapter.text(metric, "scoreUnit");
        for (JsonNode fork : raw) {
            for (JsonNode value : fork) {
                if (!value.isNumber()) {
                    throw new InvalidUploadException("Metric '" + key + "': a rawData value is not a number: "
                            + value + ".");
                }
                samples.add(key, unit, higherIsBetter, value.doubleValue());
            }
        }
    }

    /** {@code org.example.MyBench.parse} → {@code MyBench.parse}. */
    static String shortName(String benchmark) {
        String[] parts = benchmark.split("\\.");
        return parts.length < 2 ? benchmark : parts[parts.length - 2] + "." + parts[parts.length - 1];
    }

    private static String params(JsonNode params) {
        if (params == null || !params.isObject() || params.isEmpty()) {
            return "";
        }
        Map<String, String> sorted = new TreeMap<>();
        params.properties().forEach(p -> sorted.put(p.getKey(), p.getValue().asString()));
        return sorted.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining(",", "[", "]"));
    }
}
