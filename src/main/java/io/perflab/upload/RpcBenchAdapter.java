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
 *
 * <p>A value is read whole, by {@link DecimalNumbers}' grammar and in the one unit the tool writes for its line;
 * what else stands there ({@code 9,135.95}, {@code 150.225ms}), a negative value the tool cannot write, a metric line
 * repeated within a report and a last line without its line end (output cut off) are refused naming the line.
 */
final class RpcBenchAdapter implements FormatAdapter {

    private static final Pattern GLOG_PREFIX = Pattern.compile("^[IWEF]\\d{4} \\d{2}:\\d{2}:\\d{2}\\.\\d+\\s+\\d+\\s+"
            + "[^\\]]+\\]\\s?");
    /** C++'s spellings of values that are not finite, passed on for the validator to name the metric. */
    private static final Pattern NOT_FINITE = Pattern.compile("[-+]?(?i:nan|inf)");

    /**
     * A metric line: its label, the metric keys its numbers go to in order, their units, and how the tool writes
     * its value ({@code #} for each number, e.g. {@code #us}); an optional line may carry no number (PerfLab's bench
     * prints "Syscalls per req: not counted (…)" where it cannot count them).
     */
    private record MetricLine(String label, List<String> keys, List<String> units, String layout, String described,
                              boolean optional) {

        MetricLine(String label, List<String> keys, List<String> units, String layout, String described) {
            this(label, keys, units, layout, described, false);
        }

        /**
         * The layout as a pattern, each number a group of whatever stands there, for the grammar to judge. A group
         * before white space ends at a character that is not, and a group with the text after it, but the last, is
         * taken where it first fits and not tried again: tried again at each later place, a line that did not fit
         * took time growing with the square of its length (a GC line of 120 KB that does not end in " ms" took 9 s,
         * one of 16 MB days). A line that does not fit where a group first ends fits at no later place, as a group
         * holds whatever stands there; so a line fits as it did, with the same numbers, but one missing a number
         * ("1 collections,  ms", now not in the layout rather than '' not a number) or holding U+0085, U+2028 or
         * U+2029 (now a group that is not a number rather than not in the layout): refused either way.
         */
        Pattern pattern() {
            StringBuilder regex = new StringBuilder();
            String[] literals = layout.split("#", -1);
            for (int i = 0; i < literals.length; i++) {
                String literal = literals[i];
                String group = i == 0 ? "" : literal.startsWith(" ") ? "(.*?\\S)" : "(.+?)";
                String part = group + (literal.startsWith(" ") ? "\\s++" : "") + (literal.isBlank() ? ""
                        : Pattern.quote(literal.strip()) + (literal.endsWith(" ") ? "\\s*+" : ""));
                regex.append(i > 0 && i < literals.length - 1 ? "(?>" + part + ")" : part);
            }
            return Pattern.compile(regex.toString());
        }
    }

