package io.perflab.upload;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import tools.jackson.databind.JsonNode;

/**
 * JMH's {@code -rf json}: one entry per benchmark, mode and parameter set. Every fork's every measurement
 * iteration is one sample: its {@code rawData} value, or in {@code sample} mode the mean of the iteration's
 * {@code rawDataHistogram} (what JMH's score averages; its percentiles per iteration are secondary metrics
 * {@code :p0.50} … in JMH's output already). The primary metric is keyed {@code Class.method[param=value,…]},
 * each secondary metric (such as {@code gc.alloc.rate.norm} from {@code -prof gc}) {@code Class.method[…]:name}.
 * Class names are relative to the package all entries share, so classes of the same simple name in different
 * packages stay apart ({@code json.ParseBenchmark.parse}, {@code text.ParseBenchmark.parse}); a benchmark run in
 * several modes has the mode among its parameters ({@code [mode=avgt,parts=8]}). In a two-file upload both rules
 * look at both files, so that a side that ran fewer classes or modes keys what it ran as the other side does.
 * Throughput mode ({@code thrpt}) is higher-is-better, the time modes ({@code avgt}, {@code sample}, {@code ss})
 * lower, and an entry of another mode is refused; secondary metrics are lower-is-better unless their unit is a rate
 * of operations.
 *
 * <p>Secondary values sit beside the primary value of the same fork and iteration. JMH's GC profiler reports
 * {@code gc.time} only for iterations whose GC count or time changed, and {@code gc.alloc.rate.norm} only for
 * iterations that allocated, so their lists can be shorter than the iterations; their values are placed at the
 * iterations where {@code gc.count} (resp. {@code gc.alloc.rate}) is non-zero, and the unreported iterations are
 * 0, which is what the profiler measured there. Another secondary metric with fewer values than iterations cannot
 * be placed, and is left out with a warning.
 *
 * <p>Over 300 lines: the keying over both files, the two kinds of raw data and the placement of the GC profiler's
 * ragged metrics are one format's rules, each checked with the place in the file it refuses.
 */
final class JmhAdapter implements FormatAdapter {

    /** Secondary metrics JMH omits when they are zero → the metric whose non-zero values mark the iterations. */
    private static final Map<String, String> REPORTED_WHEN_NON_ZERO = Map.of(
            "gc.time", "gc.count",
            "gc.alloc.rate.norm", "gc.alloc.rate");

    /** The characters that delimit a key's parameters, which a name or value holding them is quoted for. */
    private static final String KEY_SYNTAX = ",=\"[]";

    /** JMH's modes as its JSON names them: throughput, average time, sample time and single shot. */
    private static final List<String> MODES = List.of("thrpt", "avgt", "sample", "ss");

    /** Fields of an entry that describe the JVM, kept as machine details. */
    private static final List<String> MACHINE_FIELDS = List.of("jmhVersion", "jdkVersion", "vmName", "vmVersion");

    /** How a file's entries are keyed: the package the classes share, and the modes of each benchmark run. */
    private record Keying(String commonPackage, Map<String, Set<String>> modesByRun) {

        /** The keying of every entry of {@code roots}: in a two-file upload, of both files. */
        static Keying of(List<JsonNode> roots) {
            List<String> classes = new ArrayList<>();
            Map<String, Set<String>> modesByRun = new LinkedHashMap<>();
            for (JsonNode root : roots) {
                for (JsonNode entry : root) {
                    String benchmark = NativeJsonAdapter.text(entry, "benchmark");
                    classes.add(className(benchmark));
                    modesByRun.computeIfAbsent(benchmark + params(entry.get("params"), null),
                            k -> new LinkedHashSet<>()).add(String.valueOf(NativeJsonAdapter.text(entry, "mode")));
                }
            }
            return new Keying(JmhAdapter.commonPackage(classes), modesByRun);
        }
    }

    @Override
    public UploadFormat format() {
        return UploadFormat.JMH;
    }

    /**
     * A primary score (refused below 0, {@link #requireNotNegative}) is keyed by its benchmark and parameters,
     * {@code Parse.parse[size=10]}; a secondary metric, which may be negative, adds {@code :name} after them. A
     * benchmark's name holds no colon, and a parameter's value may: only what follows the parameters tells.
     */
    @Override
    public String negativeRefusal(String key, String unit) {
        return key.substring(key.lastIndexOf(']') + 1).contains(":") ? null
                : "a primary score, a time or a throughput as JMH measures it, cannot be";
    }

