package io.perflab.upload;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * rpc-bench reports: Kudu's (logged through glog, so lines may start with {@code I0526 23:01:41.123456 1234
 * rpc-bench.cc:250] }) and PerfLab's {@code bench}, which adds allocation, latency and GC lines. Several reports
 * one after another are several samples; a report starts at its {@code Mode:} line, or when a metric repeats.
 * Metric keys are DESIGN's ({@code reqs_per_sec}, {@code user_cpu_us_per_req}, …), so units and directions come
 * from their definitions.
 */
final class RpcBenchAdapter implements FormatAdapter {

    private static final Pattern GLOG_PREFIX = Pattern.compile("^[IWEF]\\d{4} \\d{2}:\\d{2}:\\d{2}\\.\\d+\\s+\\d+\\s+"
            + "[^\\]]+\\]\\s?");
    private static final Pattern NUMBER = Pattern.compile("[-+]?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][-+]?\\d+)?|[-+]?(?i:nan|inf)");

    /** Label → metric keys its numbers go to, in order. */
    private static final Map<String, List<String>> LINES = new LinkedHashMap<>();

    static {
        LINES.put("Reqs/sec:", List.of("reqs_per_sec"));
        LINES.put("User CPU per req:", List.of("user_cpu_us_per_req"));
        LINES.put("Sys CPU per req:", List.of("sys_cpu_us_per_req"));
        LINES.put("Ctx Sw. per req:", List.of("ctx_switches_per_req"));
        LINES.put("Vol./invol. Ctx Sw. per req:", List.of("voluntary_ctx_switches_per_req",
                "involuntary_ctx_switches_per_req"));
        LINES.put("Alloc per req:", List.of("alloc_bytes_per_req"));
        LINES.put("Latency p50:", List.of("latency_p50_us"));
        LINES.put("Latency p99:", List.of("latency_p99_us"));
        LINES.put("Latency p99.9:", List.of("latency_p999_us"));
        LINES.put("GC:", List.of("gc_count", "gc_pause_ms"));
    }

    @Override
    public ParsedUpload parse(String content, String variant, String label, UploadLimits.Counter limits) {
        List<Map<String, Double>> reports = new ArrayList<>();
        Map<String, Double> current = new LinkedHashMap<>();
        int lineNumber = 0;
        for (String raw : content.lines().toList()) {
            lineNumber++;
            String line = GLOG_PREFIX.matcher(raw).replaceFirst("").trim();
            if (line.startsWith("Mode:") && !current.isEmpty()) {
                reports.add(current);
                current = new LinkedHashMap<>();
                continue;
            }
            for (Map.Entry<String, List<String>> known : LINES.entrySet()) {
                if (!line.startsWith(known.getKey())) {
                    continue;
                }
                List<String> keys = known.getValue();
                if (current.containsKey(keys.get(0))) {
                    reports.add(current);
                    current = new LinkedHashMap<>();
                }
                Matcher numbers = NUMBER.matcher(line.substring(known.getKey().length()));
                for (String key : keys) {
                    if (!numbers.find()) {
                        throw new InvalidUploadException("Metric '" + key + "' (line " + lineNumber + ": '" + line
                                + "') has no number.");
                    }
                    current.put(key, Double.parseDouble(numbers.group().replaceAll("(?i)inf$", "Infinity")));
                }
                break;
            }
        }
        if (!current.isEmpty()) {
            reports.add(current);
        }
        if (reports.isEmpty()) {
            throw UploadFormats.wrongFormat(UploadFormat.RPCBENCH, content);
        }
        SampleCollector samples = new SampleCollector(limits);
        reports.forEach(report -> report.forEach((key, value) -> samples.add(key, null, null, value)));
        return ParsedUpload.single("rpc-bench", variant, label, samples.metrics());
    }
}
