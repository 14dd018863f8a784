package io.perflab.upload;

import java.util.ArrayList;
import java.util.Collection;
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
 * name, and so is one at no GOMAXPROCS the other benchmarks ran at where they ran at 1 ({@code Read/size-1024}
 * beside {@code Join}); a file of that one benchmark alone cannot say, and reads it as its GOMAXPROCS, as benchstat
 * does. The {@code goos}, {@code goarch}, {@code cpu} and {@code pkg} lines are machine details; {@code pkg} names
 * the benchmark. Output of several packages ({@code go test -bench . ./...}) keys each benchmark with its package
 * path below the packages' common parent ({@code a.Join:ns/op}, {@code b.Join:ns/op}), so that benchmarks of one
 * name in different packages are never pooled, and is named after the path the packages share. Values follow
 * {@link DecimalNumbers}' grammar. A line that begins as a result line does ({@code Benchmark…}, white space, a
 * number) but is none (an iteration count below 1, no value/unit pair after it, a value without its unit, a
 * negative value of a unit Go measures itself) is refused with its line and why; what else Go and benchstat's format
 * write (configuration, blank, {@code PASS} and {@code ok} lines, {@code --- BENCH:} logs and their indented lines,
 * a benchmark's own output) is no result. A last line without its line end that was cut off within its pairs is
 * refused too (see {@link #checkLastLine}).
 *
 * <p>Over 300 lines: Go's GOMAXPROCS suffixes, packages and cut-off output each need reading over all lines of
 * both files, and splitting them apart would pass the lines' state between classes.
 */
final class GoBenchAdapter implements FormatAdapter {

    /**
     * The white space at which Go's readers split a result line into fields ({@code strings.Fields}, Go's
     * {@code unicode.IsSpace}), as the inside of a character class: Java's {@code \\s} and U+0085, U+00A0, and the
     * other Unicode spaces and line and paragraph separators. Split by Java's {@code \\s} alone, {@code ns/op}
     * followed by U+2029 was a unit of its own, stored as a metric of its own, one followed by U+0085 was refused,
     * and so was an iteration count followed by any of them ("not a whole number"), or a name (its result line
     * taken for none).
     */
    static final String SPACES = "\\s\\u0085\\u00A0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000";

    /**
     * A line that begins as a result line does: at its start (an indented line is a log's), "Benchmark" and the
     * rest of a name Go gives a benchmark (nothing, or what does not begin with a lower-case letter: Go runs
     * {@code BenchmarkJoin} but not {@code Benchmarking}), white space, and a number, the iteration count; then the
     * rest of the line, whatever it holds ({@link Pattern#DOTALL}): the rest could not hold U+0085, U+2028 or U+2029,
     * which end a line for '.' but not for {@link String#lines()}, so a result line holding one was skipped without a
     * word, its samples lost, and a long one took time growing with the square of its length.
     */
    private static final Pattern RESULT = Pattern.compile("^Benchmark((?![\\p{Ll}" + SPACES + "])[^"
            + SPACES + "]*|)[" + SPACES + "]+([-+.]?\\d[^" + SPACES + "]*)(.*)$", Pattern.DOTALL);
    private static final Pattern ITERATIONS = Pattern.compile("0*[1-9]\\d*");

    /** A run of {@link #SPACES}: the fields of a result line are what lies between them. */
    private static final Pattern GO_SPACE = Pattern.compile("[" + SPACES + "]+");

    /**
     * A unit of b.ReportMetric as such units are written, a quantity per operation or per second ({@code widgets/op},
     * {@code MB/s}): one cut short ({@code allocs/}, {@code allocs/o}, {@code n}) is not of this form.
     */
    private static final Pattern WHOLE_CUSTOM_UNIT = Pattern.compile("[^/\\s]+/(op|s)");

    /**
     * The units Go's testing package measures itself, none of which can be negative. A metric of b.ReportMetric's
     * own may be ("-0.5 delta/op").
     */
    private static final Set<String> MEASURED_BY_GO = Set.of("ns/op", "B/op", "allocs/op", "MB/s");

    private static final Pattern PROCS = Pattern.compile("-(\\d+)$");
    /**
     * A configuration line, its value whatever it holds, as {@link #RESULT}'s rest: a {@code pkg} line holding U+2028
     * was skipped, and the benchmarks after it taken for those of the package before.
     */
    private static final Pattern CONFIG = Pattern.compile("^(goos|goarch|pkg|cpu):\\s*(.*)$", Pattern.DOTALL);

    /**
     * One result line: the package it ran in (the last {@code pkg} line before it, or null), the name without
     * {@code -N}, its GOMAXPROCS (1 when Go printed no suffix), its pairs.
     */
    private record Result(int line, String pkg, String name, int procs, String[] fields) {

        /** The benchmark, told apart from those of the same name in other packages. */
        String id() {
            return pkg == null ? name : pkg + " " + name;
        }
    }

    /**
     * What a content's lines say: machine details, result lines, each benchmark's GOMAXPROCS values (by
     * {@link Result#id()}), and the packages whose benchmarks ran.
     */
    private record Lines(Map<String, Object> machine, List<Result> results, Map<String, Set<Integer>> procsByName,
                         Set<String> packages) {

        static final Lines NONE = new Lines(Map.of(), List.of(), Map.of(), Set.of());
    }

    @Override
    public UploadFormat format() {
        return UploadFormat.GOBENCH;
    }

    @Override
    public String negativeRefusal(String key, String unit) {
        return MEASURED_BY_GO.contains(unit) ? unit + " as Go measures it cannot be" : null;
    }

    @Override
    public ParsedUpload parse(String content, String variant, String label, UploadLimits.Counter limits) {
        return parse(read(content), Lines.NONE, variant, label, limits);
    }

    /**
     * A benchmark keeps its {@code -N} suffix when it ran at several GOMAXPROCS in either file, so that
     * {@code -cpu 1,2} on one side and {@code -cpu 2} on the other meet at {@code Join-2}; and its package when
     * either file ran several, so that a side that ran one of them keys it as the other side does.
     */
    @Override
    public List<ParsedUpload> parseSides(String without, String with, UploadLimits.Counter withoutLimits,
            UploadLimits.Counter withLimits) {
        return parseBoth(without, with, withoutLimits, withLimits, GoBenchAdapter::read,
                (lines, other, variant, limits) -> parse(lines, other, variant, null, limits));
    }

    /** {@code lines} as samples; {@code other} what the other file of the upload says (or {@link Lines#NONE}). */
    private ParsedUpload parse(Lines lines, Lines other, String variant, String label, UploadLimits.Counter limits) {
        Map<String, Object> machine = lines.machine();
        List<Result> results = lines.results();
        Map<String, Set<Integer>> procsByName = lines.procsByName();
        Set<String> allPackages = new LinkedHashSet<>(lines.packages());
        allPackages.addAll(other.packages());
        // as JMH's classes are keyed below their common package: the path below the packages' common parent
        String commonParent = allPackages.size() > 1
                ? commonPath(allPackages.stream().map(GoBenchAdapter::parent).toList()) : null;
        SampleCollector samples = new SampleCollector(limits);
        for (Result result : results) {
            boolean severalProcs = procsByName.get(result.id()).size() > 1
                    || other.procsByName().getOrDefault(result.id(), Set.of()).size() > 1;
            String name = severalProcs ? result.name() + "-" + result.procs() : result.name();
            if (commonParent != null && result.pkg() != null) {
                name = (commonParent.isEmpty() ? result.pkg() : result.pkg().substring(commonParent.length() + 1))
                        + "." + name;
            }
            for (int i = 0; i < result.fields().length; i += 2) {
                String unit = result.fields()[i + 1];
                String key = name + ":" + unit;
                Double value = DecimalNumbers.parse(result.fields()[i]);
                if (value == null) {
                    throw new InvalidUploadException("Metric '" + UploadText.excerpt(key) + "' (line " + result.line()
                            + "): '" + UploadText.excerpt(result.fields()[i]) + "' is not a number.");
                }
                if (value.isInfinite()) {
                    throw new InvalidUploadException("Metric '" + UploadText.excerpt(key) + "' (line " + result.line()
                            + "): " + DecimalNumbers.beyondRange(result.fields()[i]) + ".");
                }
                String refusal = value < 0 ? negativeRefusal(key, unit) : null;
                if (refusal != null) {
                    throw new InvalidUploadException("Metric '" + UploadText.excerpt(key) + "' (line " + result.line()
                            + "): '" + UploadText.excerpt(result.fields()[i]) + "' is negative, which " + refusal
                            + ".");
                }
                samples.add(key, unit, SampleCollector.isRate(unit), value);
            }
        }
        Set<Integer> allProcs = new LinkedHashSet<>();
        procsByName.values().forEach(allProcs::addAll);
        if (allProcs.size() == 1) {
            machine.put("gomaxprocs", allProcs.iterator().next());
        }
        String benchmark = (String) machine.get("pkg");
        if (lines.packages().size() > 1) {
            machine.put("pkg", String.join(", ", lines.packages()));
            String common = commonPath(lines.packages());
            benchmark = common.isEmpty() ? null : common;
        }
        return ParsedUpload.single(benchmark, variant, label, samples.metrics()).withMachine(machine);
    }

    /** {@code example.com/gofix/a} → {@code example.com/gofix}; "" for a path of one segment. */
    private static String parent(String pkg) {
        int slash = pkg.lastIndexOf('/');
        return slash < 0 ? "" : pkg.substring(0, slash);
    }

    /** The longest path, in whole segments, that every one of {@code paths} is or starts with; "" if none. */
    private static String commonPath(Collection<String> paths) {
        String common = null;
        for (String path : paths) {
            if (common == null) {
                common = path;
                continue;
            }
            while (!common.isEmpty() && !path.equals(common) && !path.startsWith(common + "/")) {
                common = parent(common);
            }
        }
        return common == null ? "" : common;
    }

    /** What {@code content}'s lines say; content without a result line is not Go benchmark output. */
    private static Lines read(String content) {
        Map<String, Object> machine = new LinkedHashMap<>();
        List<Result> results = new ArrayList<>();
        Map<String, Set<Integer>> procsByName = new LinkedHashMap<>();
        Set<String> packages = new LinkedHashSet<>();
        int lineNumber = 0;
        for (String raw : content.lines().toList()) {
            lineNumber++;
            // strip(), not trim(): trim() would drop an escape code at the line's end (or its start) without a
            // word; strip() drops white space only, so such a character stays in the value and is refused there
            Matcher config = CONFIG.matcher(raw.strip());
            if (config.matches()) {
                machine.put(config.group(1), config.group(2));
                continue;
            }
            String line = raw.stripTrailing();
            Matcher result = RESULT.matcher(line);
            if (!result.matches()) {
                continue;
            }
            String[] fields = fields(result, line, lineNumber);
            Matcher procs = PROCS.matcher(result.group(1));
            Integer suffix = procs.find() ? gomaxprocs(procs.group(1)) : null;
            String name = suffix == null ? result.group(1) : result.group(1).substring(0, procs.start());
            name = name.isEmpty() ? "Benchmark" : name;
            int gomaxprocs = suffix == null ? 1 : suffix;
            String pkg = (String) machine.get("pkg");
            Result parsed = new Result(lineNumber, pkg, name, gomaxprocs, fields);
            results.add(parsed);
            procsByName.computeIfAbsent(parsed.id(), n -> new LinkedHashSet<>()).add(gomaxprocs);
            if (pkg != null) {
                packages.add(pkg);
            }
        }
        if (results.isEmpty()) {
            throw UploadFormats.wrongFormat(UploadFormat.GOBENCH, content);
        }
        if (!content.endsWith("\n") && !content.endsWith("\r")) {
            checkLastLine(results, lineNumber, content.lines().reduce((a, b) -> b).orElse(""));
        }
        Set<Integer> shared = sharedProcs(procsByName);
        if (shared.contains(1) && !procsByName.values().stream().allMatch(shared::equals)) {
            // Go printed no suffix at GOMAXPROCS 1: a -N that no other benchmark ran at is the name's own
            // (BenchmarkRead/size-1024 at -cpu 1,2 prints Read/size-1024 and Read/size-1024-2)
            results = results.stream().map(r -> shared.contains(r.procs()) ? r
                    : new Result(r.line(), r.pkg(), r.name() + "-" + r.procs(), 1, r.fields())).toList();
            procsByName = new LinkedHashMap<>();
            for (Result r : results) {
                procsByName.computeIfAbsent(r.id(), n -> new LinkedHashSet<>()).add(r.procs());
            }
        }
        return new Lines(machine, results, procsByName, packages);
    }

    /**
     * The value/unit pairs of a line that begins as a result line does, which must be one: such a line that is
     * none was skipped without a word, so that "BenchmarkJoin-8 -1 -5 ns/op", or the last line of output cut off
     * after its iteration count, lost a sample. The iteration count is at least 1 (Go prints b.N), and at least
     * one value/unit pair follows (Go prints ns/op, or what b.ReportMetric put in its place), as benchfmt reads
     * a result line.
     *
     * @param result {@link #RESULT} matched on {@code line}
     */
    private static String[] fields(Matcher result, String line, int lineNumber) {
        // the line as Go's readers split it: fields between runs of white space (Go pads with tabs and spaces)
        String where = "Go benchmark line " + lineNumber + " ('"
                + UploadText.excerpt(String.join(" ", GO_SPACE.split(line))) + "')";
        if (!ITERATIONS.matcher(result.group(2)).matches()) {
            throw new InvalidUploadException(where + ": the iteration count '" + UploadText.excerpt(result.group(2))
                    + "' is not a whole number of at least 1.");
        }
        String[] fields = GO_SPACE.splitAsStream(result.group(3)).filter(field -> !field.isEmpty())
                .toArray(String[]::new);
        if (fields.length == 0) {
            throw new InvalidUploadException(where + " ends after its iteration count: it has no value/unit pair. "
                    + "Was the output cut off?");
        }
        if (fields.length % 2 != 0) {
            throw new InvalidUploadException(where + " does not consist of value/unit pairs: a value has no unit, "
                    + "or the line was cut off.");
        }
        return fields;
    }

    /**
     * A last line without its line end is output cut off, perhaps within its last unit: {@code allocs/op} cut to
     * {@code allocs/} or {@code n}, which would be a metric of its own ({@code Join:allocs/}). It is refused when its
     * last unit is none Go measures, is not whole as b.ReportMetric's units are written ({@code widgets/op}, {@code
     * MB/s}), and no earlier line of the benchmark used it, or when it has fewer value/unit pairs
     * than an earlier line of the benchmark (the pairs after the cut lost).
     *
     * @param lastLine the number of the content's last line
     * @param line that line
     */
    private static void checkLastLine(List<Result> results, int lastLine, String line) {
        Result last = results.get(results.size() - 1);
        if (last.line() != lastLine) {
            return;
        }
        String unit = last.fields()[last.fields().length - 1];
        List<Result> earlier = results.subList(0, results.size() - 1).stream()
                .filter(r -> r.id().equals(last.id())).toList();
        boolean knownUnit = MEASURED_BY_GO.contains(unit) || WHOLE_CUSTOM_UNIT.matcher(unit).matches()
                || earlier.stream().anyMatch(r -> hasUnit(r, unit));
        boolean fewerPairs = earlier.stream().anyMatch(r -> r.fields().length > last.fields().length);
        if (!knownUnit || fewerPairs) {
            throw new InvalidUploadException("Go benchmark line " + lastLine + " ('" + UploadText.excerpt(
                    String.join(" ", GO_SPACE.split(line))) + "') is the last and has no line end: "
                    + "the output was cut off within it, " + (knownUnit
                    ? "as it has fewer value/unit pairs than line " + earlier.stream()
                            .filter(r -> r.fields().length > last.fields().length).findFirst().orElseThrow().line()
                    : "as its last unit '" + UploadText.excerpt(unit) + "' is none Go measures (ns/op, B/op, "
                            + "allocs/op, MB/s) and no earlier line of the benchmark used it")
                    + ". Upload the whole output.");
        }
    }

    private static boolean hasUnit(Result result, String unit) {
        for (int i = 1; i < result.fields().length; i += 2) {
            if (result.fields()[i].equals(unit)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The GOMAXPROCS values the run's benchmarks ran at: Go runs every benchmark at each value of {@code -cpu}, so
     * it is the set most of them have; of sets that as many have, one with 1 (the only value Go prints no suffix
     * for, so the only one whose benchmarks' own {@code -N} can be mistaken for a GOMAXPROCS).
     */
    private static Set<Integer> sharedProcs(Map<String, Set<Integer>> procsByName) {
        Map<Set<Integer>, Integer> counts = new LinkedHashMap<>();
        procsByName.values().forEach(set -> counts.merge(set, 1, Integer::sum));
        Set<Integer> shared = Set.of();
        int most = 0;
        for (Map.Entry<Set<Integer>, Integer> set : counts.entrySet()) {
            if (set.getValue() > most || (set.getValue() == most && set.getKey().contains(1)
                    && !shared.contains(1))) {
                shared = set.getKey();
                most = set.getValue();
            }
        }
        return shared;
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