    private static final String REQS_PER_SEC = "Reqs/sec:";
    private static final String MICROSECONDS = "a number followed by 'us' (microseconds)";
    private static final List<MetricLine> METRIC_LINES = List.of(
            new MetricLine(REQS_PER_SEC, List.of(MetricKeys.REQS_PER_SEC), List.of("req/s"), "#", "a number"),
            new MetricLine("User CPU per req:", List.of(MetricKeys.USER_CPU_US_PER_REQ), List.of("us"), "#us",
                    MICROSECONDS),
            new MetricLine("Sys CPU per req:", List.of(MetricKeys.SYS_CPU_US_PER_REQ), List.of("us"), "#us",
                    MICROSECONDS),
            new MetricLine("Ctx Sw. per req:", List.of(MetricKeys.CTX_SWITCHES_PER_REQ), List.of("count"), "#",
                    "a number"),
            new MetricLine("Vol./invol. Ctx Sw. per req:", List.of(MetricKeys.VOLUNTARY_CTX_SWITCHES_PER_REQ,
                    MetricKeys.INVOLUNTARY_CTX_SWITCHES_PER_REQ), List.of("count", "count"), "# / #",
                    "two numbers as '<voluntary> / <involuntary>'"),
            new MetricLine("Syscalls per req:", List.of(MetricKeys.SYSCALLS_PER_REQ), List.of("count"), "#",
                    "a number or 'not counted (…)'", true),
            new MetricLine("Instructions / cycles per req:", List.of(MetricKeys.INSTRUCTIONS_PER_REQ,
                    MetricKeys.CYCLES_PER_REQ), List.of("count", "count"), "# / #",
                    "two numbers as '<instructions> / <cycles>' or 'not counted (…)'", true),
            new MetricLine("Page faults per req:", List.of(MetricKeys.PAGE_FAULTS_PER_REQ), List.of("count"), "#",
                    "a number"),
            new MetricLine("Alloc per req:", List.of(MetricKeys.ALLOC_BYTES_PER_REQ), List.of("bytes"), "# B",
                    "a number followed by ' B' (bytes)"),
            new MetricLine("Latency p50:", List.of(MetricKeys.LATENCY_P50_US), List.of("us"), "#us", MICROSECONDS),
            new MetricLine("Latency p99:", List.of(MetricKeys.LATENCY_P99_US), List.of("us"), "#us", MICROSECONDS),
            new MetricLine("Latency p99.9:", List.of(MetricKeys.LATENCY_P999_US), List.of("us"), "#us",
                    MICROSECONDS),
            new MetricLine("GC:", List.of(MetricKeys.GC_COUNT, MetricKeys.GC_PAUSE_MS), List.of("count", "ms"),
                    "# collections, # ms", "'<count> collections, <pause> ms'"));

    /**
     * Whether {@code content} holds the line every report has, read as {@link #parse} reads it: "Reqs/sec:" after the
     * glog prefix, if any, and white space (within another line's text, it made other formats look like reports).
     */
    static boolean holdsReport(String content) {
        return content.contains(REQS_PER_SEC) && content.lines().anyMatch(raw -> GLOG_PREFIX.matcher(raw)
                .replaceFirst("").strip().startsWith(REQS_PER_SEC));
    }

    private static final Map<MetricLine, Pattern> LAYOUTS = METRIC_LINES.stream()
            .collect(Collectors.toMap(line -> line, MetricLine::pattern));

    /** What the tool measures as a count, a rate or a time since a start, none of which it can write negative. */
    private static final Set<String> NEVER_NEGATIVE = Set.of(MetricKeys.REQS_PER_SEC, MetricKeys.GC_COUNT,
            MetricKeys.GC_PAUSE_MS, MetricKeys.LATENCY_P50_US, MetricKeys.LATENCY_P99_US, MetricKeys.LATENCY_P999_US);

    /** A key of a report whose configuration differs from others' is prefixed by it: {@code mode=Async,…:key}. */
    @Override
    public String negativeRefusal(String key, String unit) {
        String metric = key.substring(key.lastIndexOf(':') + 1);
        return NEVER_NEGATIVE.contains(metric) ? metric + " as rpc-bench writes it cannot be" : null;
    }

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

    /** One report: its settings, its values by metric key and the line each metric line was on. */
    private record Report(Map<String, String> settings, Map<String, Double> values, Map<String, Integer> lines) {

