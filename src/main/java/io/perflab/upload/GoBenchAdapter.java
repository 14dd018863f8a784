package io.perflab.upload;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Go's {@code go test -bench … -count N} output: every result line is one sample, and every value/unit pair of
 * the line (ns/op, B/op, allocs/op, MB/s, custom units from {@code b.ReportMetric}) is a metric keyed
 * {@code Name:unit}, where Name drops the {@code Benchmark} prefix. The {@code -N} GOMAXPROCS suffix is dropped
 * too when every line of a benchmark has the same one (then it is the machine detail {@code gomaxprocs}); runs with
 * {@code -cpu 1,2,4} keep it, so that each GOMAXPROCS is its own metric ({@code Join-1}, {@code Join-2},
 * {@code Join-4}: Go prints no suffix for 1). A suffix too large for a GOMAXPROCS (beyond an int) is part of the
 * name. The {@code goos}, {@code goarch}, {@code cpu} and {@code pkg} lines
 * are machine details; {@code pkg} names the benchmark. Values follow {@link DecimalNumbers}' grammar.
 */
final class GoBenchAdapter implements FormatAdapter {

    private static final Pattern RESULT = Pattern.compile("^Benchmark(\\S*)\\s+(\\d+)\\s+(.+)$");
    private static final Pattern PROCS = Pattern.compile("-(\\d+)$");
    private static final Pattern CONFIG = Pattern.compile("^(goos|goarch|pkg|cpu):\\s*(.*)$");

    /** One result line: the name without {@code -N}, its GOMAXPROCS (1 when Go printed no suffix), its pairs. */
    private record Result(int line, String name, int procs, String[] fields) {
    }

    /** What a content's lines say: machine details, result lines, and each name's GOMAXPROCS values. */
    private record Lines(Map<String, Object> machine, List<Result> results, Map<String, Set<Integer>> procsByName) {
    }

    @Override
    public ParsedUpload parse(String content, String variant, String label, UploadLimits.Counter limits) {
        return parse(read(content), Map.of(), variant, label, limits, content);
    }

    /**
     * A benchmark keeps its {@code -N} suffix when it ran at several GOMAXPROCS in either file, so that
     * {@code -cpu 1,2} on one side and {@code -cpu 2} on the other meet at {@code Join-2}.
     */
    @Override
    public List<ParsedUpload> parseSides(String without, String with, UploadLimits.Counter withoutLimits,
            UploadLimits.Counter withLimits) {
        Lines withoutLines = read(without);
        Lines withLines = read(with);
        return List.of(parse(withoutLines, withLines.procsByName(), ParsedUpload.WITHOUT, null, withoutLimits, without),
                parse(withLines, withoutLines.procsByName(), ParsedUpload.WITH, null, withLimits, with));
    }

    /** {@code lines} as samples; {@code otherProcs} the GOMAXPROCS values of the other file's benchmarks. */
    private static ParsedUpload parse(Lines lines, Map<String, Set<Integer>> otherProcs, String variant, String label,
            UploadLimits.Counter limits, String content) {
        Map<String, Object> machine = lines.machine();
        List<Result> results = lines.results();
        Map<String, Set<Integer>> procsByName = lines.procsByName();
        SampleCollector samples = new SampleCollector(limits);
        for (Result result : results) {
            boolean severalProcs = procsByName.get(result.name()).size() > 1
                    || otherProcs.getOrDefault(result.name(), Set.of()).size() > 1;
            String name = severalProcs ? result.name() + "-" + result.procs() : result.name();
            for (int i = 0; i < result.fields().length; i += 2) {
                String unit = result.fields()[i + 1];
                String key = name + ":" + unit;
                Double value = DecimalNumbers.parse(result.fields()[i]);
                if (value == null) {
                    throw new InvalidUploadException("Metric '" + key + "' (line " + result.line() + "): '"
                            + result.fields()[i] + "' is not a number.");
                }
                samples.add(key, unit, SampleCollector.isRate(unit), value);
            }
        }
        if (samples.isEmpty()) {
            throw UploadFormats.wrongFormat(UploadFormat.GOBENCH, content);
        }
        Set<Integer> allProcs = new LinkedHashSet<>();
        procsByName.values().forEach(allProcs::addAll);
        if (allProcs.size() == 1) {
            machine.put("gomaxprocs", allProcs.iterator().next());
        }
        return ParsedUpload.single((String) machine.get("pkg"), variant, label, samples.metrics())
                .withMachine(machine);
    }

    private static Lines read(String content) {
        Map<String, Object> machine = new LinkedHashMap<>();
        List<Result> results = new ArrayList<>();
        Map<String, Set<Integer>> procsByName = new LinkedHashMap<>();
        int lineNumber = 0;
        for (String raw : content.lines().toList()) {
            lineNumber++;
            // strip(), not trim(): trim() would drop an escape code at the line's end (or its start) without a
            // word; strip() drops white space only, so such a character stays in the value and is refused there
            String line = raw.strip();
            Matcher config = CONFIG.matcher(line);
            if (config.matches()) {
                machine.put(config.group(1), config.group(2));
                continue;
            }
            Matcher result = RESULT.matcher(line);
            if (!result.matches()) {
                continue;
            }
            Matcher procs = PROCS.matcher(result.group(1));
            Integer suffix = procs.find() ? gomaxprocs(procs.group(1)) : null;
            String name = suffix == null ? result.group(1) : result.group(1).substring(0, procs.start());
            name = name.isEmpty() ? "Benchmark" : name;
            int gomaxprocs = suffix == null ? 1 : suffix;
            String[] fields = result.group(3).split("\\s+");
            if (fields.length % 2 != 0) {
                throw new InvalidUploadException("Go benchmark line " + lineNumber + " ('" + line
                        + "') does not consist of value/unit pairs.");
            }
            results.add(new Result(lineNumber, name, gomaxprocs, fields));
            procsByName.computeIfAbsent(name, n -> new LinkedHashSet<>()).add(gomaxprocs);
        }
        return new Lines(machine, results, procsByName);
    }

    /** The GOMAXPROCS a {@code -N} suffix says, or null when N cannot be one (it does not fit an int). */
    private static Integer gomaxprocs(String digits) {
        try {
            return Integer.parseInt(digits);
        } catch (NumberFormatException tooLarge) {
            return null;
        }
    }
}