    @Override
    public ParsedUpload parse(String content, String variant, String label, UploadLimits.Counter limits) {
        JsonNode root = root(content);
        return parse(root, Keying.of(List.of(root)), variant, label, limits);
    }

    /** Both files keyed over both: their common package and modes (see the class). */
    @Override
    public List<ParsedUpload> parseSides(String without, String with, UploadLimits.Counter withoutLimits,
            UploadLimits.Counter withLimits) {
        return parseBoth(without, with, withoutLimits, withLimits, JmhAdapter::root,
                (root, other, variant, limits) -> parse(root, Keying.of(List.of(root, other)), variant, null, limits));
    }

    /**
     * {@code content} read, every entry a JMH result with a benchmark name, one of JMH's modes, parameters of text.
     * Content is JMH's when it is a list whose first entry has a primary metric, as the format is told from content;
     * an entry of it that is no object, or lacks its benchmark or primary metric, is refused naming the entry and
     * what it lacks. It was "not in the format 'jmh' … found a JSON array of 4 elements (it looks like jmh)".
     */
    private static JsonNode root(String content) {
        JsonNode root = JsonContent.read(content);
        if (!root.isArray() || root.isEmpty() || !root.get(0).has("primaryMetric")) {
            throw UploadFormats.wrongFormat(UploadFormat.JMH, content);
        }
        for (int index = 0; index < root.size(); index++) {
            JsonNode entry = root.get(index);
            String at = UploadFields.index(null, index);
            if (!entry.isObject()) {
                throw new InvalidUploadException(at, "JMH entry " + (index + 1) + " must be an object, as JMH writes "
                        + "each result; " + NativeJsonAdapter.got(entry) + ".");
            }
            requireBenchmark(entry, "JMH entry " + (index + 1), at);
            String where = described(entry, index);
            requireMode(entry, where, at);
            JsonNode primary = entry.get("primaryMetric");
            if (primary == null || !primary.isObject()) {
                throw new InvalidUploadException(UploadFields.key(at, "primaryMetric"), where + ": 'primaryMetric' "
                        + "must be an object (its scoreUnit and rawData), as JMH writes it; "
                        + NativeJsonAdapter.got(primary) + ".");
            }
            requireTextParams(entry, "JMH entry " + (index + 1), at);
        }
        return root;
    }

    /** "JMH entry 2 ('a.B.m')", for messages about the entry at {@code index}. */
    private static String described(JsonNode entry, int index) {
        return "JMH entry " + (index + 1) + " ('" + UploadText.shown(NativeJsonAdapter.text(entry, "benchmark")) + "')";
    }

    /**
     * Refuses a benchmark name that is not text naming a method: "" was keyed {@code [parts=8]}, the number 5
     * {@code 5[parts=8]}.
     *
     * @param where the entry, for the message: "JMH entry 2"
     * @param at the entry's path, for the refusal's field: {@code [1]}
     */
    private static void requireBenchmark(JsonNode entry, String where, String at) {
        JsonNode benchmark = entry.get("benchmark");
        if (benchmark == null || !benchmark.isString() || benchmark.asString().isBlank()) {
            throw new InvalidUploadException(UploadFields.key(at, "benchmark"), where + ": 'benchmark' must be the "
                    + "benchmark method's name as text "
                    + "(\"org.example.MyBench.parse\"), as JMH writes it; " + NativeJsonAdapter.got(benchmark) + ".");
        }
    }

    /**
     * Refuses a mode JMH does not have: an entry of mode "zzz" was taken, keyed and judged lower-is-better.
     *
     * @param where the entry, for the message: "JMH entry 2 ('a.B.m')"
     * @param at the entry's path, for the refusal's field: {@code [1]}
     */
    private static void requireMode(JsonNode entry, String where, String at) {
        JsonNode mode = entry.get("mode");
        if (mode == null || !mode.isString() || !MODES.contains(mode.asString())) {
            throw new InvalidUploadException(UploadFields.key(at, "mode"), where + ": 'mode' must be one of JMH's "
                    + "modes "
                    + String.join(", ", MODES.subList(0, MODES.size() - 1)) + " or " + MODES.get(MODES.size() - 1)
                    + "; " + NativeJsonAdapter.got(mode) + ".");
        }
    }

