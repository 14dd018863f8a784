package io.perflab.upload;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Go's {@code go test -bench … -count N} output: every result line is one sample, and every value/unit pair of
 * the line (ns/op, B/op, allocs/op, MB/s, custom units from {@code b.ReportMetric}) is a metric keyed
 * {@code Name:unit}, where Name drops the {@code Benchmark} prefix and the {@code -GOMAXPROCS} suffix.
 * {@code goos}, {@code goarch}, {@code cpu} and {@code pkg} lines describe the machine and name the benchmark.
 */
final class GoBenchAdapter implements FormatAdapter {

    private static final Pattern RESULT = Pattern.compile("^Benchmark(\\S*)\\s+(\\d+)\\s+(.+)$");
    private static final Pattern PROCS = Pattern.compile("-\\d+$");
    private static final Pattern CONFIG = Pattern.compile("^(goos|goarch|pkg|cpu):\\s*(.*)$");

    @Override
    public ParsedUpload parse(String content, String variant, String label, UploadLimits.Counter limits) {
        SampleCollector samples = new SampleCollector(limits);
        Map<String, Object> machine = new LinkedHashMap<>();
        String pkg = null;
        int lineNumber = 0;
        for (String line : content.lines().toList()) {
            lineNumber++;
            Matcher config = CONFIG.matcher(line.trim());
            if (config.matches()) {
                if (config.group(1).equals("pkg")) {
                    pkg = config.group(2).trim();
                } else {
                    machine.put(config.group(1), config.group(2).trim());
                }
                continue;
            }
            Matcher result = RESULT.matcher(line.trim());
            if (!result.matches()) {
                continue;
            }
            String name = PROCS.matcher(result.group(1)).replaceFirst("");
            name = name.isEmpty() ? "Benchmark" : name;
            String[] fields = result.group(3).trim().split("\\s+");
            if (fields.length % 2 != 0) {
                throw new InvalidUploadException("Go benchmark line " + lineNumber + " ('" + line.trim()
                        + "') does not consist of value/unit pairs.");
            }
            for (int i = 0; i < fields.length; i += 2) {
                String unit = fields[i + 1];
                String key = name + ":" + unit;
                double value;
                try {
                    value = Double.parseDouble(fields[i]);
                } catch (NumberFormatException e) {
                    throw new InvalidUploadException("Metric '" + key + "' (line " + lineNumber + "): '" + fields[i]
                            + "' is not a number.");
                }
                samples.add(key, unit, SampleCollector.isRate(unit), value);
            }
        }
        if (samples.isEmpty()) {
            throw UploadFormats.wrongFormat(UploadFormat.GOBENCH, content);
        }
        ParsedUpload parsed = ParsedUpload.single(pkg, variant, label, samples.metrics());
        return new ParsedUpload(parsed.benchmark(), null, parsed.variants(), null, machine, null);
    }
}