        Report() {
            this(new LinkedHashMap<>(), new LinkedHashMap<>(), new LinkedHashMap<>());
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

    /**
     * The reports that have values, in order. A last line without its line end is output cut off, its value
     * perhaps cut short ({@code 4044.8us} → {@code 40}) and what followed it missing, and is refused as such.
     */
    private List<Report> reports(String content) {
        List<Report> reports = new ArrayList<>();
        Report current = new Report();
        List<String> lines = content.lines().toList();
        int cutOff = content.endsWith("\n") || content.endsWith("\r") ? -1 : lines.size();
        int lineNumber = 0;
        for (String raw : lines) {
            lineNumber++;
            String line = GLOG_PREFIX.matcher(raw).replaceFirst("").strip();
            boolean setting = line.startsWith(ENGINE_OPTIONS) || SETTINGS.keySet().stream().anyMatch(line::startsWith);
            MetricLine known = METRIC_LINES.stream().filter(m -> line.startsWith(m.label())).findFirst().orElse(null);
            if (lineNumber == cutOff && (setting || known != null)) {
                throw new InvalidUploadException("The rpc-bench output is cut off at line " + lineNumber + " ('"
                        + UploadText.excerpt(line) + "'): it ends without a line end, so the line may have lost "
                        + "part of its value and the lines after it are missing. Upload the whole output.");
            }
            if (line.startsWith("Mode:") && !current.isEmpty()) {
                reports.add(current);
                current = new Report();
            }
            if (setting) {
                readSetting(line, current.settings());
            } else if (known != null) {
                if (current.values().containsKey(known.keys().get(0))) {
                    if (!current.settings().isEmpty()) {
                        throw new InvalidUploadException("Line " + lineNumber + " ('" + UploadText.excerpt(line)
                                + "') repeats '" + known.label() + "' of line " + current.lines().get(known.label())
                                + " in the same report; rpc-bench writes it once a report, and a report begins at "
                                + "its 'Mode:' line.");
                    }
                    reports.add(current);
                    current = new Report();
                }
                current.lines().put(known.label(), lineNumber);
                current.values().putAll(values(known, line, lineNumber));
            }
        }
        if (!current.isEmpty()) {
            reports.add(current);
        }
        reports.removeIf(report -> report.values().isEmpty());
        return reports;
    }

    /** A configuration line's setting (or the engine options' settings), put into {@code settings}. */
    private static void readSetting(String line, Map<String, String> settings) {
        if (line.startsWith(ENGINE_OPTIONS)) {
            for (String option : line.substring(ENGINE_OPTIONS.length()).strip().split("\\s+")) {
                int equals = option.indexOf('=');
                if (equals > 0) {
                    settings.put(option.substring(0, equals), option.substring(equals + 1));
                }
            }
            return;
        }
        String label = SETTINGS.keySet().stream().filter(line::startsWith).findFirst().orElseThrow();
        settings.put(SETTINGS.get(label), line.substring(label.length()).strip());
    }

    /**
     * The values of a metric line by key: the whole of what follows its label, as the tool writes it (its
     * {@link MetricLine#layout() layout}: each number in the grammar of {@link DecimalNumbers}, in the line's
     * unit), or it is refused naming the line, what it holds and what was expected.
     */
    private Map<String, Double> values(MetricLine known, String line, int lineNumber) {
        String rest = line.substring(known.label().length()).strip();
        if (known.optional() && rest.startsWith("not counted")) {
            return Map.of();
        }
        Matcher layout = LAYOUTS.get(known).matcher(rest);
        if (!layout.matches()) {
            throw new InvalidUploadException("Line " + lineNumber + " ('" + UploadText.excerpt(line) + "'): after '"
                    + known.label() + "' rpc-bench writes " + known.described() + "; the line holds "
                    + (rest.isEmpty() ? "nothing" : "'" + UploadText.excerpt(rest) + "'") + ".");
        }
        Map<String, Double> values = new LinkedHashMap<>();
        for (int i = 0; i < known.keys().size(); i++) {
            String key = known.keys().get(i);
            String number = layout.group(i + 1).strip();
            String where = "Metric '" + key + "' (line " + lineNumber + ": '" + UploadText.excerpt(line) + "'): ";
            Double value = DecimalNumbers.parse(number);
            if (value == null && NOT_FINITE.matcher(number).matches()) {
                // C++'s "nan" and "inf", as Java spells them; the validator then says which metric is not finite
                value = Double.parseDouble(number.replaceAll("(?i)inf$", "Infinity").replaceAll("(?i)nan$", "NaN"));
            } else if (value == null) {
                throw new InvalidUploadException(where + "'" + UploadText.excerpt(number) + "' is not a number.");
            } else if (value.isInfinite()) {
                throw new InvalidUploadException(where + DecimalNumbers.beyondRange(number) + ".");
            } else if (value < 0 && negativeRefusal(key, known.units().get(i)) != null) {
                throw new InvalidUploadException(where + "'" + number + "' is negative, which rpc-bench never "
                        + "writes after '" + known.label() + "'.");
            }
            values.put(key, value);
        }
        return values;
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