    /**
     * Refuses parameters that are not an object of text values. JMH writes every value as text ({@code "parts":
     * "8"}); keyed as it reads, a null would be {@code a=null} and pool with the text "null", a number 8 with "8".
     * An entry without parameters leaves {@code params} out (or null); one that is not an object ({@code "params":
     * "parts=8"}) was read as none, and pooled benchmarks run with different parameters.
     *
     * @param where the entry, for the message: "JMH entry 2"
     * @param at the entry's path, for the refusal's field: {@code [1]}
     */
    private static void requireTextParams(JsonNode entry, String where, String at) {
        JsonNode params = entry.get("params");
        if (params == null || params.isNull()) {
            return;
        }
        String field = UploadFields.key(at, "params");
        if (!params.isObject()) {
            throw new InvalidUploadException(field, where + ": 'params' must be an object of each parameter's value "
                    + "as text ({\"parts\": \"8\"}), as JMH writes it, or left out; got "
                    + NativeJsonAdapter.kind(params) + ".");
        }
        for (Map.Entry<String, JsonNode> param : params.properties()) {
            if (!param.getValue().isString()) {
                throw new InvalidUploadException(UploadFields.key(field, param.getKey()), where + ": 'params."
                        + UploadText.excerpt(param.getKey()) + "' must be text, as JMH writes every parameter's value "
                        + "(\"parts\": \"8\"), got " + NativeJsonAdapter.kind(param.getValue()) + ".");
            }
        }
    }

    private ParsedUpload parse(JsonNode root, Keying keying, String variant, String label,
            UploadLimits.Counter limits) {
        String commonPackage = keying.commonPackage();
        Map<String, Set<String>> modesByRun = keying.modesByRun();
        SampleCollector samples = new SampleCollector(limits);
        List<String> warnings = new ArrayList<>();
        for (int index = 0; index < root.size(); index++) {
            JsonNode entry = root.get(index);
            String where = "JMH entry " + (index + 1);
            String entryWhere = described(entry, index);
            String at = UploadFields.index(null, index);
            String benchmark = NativeJsonAdapter.text(entry, "benchmark");
            String mode = NativeJsonAdapter.text(entry, "mode");
            boolean severalModes = modesByRun.get(benchmark + params(entry.get("params"), null)).size() > 1;
            String key = benchmark.substring(commonPackage.isEmpty() ? 0 : commonPackage.length() + 1)
                    + params(entry.get("params"), severalModes ? mode : null);
            JsonNode primary = entry.get("primaryMetric");
            List<List<Double>> iterations = primaryValues(key, primary, entryWhere, at);
            if (iterations == null) {
                warnings.add("JMH entry '" + UploadText.excerpt(key) + "' (mode " + mode + ") has neither rawData nor "
                        + "rawDataHistogram, so it has no samples; it was left out.");
                continue;
            }
            requireNotNegative(iterations, primary.has("rawData") ? "rawData" : "rawDataHistogram", mode, entryWhere,
                    at);
            String primaryAt = UploadFields.key(at, "primaryMetric");
            add(samples, key, NativeJsonAdapter.text(primary, "scoreUnit", "", primaryAt), "thrpt".equals(mode),
                    iterations, where, UploadFields.key(primaryAt, "scoreUnit"));
            JsonNode secondary = entry.get("secondaryMetrics");
            if (secondary != null && secondary.isObject()) {
                for (Map.Entry<String, JsonNode> metric : secondary.properties()) {
                    String metricAt = UploadFields.key(UploadFields.key(at, "secondaryMetrics"), metric.getKey());
                    String unit = NativeJsonAdapter.text(metric.getValue(), "scoreUnit", "", metricAt);
                    List<List<Double>> aligned = secondaryValues(key, metric.getKey(), secondary, iterations,
                            entryWhere, at);
                    if (aligned == null) {
                        warnings.add("JMH reported '" + UploadText.excerpt(key + ":" + metric.getKey())
                                + "' for only some iterations and it is not known which, so its values cannot be set "
                                + "beside their iterations; it was left out.");
                        continue;
                    }
                    add(samples, key + ":" + metric.getKey(), unit,
                            unit != null && SampleCollector.isRate(unit) && unit.startsWith("ops"), aligned, where,
                            UploadFields.key(metricAt, "scoreUnit"));
                }
            }
        }
        if (samples.isEmpty()) {
            throw new UploadFormatException("The JMH results have no per-iteration data ('rawData' or "
                    + "'rawDataHistogram') to use as samples.");
        }
        List<String> classes = new ArrayList<>();
        root.forEach(entry -> classes.add(className(NativeJsonAdapter.text(entry, "benchmark"))));
        Set<String> distinctClasses = new LinkedHashSet<>(classes);
        String ownPackage = commonPackage(classes);
        String benchmarkName = distinctClasses.size() == 1 && !classes.get(0).isEmpty() ? classes.get(0)
                : ownPackage.isEmpty() ? null : ownPackage;
        return ParsedUpload.single(benchmarkName, variant, label, samples.metrics())
                .withMachine(machine(root.get(0)))
                .withWarnings(warnings);
    }

