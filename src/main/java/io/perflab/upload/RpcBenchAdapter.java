package io.perflab.upload;

import io.perflab.runner.trial.MetricKeys;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * rpc-bench reports: Kudu's (logged through glog, so lines may start with {@code I0526 23:01:41.123456 1234
 * rpc-bench.cc:250] }) and PerfLab's {@code bench}, which adds allocation, latency and GC lines. Several reports
 * one after another are several samples; a report starts at its {@code Mode:} line, or when a metric repeats.
 * Metric keys are DESIGN's ({@code reqs_per_sec}, {@code user_cpu_us_per_req}, …).
 *
 * <p>Each report's configuration lines ({@code Mode}, {@code Client threads} or Kudu's async {@code Client
 * reactors} and {@code Call concurrency}, {@code Worker threads}, {@code Server reactors}, {@code Encryption},
 * PerfLab's {@code Stack} and {@code Engine options}) are kept. When every report ran with the same configuration,
 * it is the side's {@link VariantSamples#configuration() configuration} and the keys are plain. Reports of different
 * configurations are never pooled: each configuration is its own benchmark, its keys prefixed by the settings in
 * which it differs from the others ({@code mode=Async,call_concurrency=60:reqs_per_sec}).
 */
final class RpcBenchAdapter implements FormatAdapter {

    private static final Pattern GLOG_PREFIX = Pattern.compile("^[IWEF]\\d{4} \\d{2}:\\d{2}:\\d{2}\\.\\d+\\s+\\d+\\s+"
            + "[^\\]]+\\]\\s?");
    private static final Pattern NUMBER = Pattern.compile(DecimalNumbers.GRAMMAR + "|[-+]?(?i:nan|inf)");

    /**
     * A metric line: its label, the metric keys its numbers go to in order, and their units; an optional line may
     * carry no number (PerfLab's bench prints "Syscalls per req: not counted (…)" where it cannot count them).
     */
    private record MetricLine(String label, List<String> keys, List<String> units, boolean optional) {

        MetricLine(String label, List<String> keys, List<String> units) {
            this(label, keys, units, false);
        }
    }

    private static final List<MetricLine> METRIC_LINES = List.of(
            new MetricLine("Reqs/sec:", List.of(MetricKeys.REQS_PER_SEC), List.of("req/s")),
            new MetricLine("User CPU per req:", List.of(MetricKeys.USER_CPU_US_PER_REQ), List.of("us")),
            new MetricLine("Sys CPU per req:", List.of(MetricKeys.SYS_CPU_US_PER_REQ), List.of("us")),
            new MetricLine("Ctx Sw. per req:", List.of(MetricKeys.CTX_SWITCHES_PER_REQ), List.of("count")),
            new MetricLine("Vol./invol. Ctx Sw. per req:", List.of(MetricKeys.VOLUNTARY_CTX_SWITCHES_PER_REQ,
                    MetricKeys.INVOLUNTARY_CTX_SWITCHES_PER_REQ), List.of("count", "count")),
            new MetricLine("Syscalls per req:", List.of(MetricKeys.SYSCALLS_PER_REQ), List.of("count"), true),
            new MetricLine("Page faults per req:", List.of(MetricKeys.PAGE_FAULTS_PER_REQ), List.of("count"), true),
            new MetricLine("Alloc per req:", List.of(MetricKeys.ALLOC_BYTES_PER_REQ), List.of("bytes")),
            new MetricLine("Latency p50:", List.of(MetricKeys.LATENCY_P50_US), List.of("us")),
            new MetricLine("Latency p99:", List.of(MetricKeys.LATENCY_P99_US), List.of("us")),
            new MetricLine("Latency p99.9:", List.of(MetricKeys.LATENCY_P999_US), List.of("us")),
            new MetricLine("GC:", List.of(MetricKeys.GC_COUNT, MetricKeys.GC_PAUSE_MS), List.of("count", "ms")));

    /** Configuration line label → the setting's name. */
    private static final Map<String, String> SETTINGS = new LinkedHashMap<>();

    static {
        SETTINGS.put("Mode:", "mode");
        SETTINGS.put("Client threads:", "client_threads");
        SETTINGS.put("Client reactors:", "client_reactors");
        SETTINGS.put("Call concurrency:", "call_concurrency");
        SETTINGS.put("Worker threads:", "worker_threads");
        SETTINGS.put("Server reactors:", "server_reactors");
        SETTINGS.put("Encryption:", "encryption");
        SETTINGS.put("Stack:", "stack");
    }

    private static final String ENGINE_OPTIONS = "Engine options:";

    /** One report: its settings and its values by metric key. */
    private record Report(Map<String, String> settings, Map<String, Double> values) {

