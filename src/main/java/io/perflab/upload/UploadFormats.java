package io.perflab.upload;

import io.perflab.system.Texts;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/** The adapters by format, and detection of the format from the content when it is unambiguous. */
final class UploadFormats {

    /**
     * A result line of Go's: "Benchmark" and a name that does not begin with a lower-case letter (Go runs
     * {@code BenchmarkJoin}, never {@code Benchmarkjoin}, as the adapter reads them), the iterations and a value with
     * its unit, between the spaces Go's readers split at ({@link GoBenchAdapter#SPACES}).
     */
    private static final Pattern GO_BENCH_LINE = goBenchLine();
    private static final Pattern CSV_HEADER = Pattern.compile("(?i)^\\s*\"?metric\"?\\s*,\\s*\"?value\"?");

    /** The longest benchmark name the validator accepts; derived names are cut to it. */
    static final int MAX_BENCHMARK_NAME = 200;

    private final Map<UploadFormat, FormatAdapter> adapters = new EnumMap<>(UploadFormat.class);
    private final UploadLimits limits;

    UploadFormats() {
        this(UploadLimits.DEFAULT);
    }

    UploadFormats(UploadLimits limits) {
        this.limits = limits;
        adapters.put(UploadFormat.JSON, new NativeJsonAdapter());
        adapters.put(UploadFormat.JMH, new JmhAdapter());
        adapters.put(UploadFormat.GOBENCH, new GoBenchAdapter());
        adapters.put(UploadFormat.GOOGLEBENCHMARK, new GoogleBenchmarkAdapter());
        adapters.put(UploadFormat.HYPERFINE, new HyperfineAdapter());
        adapters.put(UploadFormat.RPCBENCH, new RpcBenchAdapter());
        adapters.put(UploadFormat.CSV, new CsvAdapter());
    }

    FormatAdapter adapter(UploadFormat format) {
        return adapters.get(format);
    }

    /**
     * Parses {@code content} as {@code format}, or as the detected format when {@code format} is null. A content
     * that does not fit its format gives an {@link UploadFormatException} naming what was expected and found; one
     * that passes the {@link UploadLimits} an {@link InvalidUploadException}. Harness output that names no
     * benchmark gets the name {@link #derivedName derived} from its metrics.
     */
    ParsedUpload parse(String content, UploadFormat format, String variant, String label) {
        UploadFormat chosen = chosen(content, format);
        try {
            return checked(adapter(chosen).parse(content, variant, label, limits.counter()), chosen);
        } catch (JsonContent.MalformedJsonException e) {
            throw notJson(e, chosen, content);
        }
    }

    /**
     * Parses the two files of one upload, {@code without} then {@code with}, as {@link #parse} parses each: files of
     * one format through {@link FormatAdapter#parseSides}, which keys what depends on the other file over both.
     */
    List<ParsedUpload> parseSides(String without, String with, UploadFormat format) {
        UploadFormat first = inFile(ParsedUpload.WITHOUT, without, null, () -> chosen(without, format));
        UploadFormat second = inFile(ParsedUpload.WITH, with, null, () -> chosen(with, format));
        if (first != second) {
            List<ParsedUpload> sides = List.of(inFile(ParsedUpload.WITHOUT, without, first,
                            () -> checked(adapter(first).parse(without, ParsedUpload.WITHOUT, null, limits.counter()),
                                    first)),
                    inFile(ParsedUpload.WITH, with, second,
                            () -> checked(adapter(second).parse(with, ParsedUpload.WITH, null, limits.counter()),
                                    second)));
            // files of two formats may share metrics (a CSV of Go's keys)
            return sharingAMetric(sides, first.label() + ", " + ParsedUpload.WITH + ": " + second.label(),
                    "upload both sides' output of the same tool");
        }
        // each adapter says of which file a fault is (inFile)
        List<ParsedUpload> sides = adapter(first).parseSides(without, with, limits.counter(), limits.counter());
        return sharingAMetric(List.of(inFile(ParsedUpload.WITHOUT, without, first, () -> checked(sides.get(0), first)),
                inFile(ParsedUpload.WITH, with, first, () -> checked(sides.get(1), first))),
                first.label() + ", " + ParsedUpload.WITH + ": " + first.label(),
                "upload the output of the same benchmarks before and after the change");
    }