    /**
     * Per fork, per iteration: the rawData value, or the mean of the iteration's histogram; null if neither is
     * there. One that is there but not a list of forks ({@code null}, {@code [1,2]}) is refused.
     *
     * @param entry the entry, for the message: "JMH entry 2 ('a.B.m')"
     * @param at the entry's path, for a refusal's field: {@code [1]}
     */
    private static List<List<Double>> primaryValues(String key, JsonNode metric, String entry, String at) {
        JsonNode raw = metric.get("rawData");
        if (raw != null) {
            return numbers(key, raw, entry, "primaryMetric.rawData", at);
        }
        JsonNode histograms = metric.get("rawDataHistogram");
        if (histograms == null) {
            return null;
        }
        String histogramsAt = UploadFields.key(at, "primaryMetric.rawDataHistogram");
        List<List<Double>> forks = new ArrayList<>();
        for (JsonNode fork : requireForks(histograms, entry, "primaryMetric.rawDataHistogram", at)) {
            List<Double> means = new ArrayList<>();
            for (JsonNode iteration : fork) {
                String where = "rawDataHistogram[" + forks.size() + "][" + means.size() + "]";
                String iterationAt = UploadFields.index(UploadFields.index(histogramsAt, forks.size()), means.size());
                double sum = 0;
                double count = 0;
                int bins = 0;
                for (JsonNode bin : iteration) {
                    String binAt = UploadFields.index(iterationAt, bins++);
                    if (!bin.isArray() || bin.size() != 2 || !bin.get(0).isNumber() || !bin.get(1).isNumber()) {
                        throw new InvalidUploadException(binAt, "Metric '" + UploadText.excerpt(key)
                                + "': a rawDataHistogram entry is not a [value, count] pair: "
                                + UploadText.excerpt(bin.toString()) + ".");
                    }
                    double value = bin.get(0).doubleValue();
                    double times = bin.get(1).doubleValue();
                    if (times < 0 || times != Math.rint(times) || Double.isInfinite(times)) {
                        throw new InvalidUploadException(binAt, "Metric '" + UploadText.excerpt(key) + "': " + where
                                + " has the count " + bin.get(1) + "; a count is a whole number of at least 0.");
                    }
                    // a value the file writes as Infinity or NaN is left for the validator to name as written;
                    // finite values whose sum a double cannot hold would reach it as an Infinity the file never said
                    double total = sum + value * times;
                    boolean sumOverflows = Double.isFinite(sum) && Double.isFinite(value) && !Double.isFinite(total);
                    if (sumOverflows || !Double.isFinite(count + times)) {
                        throw new InvalidUploadException(binAt, "Metric '" + UploadText.excerpt(key) + "': " + where
                                + " has " + (sumOverflows ? "values times counts" : "counts") + " that add up beyond "
                                + DecimalNumbers.DOUBLE_RANGE + ", so the iteration's mean cannot be taken; check its "
                                + "[value, count] pairs.");
                    }
                    sum = total;
                    count += times;
                }
                if (count == 0) {
                    throw new InvalidUploadException(iterationAt, "Metric '" + UploadText.excerpt(key) + "': " + where
                            + " holds no samples (its counts add up to 0); each iteration's histogram has [value, "
                            + "count] pairs with counts of at least 1.");
                }
                means.add(sum / count);
            }
            forks.add(means);
        }
        return forks;
    }