        Report() {
            this(new LinkedHashMap<>(), new LinkedHashMap<>());
        }

        boolean isEmpty() {
            return settings.isEmpty() && values.isEmpty();
        }
    }

    @Override
    public UploadFormat format() {
        return UploadFormat.RPCBENCH;
    }

    @Override
    public ParsedUpload parse(String content, String variant, String label, UploadLimits.Counter limits) {
        List<Report> reports = reports(content);
        if (reports.isEmpty()) {
            throw UploadFormats.wrongFormat(UploadFormat.RPCBENCH, content);
        }
        Set<String> differing = differingSettings(reports);
        Map<String, String> common = new LinkedHashMap<>(reports.get(0).settings());
        common.keySet().removeAll(differing);
        Map<String, String> units = new LinkedHashMap<>();
        METRIC_LINES.forEach(line -> {
            for (int i = 0; i < line.keys().size(); i++) {
                units.put(line.keys().get(i), line.units().get(i));
            }
        });
        SampleCollector samples = new SampleCollector(limits);
        for (Report report : reports) {
            String prefix = report.settings().entrySet().stream().filter(s -> differing.contains(s.getKey()))
                    .map(s -> s.getKey() + "=" + s.getValue()).collect(Collectors.joining(","));
            report.values().forEach((key, value) -> samples.add(prefix.isEmpty() ? key : prefix + ":" + key,
                    units.get(key), !MetricKeys.lowerIsBetter(key), value));
        }
        return new ParsedUpload("rpc-bench", null, Map.of(variant, new VariantSamples(label, samples.metrics(),
                common)), null, null, null);
    }

    /** The reports that have values, in order. */
    private static List<Report> reports(String content) {
        List<Report> reports = new ArrayList<>();
        Report current = new Report();
        int lineNumber = 0;
        for (String raw : content.lines().toList()) {
            lineNumber++;
            String line = GLOG_PREFIX.matcher(raw).replaceFirst("").strip();
            if (line.startsWith("Mode:") && !current.isEmpty()) {
                reports.add(current);
                current = new Report();
            }
            if (line.startsWith(ENGINE_OPTIONS)) {
                for (String option : line.substring(ENGINE_OPTIONS.length()).strip().split("\\s+")) {
                    int equals = option.indexOf('=');
                    if (equals > 0) {
                        current.settings().put(option.substring(0, equals), option.substring(equals + 1));
                    }
                }
                continue;
            }
            String setting = SETTINGS.keySet().stream().filter(line::startsWith).findFirst().orElse(null);
            if (setting != null) {
                current.settings().put(SETTINGS.get(setting), line.substring(setting.length()).strip());
                continue;
            }
            for (MetricLine known : METRIC_LINES) {
                if (!line.startsWith(known.label())) {
                    continue;
                }
                if (current.values().containsKey(known.keys().get(0))) {
                    reports.add(current);
                    current = new Report();
                }
                String rest = line.substring(known.label().length()).strip();
                Matcher numbers = NUMBER.matcher(rest);
                if (known.optional() && !numbers.lookingAt()) {
                    // "not counted (…)": its reason may hold numbers that are no value
                    break;
                }
                numbers.reset();
                for (String key : known.keys()) {
                    if (!numbers.find()) {
                        throw new InvalidUploadException("Metric '" + key + "' (line " + lineNumber + ": '"
                                + UploadText.excerpt(line) + "') has no number.");
                    }
                    // C++'s "nan" and "inf", as Java spells them; the validator then says which metric is not finite
                    String number = numbers.group();
                    Double decimal = DecimalNumbers.parse(number);
                    if (decimal != null && decimal.isInfinite()) {
                        throw new InvalidUploadException("Metric '" + key + "' (line " + lineNumber + ": '"
                                + UploadText.excerpt(line) + "'): " + DecimalNumbers.beyondRange(number) + ".");
                    }
                    current.values().put(key, decimal != null ? decimal : Double.parseDouble(
                            number.replaceAll("(?i)inf$", "Infinity").replaceAll("(?i)nan$", "NaN")));
                }
                break;
            }
        }
        if (!current.isEmpty()) {
            reports.add(current);
        }
        reports.removeIf(report -> report.values().isEmpty());
        return reports;
    }

    /** Settings whose value (or presence) is not the same in every report. */
    private static Set<String> differingSettings(List<Report> reports) {
        Set<String> names = new LinkedHashSet<>();
        reports.forEach(r -> names.addAll(r.settings().keySet()));
        Set<String> differing = new LinkedHashSet<>();
        for (String name : names) {
            String first = reports.get(0).settings().get(name);
            if (reports.stream().anyMatch(r -> !Objects.equals(first, r.settings().get(name)))) {
                differing.add(name);
            }
        }
        return differing;
    }
}