    /**
     * {@code sides}, refused when they share no metric: nothing would be compared, and each side's metrics would
     * stand beside an empty one (Go files of BenchmarkA and of BenchmarkB passed the CI gate so).
     */
    private static List<ParsedUpload> sharingAMetric(List<ParsedUpload> sides, String formats, String advice) {
        if (Collections.disjoint(metricKeys(sides.get(0)), metricKeys(sides.get(1)))) {
            throw new InvalidUploadException("The files share no metric (" + ParsedUpload.WITHOUT + ": " + formats
                    + "), so nothing can be compared; " + advice + ".");
        }
        return sides;
    }

    private static Set<String> metricKeys(ParsedUpload parsed) {
        Set<String> keys = new LinkedHashSet<>();
        parsed.variants().values().forEach(side -> keys.addAll(side.metrics().keySet()));
        return keys;
    }

    /**
     * What {@code work} gives, reading one file of a two-file upload: what is wrong in it is said of that file
     * ("The file 'with': CSV line 3, …"), since a line, a field or "the body" does not say which of the two, and its
     * field is the file's, or the path in that file ({@link UploadFields#inPart}: {@code with:[3].mode}).
     *
     * @param format the file's format, for a file that is not JSON where JSON was meant; null before it is chosen
     */
    static <T> T inFile(String side, String content, UploadFormat format, Supplier<T> work) {
        String file = "The file '" + side + "'";
        try {
            return work.get();
        } catch (JsonContent.MalformedJsonException e) {
            RuntimeException said = format == null ? e : notJson(e, format, content);
            if (said instanceof UploadFormatException wrong) {
                throw new UploadFormatException(UploadFields.inPart(side, wrong.field()), file + ": "
                        + said.getMessage());
            }
            throw new InvalidUploadException(UploadFields.inPart(side, e.field()), file + " is not valid JSON: "
                    + e.getMessage());
        } catch (UploadFormatException e) {
            throw new UploadFormatException(UploadFields.inPart(side, e.field()), file + ": " + e.getMessage());
        } catch (InvalidUploadException e) {
            throw new InvalidUploadException(UploadFields.inPart(side, e.field()), file + ": " + e.getMessage());
        }
    }

    /** {@code format}, or the format detected from {@code content} when it is null. */
    private static UploadFormat chosen(String content, UploadFormat format) {
        return format != null ? format : detect(content).orElseThrow(() -> new UploadFormatException(
                "Cannot tell the format of the upload from its content (" + found(content)
                        + "); pass ?format= with one of: " + UploadFormat.labels() + "."));
    }

    /** {@code parsed} within the limits, named from its metrics when the output names no benchmark. */
    private ParsedUpload checked(ParsedUpload parsed, UploadFormat format) {
        limits.check(parsed);
        return parsed.benchmark() == null && format != UploadFormat.JSON ? parsed.withBenchmark(derivedName(parsed))
                : parsed;
    }

    /** Malformed JSON where JSON was meant (its line and column), else content that is not {@code format} at all. */
    private static RuntimeException notJson(JsonContent.MalformedJsonException e, UploadFormat format,
            String content) {
        return format == UploadFormat.JSON || looksLikeJson(content) ? e : wrongFormat(format, content);
    }

    /**
     * The name of harness output whose content names no benchmark (CSV; Go output without a {@code pkg} line): what
     * it measured, i.e. its metric keys up to their first ':' ({@code parse_ns}, {@code Join} of {@code Join:ns/op}),
     * in order of appearance, comma-separated, cut to {@value #MAX_BENCHMARK_NAME} characters.
     */
    static String derivedName(ParsedUpload parsed) {
        Set<String> measured = new LinkedHashSet<>();
        parsed.variants().values().forEach(side -> side.metrics().keySet()
                .forEach(key -> measured.add(key.contains(":") ? key.substring(0, key.indexOf(':')) : key)));
        return shortened(String.join(", ", measured));
    }

    /** {@code name} cut to {@value #MAX_BENCHMARK_NAME} characters, ending in '…' when it was cut. */
    static String shortened(String name) {
        return Texts.cut(name, MAX_BENCHMARK_NAME);
    }