    /**
     * The values of secondary metric {@code name}, per fork and iteration like {@code iterations}; null when some
     * fork has fewer values than iterations and they cannot be placed.
     */
    private static List<List<Double>> secondaryValues(String key, String name, JsonNode secondary,
            List<List<Double>> iterations, String where, String at) {
        JsonNode raw = secondary.get(name).get("rawData");
        if (raw == null || !raw.isArray()) {
            return List.of();
        }
        List<List<Double>> forks = numbers(key + ":" + name, raw, where, "secondaryMetrics." + name + ".rawData",
                at);
        List<List<Double>> aligned = new ArrayList<>();
        for (int f = 0; f < forks.size(); f++) {
            List<Double> values = forks.get(f);
            int expected = f < iterations.size() ? iterations.get(f).size() : values.size();
            if (values.size() == expected) {
                aligned.add(values);
                continue;
            }
            List<Double> placed = placeByCompanion(key, name, secondary, f, values, expected, at);
            if (placed == null) {
                return null;
            }
            aligned.add(placed);
        }
        return aligned;
    }

    /** {@code values} at the iterations where the companion metric is non-zero, 0 elsewhere; null if they differ. */
    private static List<Double> placeByCompanion(String key, String name, JsonNode secondary, int fork,
            List<Double> values, int iterations, String at) {
        String companion = REPORTED_WHEN_NON_ZERO.get(name);
        JsonNode companionRaw = companion == null || !secondary.has(companion) ? null
                : secondary.get(companion).get("rawData");
        if (companionRaw == null || !companionRaw.isArray() || fork >= companionRaw.size()) {
            return null;
        }
        List<Double> marks = numbers(key + ":" + companion, companionRaw, "JMH entry '" + key + "'",
                "secondaryMetrics." + companion + ".rawData", at).get(fork);
        if (marks.size() != iterations || marks.stream().filter(v -> v != 0).count() != values.size()) {
            return null;
        }
        List<Double> placed = new ArrayList<>();
        int next = 0;
        for (double mark : marks) {
            placed.add(mark != 0 ? values.get(next++) : 0.0);
        }
        return placed;
    }

    /**
     * {@code raw} as JMH writes raw data: a list of forks, each a list of its iterations' values.
     *
     * @param where the entry, for the message: "JMH entry 2 ('a.B.m')"
     * @param field the field's path in the entry, for the message: "primaryMetric.rawData"
     * @param at the entry's path, for the refusal's field: {@code [1]}
     */
    private static JsonNode requireForks(JsonNode raw, String where, String field, String at) {
        String rawAt = UploadFields.key(at, field);
        if (!raw.isArray()) {
            throw new InvalidUploadException(rawAt,
                    where + ": '" + field + "' must be a list of forks, each a list of its "
                    + "iterations, as JMH writes it; got " + NativeJsonAdapter.kind(raw) + ".");
        }
        for (int fork = 0; fork < raw.size(); fork++) {
            if (!raw.get(fork).isArray()) {
                throw new InvalidUploadException(UploadFields.index(rawAt, fork),
                        where + ": '" + field + "[" + fork + "]' must be a list of the "
                        + "fork's iterations, as JMH writes it; got " + NativeJsonAdapter.kind(raw.get(fork)) + ".");
            }
        }
        return raw;
    }

    /**
     * Refuses a negative primary value: JMH measures a time or a throughput, never below 0.
     *
     * @param field where the values are, "rawData" or "rawDataHistogram" (whose iterations' means they are)
     * @param at the entry's path, for the refusal's field: {@code [1]}
     */
    private static void requireNotNegative(List<List<Double>> forks, String field, String mode, String where,
            String at) {
        for (int fork = 0; fork < forks.size(); fork++) {
            for (int iteration = 0; iteration < forks.get(fork).size(); iteration++) {
                double value = forks.get(fork).get(iteration);
                if (value < 0) {
                    String valueAt = UploadFields.index(UploadFields.index(UploadFields.key(at,
                            "primaryMetric." + field), fork), iteration);
                    throw new InvalidUploadException(valueAt, where + ": 'primaryMetric." + field + "[" + fork + "]["
                            + iteration + "]' " + (field.equals("rawData") ? "is " : "has the mean ") + value
                            + ", which JMH's " + mode + " mode never measures; a time or a throughput is at least 0.");
                }
            }
        }
    }

    /**
     * {@code raw} as JMH writes raw data, each value a number.
     *
     * @param where the entry, for the message: "JMH entry 2 ('a.B.m')"
     * @param field the field's path in the entry, for the message: "primaryMetric.rawData"
     * @param at the entry's path, for a refusal's field: {@code [1]}
     */
    private static List<List<Double>> numbers(String key, JsonNode raw, String where, String field, String at) {
        List<List<Double>> forks = new ArrayList<>();
        for (JsonNode fork : requireForks(raw, where, field, at)) {
            List<Double> values = new ArrayList<>();
            for (JsonNode value : fork) {
                if (!value.isNumber()) {
                    throw new InvalidUploadException(UploadFields.index(UploadFields.index(UploadFields.key(at,
                            field), forks.size()), values.size()), "Metric '" + UploadText.excerpt(key)
                            + "': a rawData value is not a number: " + UploadText.excerpt(value.toString()) + ".");
                }
                values.add(value.doubleValue());
            }
            forks.add(values);
        }
        return forks;
    }

    /**
     * @param where the entry, for a message about its unit: "JMH entry 2"
     * @param unitField where the unit is, for a refusal's field: {@code [1].primaryMetric.scoreUnit}
     */
    private static void add(SampleCollector samples, String key, String unit, boolean higherIsBetter,
            List<List<Double>> forks, String where, String unitField) {
        forks.forEach(fork -> fork.forEach(value -> samples.add(key, unit, higherIsBetter, value, where,
                unitField)));
    }

    /** {@code org.example.MyBench.parse} → {@code org.example.MyBench}. */
    private static String className(String benchmark) {
        int dot = benchmark.lastIndexOf('.');
        return dot < 0 ? "" : benchmark.substring(0, dot);
    }

    /** The longest dotted prefix that every class's package starts with, or "". */
    static String commonPackage(List<String> classes) {
        String[] common = null;
        int length = 0;
        for (String className : classes) {
            String[] parts = className.split("\\.");
            int packageParts = parts.length - 1;
            if (common == null) {
                common = parts;
                length = packageParts;
                continue;
            }
            int i = 0;
            while (i < Math.min(length, packageParts) && common[i].equals(parts[i])) {
                i++;
            }
            length = i;
        }
        return common == null || length <= 0 ? "" : String.join(".", List.of(common).subList(0, length));
    }

    /**
     * {@code [mode=…,name=value,…]} in name order, the mode first when given; "" when there is nothing. A name or
     * value holding one of {@code ,="[]} is quoted ({@code a="1,b=2"}, a quote doubled), so that it cannot read as
     * other parameters: {@code {a: "1,b=2"}} and {@code {a: "1", b: "2"}} are two benchmarks. Every other one is as
     * it is, as in the keys of uploads stored before.
     */
    private static String params(JsonNode params, String mode) {
        Map<String, String> sorted = new TreeMap<>();
        if (params != null && params.isObject()) {
            params.properties().forEach(p -> sorted.put(p.getKey(),
                    NativeJsonAdapter.text(params, p.getKey(), "params.", null)));
        }
        String joined = sorted.entrySet().stream().map(e -> quoted(e.getKey()) + "=" + quoted(e.getValue()))
                .collect(Collectors.joining(","));
        if (mode != null) {
            joined = "mode=" + mode + (joined.isEmpty() ? "" : "," + joined);
        }
        return joined.isEmpty() ? "" : "[" + joined + "]";
    }

    /** {@code text} in quotes, each quote doubled, when it holds a character of the key's syntax; else as it is. */
    private static String quoted(String text) {
        if (text == null || text.chars().noneMatch(c -> KEY_SYNTAX.indexOf(c) >= 0)) {
            return text;
        }
        return '"' + text.replace("\"", "\"\"") + '"';
    }

    /** The JVM's details from {@code entry}, the file's first. */
    private static Map<String, Object> machine(JsonNode entry) {
        Map<String, Object> machine = new LinkedHashMap<>();
        for (String field : MACHINE_FIELDS) {
            String value = NativeJsonAdapter.text(entry, field, "", UploadFields.index(null, 0));
            if (value != null) {
                machine.put(field, value);
            }
        }
        return machine;
    }
}