    /** "expected X; found Y" for content that is not {@code expected} at all. */
    static UploadFormatException wrongFormat(UploadFormat expected, String content) {
        return new UploadFormatException("The upload is not in the format '" + expected.label() + "': expected "
                + expected.description() + ", found " + found(content) + ".");
    }

    private static Pattern goBenchLine() {
        String space = "[" + GoBenchAdapter.SPACES + "]+";
        String field = "[^" + GoBenchAdapter.SPACES + "]";
        return Pattern.compile("(?m)^Benchmark(?:(?![\\p{Ll}" + GoBenchAdapter.SPACES + "])" + field + "*)?" + space
                + "\\d+" + space + field + "+" + space + field + "+");
    }

    /** The format the content is recognisably in, if exactly one fits. */
    static Optional<UploadFormat> detect(String content) {
        String trimmed = content.stripLeading();
        if (trimmed.startsWith("{") || trimmed.startsWith("[")) {
            JsonNode tree = JsonContent.tryRead(content);
            if (tree == null) {
                // malformed JSON: the native adapter reports line and column
                return trimmed.startsWith("{") ? Optional.of(UploadFormat.JSON) : Optional.empty();
            }
            return detectJson(tree);
        }
        boolean go = GO_BENCH_LINE.matcher(content).find();
        boolean rpc = RpcBenchAdapter.holdsReport(content);
        boolean csv = CSV_HEADER.matcher(content).find();
        int fits = (go ? 1 : 0) + (rpc ? 1 : 0) + (csv ? 1 : 0);
        if (fits != 1) {
            return Optional.empty();
        }
        return Optional.of(go ? UploadFormat.GOBENCH : rpc ? UploadFormat.RPCBENCH : UploadFormat.CSV);
    }

    static Optional<UploadFormat> detectJson(JsonNode tree) {
        if (tree.isArray()) {
            if (!tree.isEmpty() && tree.get(0).has("primaryMetric")) {
                return Optional.of(UploadFormat.JMH);
            }
            return Optional.empty();
        }
        if (!tree.isObject()) {
            return Optional.empty();
        }
        if (tree.has("benchmarks") && tree.has("context")) {
            return Optional.of(UploadFormat.GOOGLEBENCHMARK);
        }
        if (tree.has("results") && tree.get("results").isArray()) {
            return Optional.of(UploadFormat.HYPERFINE);
        }
        if (tree.has("metrics") || tree.has("with") || tree.has("without") || tree.has("benchmark")) {
            return Optional.of(UploadFormat.JSON);
        }
        return Optional.empty();
    }

    private static boolean looksLikeJson(String content) {
        String trimmed = content.stripLeading();
        return trimmed.startsWith("{") || trimmed.startsWith("[");
    }

    /** A short description of what the content is, for "found …" in messages. */
    static String found(String content) {
        if (content.isBlank()) {
            return "an empty body";
        }
        Optional<UploadFormat> detected = detect(content);
        String trimmed = content.stripLeading();
        if (looksLikeJson(trimmed)) {
            JsonNode tree = JsonContent.tryRead(content);
            String what = tree == null ? "malformed JSON"
                    : tree.isArray() ? "a JSON array of " + tree.size() + " element" + (tree.size() == 1 ? "" : "s")
                    : tree.isObject() ? "a JSON object with the fields " + fieldNames(tree)
                    : "a JSON value";
            return what + detected.map(f -> " (it looks like " + f.label() + ")").orElse("");
        }
        String firstLine = trimmed.lines().findFirst().orElse("");
        firstLine = Texts.cut(firstLine, 61);
        return "text starting '" + firstLine + "'" + detected.map(f -> " (it looks like " + f.label() + ")").orElse("");
    }

    private static String fieldNames(JsonNode object) {
        StringBuilder s = new StringBuilder("[");
        Iterator<String> names = object.propertyNames().iterator();
        for (int i = 0; names.hasNext() && i < 6; i++) {
            s.append(i == 0 ? "" : ", ").append(names.next());
        }
        if (object.size() > 6) {
            s.append(", …");
        }
        return s.append(']').toString();
    }
}
