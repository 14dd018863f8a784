package io.perflab.upload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.perflab.system.PrintableText;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * JSON uploads of every shape: each field of each JSON fixture replaced in turn by a value of another kind (an
 * object, a list, text, a number, true, null, text with an escape code). An upload is either taken, with printable
 * names, or refused with a message about the upload; never an exception that would answer 500.
 */
class UploadShapeTests {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final UploadFormats formats = new UploadFormats();

    /** The values each field is replaced by. */
    private static List<JsonNode> replacements() {
        ObjectNode object = NODES.objectNode();
        object.put("x", 1);
        ArrayNode list = NODES.arrayNode();
        list.add(1);
        return List.of(object, list, NODES.stringNode("7"), NODES.numberNode(-1.5e300), NODES.booleanNode(true),
                NODES.nullNode(), NODES.stringNode("a\u001b[2Jb"), NODES.stringNode("\u202egnp.exe"));
    }

    @ParameterizedTest
    @CsvSource({"googlebenchmark.json, googlebenchmark", "hyperfine.json, hyperfine", "hyperfine-exit.json, hyperfine",
            "jmh.json, jmh", "native.json, json"})
    void everyFieldOfAnotherKindIsTakenOrRefusedInWords(String fixture, String format) {
        JsonNode original = JsonContent.read(fixture.equals("native.json") ? NATIVE : Fixtures.read(fixture));
        List<String> failures = new ArrayList<>();
        int[] tried = {0};
        walk(original, original, List.of(), "", site -> {
            for (JsonNode replacement : replacements()) {
                tried[0]++;
                String content = site.apply(replacement).toString();
                String problem = outcome(content, UploadFormat.byLabel(format).orElseThrow());
                if (problem != null) {
                    failures.add(site.path() + " = " + replacement + ": " + problem);
                }
            }
        });
        assertThat(tried[0]).isGreaterThan(60);
        assertThat(failures).as("fields whose replacement broke the upload").isEmpty();
    }

    static List<Arguments> textThatHidesOrMoves() {
        return List.of(
                Arguments.of("gobench",
                        "cpu: AMD\u001b[2J\nBenchmarkJoin-2 20 910.9 ns/op\nBenchmarkJoin-2 20 911.9 ns/op\n",
                        "Machine 'cpu'"),
                Arguments.of("gobench",
                        "BenchmarkJo\u202ein-2 20 910.9 ns/op\nBenchmarkJo\u202ein-2 20 911.9 ns/op\n",
                        "metric 'Jo\\u202Ein:ns/op'"),
                Arguments.of("csv", "metric,value,variant,unit\nparse,1.5,with,n\u0007s\nparse,1.6,with,n\u0007s\n",
                        "unit of metric 'parse'"),
                Arguments.of("csv", "metric,value\nparse\u200b_ns,1.5\nparse\u200b_ns,1.6\n",
                        "metric 'parse\\u200B_ns'"),
                Arguments.of("json", "{\"benchmark\": \"b\", \"metrics\": {\"m\": [1, 2]}, \"machine\": {\"lscpu\": "
                        + "\"CPU(s):\\t2\\nModel name:\\tEPYC\\u001b[0m\"}}",
                        "Machine 'lscpu' holds a control character (U+001B)"),
                Arguments.of("rpcbench", "Mode:            Sy\u001bnc\n----\nReqs/sec:         9135.95\n",
                        "Configuration 'mode'"),
                // at a line's end: each line was cut with trim(), which dropped such a character without a word
                Arguments.of("gobench",
                        "cpu: AMD EPYC\u0007\nBenchmarkJoin-2 20 910.9 ns/op\nBenchmarkJoin-2 20 911.9 ns/op\n",
                        "Machine 'cpu'"),
                Arguments.of("gobench",
                        "BenchmarkJoin-2 20 910.9 ns/op\u001b\nBenchmarkJoin-2 20 911.9 ns/op\u001b\n",
                        "metric 'Join:ns/op\\u001B'"),
                Arguments.of("rpcbench", "Mode:            Sync\u001b\n----\nReqs/sec:         9135.95\n",
                        "Configuration 'mode'"),
                Arguments.of("rpcbench", "Engine options: ring_size=64\u0007\n----\nReqs/sec:         9135.95\n",
                        "Configuration 'ring_size'"));
    }

    static List<Arguments> enormousText() {
        String huge = "x".repeat(1_000_000);
        return List.of(
                Arguments.of("gobench", "BenchmarkJ" + huge + " 10 5 ns/op\nBenchmarkJ" + huge + " 10 6 ns/op\n",
                        "the name is longer than 100 characters"),
                Arguments.of("gobench", "BenchmarkJ" + huge + " 10 5x ns/op\n", "is not a number"),
                Arguments.of("gobench", "BenchmarkJ 10 5 ns/op " + "y ".repeat(500_001) + "\n",
                        "does not consist of value/unit pairs"),
                Arguments.of("csv", "metric,value\nt,1" + huge + "\n", "is not a number"),
                Arguments.of("csv", "metric,value\n" + huge + ",1x\n", "is not a number"),
                Arguments.of("json", "{\"benchmark\": \"b\", \"metrics\": {\"m\": [1, \"" + huge + "\"]}}",
                        "is not a number"),
                Arguments.of("json", "{\"benchmark\": \"b\", \"metrics\": {\"" + "m".repeat(40_000) + "\": [1]}}",
                        "the name is longer than 100 characters"),
                Arguments.of("hyperfine", "{\"results\": [{\"command\": \"c\", \"times\": [1, \"" + huge + "\"]}]}",
                        "is not a number"),
                Arguments.of("rpcbench", "Mode: Sync\nReqs/sec: " + huge + "\n", "is not a number"));
    }

    /** A message names an enormous name, value or line by its start: the whole of it was sent back, twice. */
    @ParameterizedTest
    @MethodSource("enormousText")
    void enormousTextIsShownByAnExcerptInTheMessage(String format, String content, String says) {
        UploadFormat chosen = UploadFormat.byLabel(format).orElseThrow();
        assertThatThrownBy(() -> UploadValidator.validate(formats.parse(content, chosen, ParsedUpload.WITH, null), null,
                null, GitInfo.NONE, Map.of(), JsonContent.MAPPER))
                .isInstanceOf(InvalidUploadException.class)
                .hasMessageContaining(says)
                .satisfies(e -> assertThat(e.getMessage().length()).isLessThan(600))
                .hasMessageContaining("…");
    }

    @Test
    void aSidesConfigurationLongerThanItsColumnIsRefusedNotFailedInTheDatabase() {
        String options = java.util.stream.IntStream.range(0, 400).mapToObj(i -> "option" + i + "=value")
                .collect(java.util.stream.Collectors.joining(" "));
        assertThatThrownBy(() -> UploadValidator.validate(formats.parse("Engine options: " + options
                + "\n----\nReqs/sec:         9135.95\n", UploadFormat.RPCBENCH, ParsedUpload.WITH, null), null, null,
                GitInfo.NONE, Map.of(), JsonContent.MAPPER))
                .isInstanceOf(InvalidUploadException.class)
                .hasMessageContaining("The configuration of 'with' is longer than 4000 characters as JSON.");
    }

    /**
     * PerfLab's JSON without its values, which the format is told by its fields: it was "not in the format 'json' …
     * found a JSON object with the fields [benchmark, variant, git] (it looks like json)" (HostileUploadPropertyTests
     * found it, taking the metrics out).
     */
    @Test
    void anUploadWithoutValuesIsRefusedSayingSoNotAsAnotherFormat() {
        for (UploadFormat format : new UploadFormat[] {UploadFormat.JSON, null}) {
            assertThatThrownBy(() -> formats.parse("{\"benchmark\": \"b\", \"variant\": \"without\"}", format, "with",
                    null)).isInstanceOf(InvalidUploadException.class).hasMessage("The upload has neither 'metrics' "
                    + "(the values of one side) nor 'without'/'with' blocks (of both sides); give one of them.")
                    .extracting(e -> ((InvalidUploadException) e).field()).isEqualTo("metrics");
        }
    }

    @Test
    void rpcBenchsNanIsRefusedNamingTheMetric() {
        // C++ prints a NaN as "nan": the metric is named, not Java's NumberFormatException
        assertThatThrownBy(() -> UploadValidator.validate(formats.parse("Mode:            Sync\n----\n"
                + "Reqs/sec:         nan\n", UploadFormat.RPCBENCH, ParsedUpload.WITH, null), null, null,
                GitInfo.NONE, Map.of(), JsonContent.MAPPER))
                .isInstanceOf(InvalidUploadException.class)
                .hasMessageContaining("Metric 'reqs_per_sec'").hasMessageContaining("NaN");
    }

    @ParameterizedTest
    @MethodSource("textThatHidesOrMoves")
    void textFormatsRefuseTextThatHidesOrMovesWhatIsShown(String format, String content, String named) {
        assertThatThrownBy(() -> UploadValidator.validate(formats.parse(content,
                UploadFormat.byLabel(format).orElseThrow(), ParsedUpload.WITH, null), null, null, GitInfo.NONE,
                Map.of(), JsonContent.MAPPER))
                .isInstanceOf(InvalidUploadException.class)
                .hasMessageContaining(named)
                .hasMessageMatching("(?s).*holds a (control|hidden format) character \\(U\\+[0-9A-F]{4}\\) at "
                        + "position \\d+; it must be printable text\\.")
                .satisfies(e -> assertThat(e.getMessage().codePoints()
                        .allMatch(PrintableText.Validator::printable)).isTrue());
    }

    @Test
    void aMachineDescriptionMayHoldLinesAndTabsButNamesMayNot() {
        String lscpu = "CPU(s):\t2\r\nModel name:\tAMD EPYC\n";
        ParsedUpload upload = formats.parse("{\"benchmark\": \"b\", \"metrics\": {\"m\": [1, 2]}, \"machine\": "
                + "{\"lscpu\": " + JsonContent.MAPPER.writeValueAsString(lscpu) + "}}", UploadFormat.JSON,
                ParsedUpload.WITH, null);
        assertThat(UploadValidator.validate(upload, null, null, GitInfo.NONE, Map.of(), JsonContent.MAPPER).parsed()
                .machine()).containsEntry("lscpu", lscpu);
        assertThatThrownBy(() -> UploadValidator.validate(formats.parse("{\"benchmark\": \"b\", \"name\": "
                + "\"two\\nlines\", \"metrics\": {\"m\": [1, 2]}}", UploadFormat.JSON, ParsedUpload.WITH, null),
                null, null, GitInfo.NONE, Map.of(), JsonContent.MAPPER))
                .hasMessage("'name' holds a control character (U+000A) at position 4; it must be printable text.");
    }

    /** The default branch is looked up and hashed like the branch, and checked like it: length and printable text. */
    @Test
    void theDefaultBranchIsCheckedAsTheBranchIs() {
        ParsedUpload upload = formats.parse("{\"benchmark\": \"b\", \"metrics\": {\"m\": [1, 2]}}", UploadFormat.JSON,
                ParsedUpload.WITH, null);
        GitInfo tooLong = new GitInfo(null, null, null, null, null, null, "b".repeat(201));
        GitInfo escape = new GitInfo(null, null, null, null, null, null, "main\u001b[2J");

        assertThatThrownBy(() -> UploadValidator.validate(upload, null, null, tooLong, Map.of(), JsonContent.MAPPER))
                .hasMessage("'git.defaultBranch' is longer than 200 characters.");
        assertThatThrownBy(() -> UploadValidator.validate(upload, null, null, escape, Map.of(), JsonContent.MAPPER))
                .hasMessage("'git.defaultBranch' holds a control character (U+001B) at position 5; it must be "
                        + "printable text.");
        GitInfo main = new GitInfo(null, null, null, null, null, null, "main");
        assertThat(UploadValidator.validate(upload, null, null, main, Map.of(), JsonContent.MAPPER).git()
                .defaultBranch()).isEqualTo("main");
    }

    /**
     * A query parameter's surrounding spaces are dropped, but an escape code at its start is refused, not cut off: the
     * parameters were trimmed with {@code trim()}, which drops every character up to U+0020, so
     * {@code ?benchmark=%1B[2Jparser} was stored as "[2Jparser" without a word.
     */
    @Test
    void aControlCharacterAtTheEdgeOfAQueryParameterIsRefusedNotCutOff() {
        ParsedUpload upload = formats.parse("{\"metrics\": {\"m\": [1, 2]}}", UploadFormat.JSON, ParsedUpload.WITH,
                null);
        assertThatThrownBy(() -> UploadValidator.validate(upload, "\u001b[2Jparser", null, GitInfo.NONE, Map.of(),
                JsonContent.MAPPER))
                .hasMessage("'benchmark' holds a control character (U+001B) at position 1; it must be printable text.");
        assertThatThrownBy(() -> UploadValidator.validate(upload, "parser", "nightly\u0007", GitInfo.NONE, Map.of(),
                JsonContent.MAPPER))
                .hasMessage("'name' holds a control character (U+0007) at position 8; it must be printable text.");
        ParsedUpload labelled = formats.parse("{\"metrics\": {\"m\": [1, 2]}}", UploadFormat.JSON,
                Variants.side("\u0001fast"), Variants.label("\u0001fast"));
        assertThatThrownBy(() -> UploadValidator.validate(labelled, "parser", null, GitInfo.NONE, Map.of(),
                JsonContent.MAPPER))
                .hasMessage("'with.label' holds a control character (U+0001) at position 1; it must be printable "
                        + "text.");

        ValidUpload spaced = UploadValidator.validate(formats.parse("{\"metrics\": {\"m\": [1, 2]}}", UploadFormat.JSON,
                Variants.side("  without "), Variants.label("  without ")), " parser ", " nightly ", GitInfo.NONE,
                Map.of(), JsonContent.MAPPER);
        assertThat(spaced.benchmark()).isEqualTo("parser");
        assertThat(spaced.name()).isEqualTo("nightly");
        assertThat(spaced.parsed().variants()).containsOnlyKeys(ParsedUpload.WITHOUT);
    }

    @Test
    void aLongNameIsCutBetweenCharactersNotInsideOne() throws Exception {
        // the name made of 198 letters and an emoji and " @ commit": cut to 199 characters + "…", the 199th was the
        // first half of an emoji (it was kept, half a surrogate pair, and the name then failed its own check); a
        // name given that long is refused (UploadNameTests)
        ParsedUpload upload = formats.parse("{\"benchmark\": \"b\", \"metrics\": {\"m\": [1, 2]}}", UploadFormat.JSON,
                ParsedUpload.WITH, null);
        GitInfo git = new GitInfo(null, null, "abc", null, null, null, null);
        assertThat(UploadValidator.validate(upload, "n".repeat(198) + "😀", null, git, Map.of(), JsonContent.MAPPER)
                .name()).isEqualTo("n".repeat(198) + "…");
    }

    /** Null when the content is taken with printable names or refused in words; else what went wrong. */
    private String outcome(String content, UploadFormat format) {
        try {
            ParsedUpload parsed = formats.parse(content, format, ParsedUpload.WITH, null);
            ValidUpload valid = UploadValidator.validate(parsed, null, null, GitInfo.NONE, Map.of(),
                    JsonContent.MAPPER);
            List<String> texts = new ArrayList<>(List.of(valid.benchmark(), valid.name()));
            valid.parsed().variants().values().forEach(side -> {
                texts.addAll(side.metrics().keySet());
                side.metrics().values().forEach(m -> texts.add(String.valueOf(m.unit())));
                side.configuration().forEach((k, v) -> texts.addAll(List.of(k, v)));
            });
            texts.addAll(valid.parsed().tags());
            texts.add(valid.parsed().machine().toString());
            texts.addAll(valid.parsed().warnings());
            for (String text : texts) {
                if (text != null && !text.codePoints().allMatch(PrintableText.Validator::printable)) {
                    return "taken with the unprintable text '" + text + "'";
                }
            }
            return null;
        } catch (UploadFormatException | InvalidUploadException | JsonContent.MalformedJsonException e) {
            String message = e.getMessage();
            return message == null || message.contains("java.") || message.contains("jackson")
                    || !message.codePoints().allMatch(PrintableText.Validator::printable)
                    ? "refused with the message '" + message + "'" : null;
        } catch (RuntimeException e) {
            return e.toString();
        }
    }

    /** Where one field of a document is, and the document with that field replaced. */
    private record Site(JsonNode root, List<Object> steps, String path) {

        JsonNode apply(JsonNode value) {
            JsonNode copy = root.deepCopy();
            JsonNode parent = copy;
            for (Object step : steps.subList(0, steps.size() - 1)) {
                parent = step instanceof String name ? parent.get(name) : parent.get((Integer) step);
            }
            Object last = steps.get(steps.size() - 1);
            if (last instanceof String name) {
                ((ObjectNode) parent).set(name, value);
            } else {
                ((ArrayNode) parent).set((Integer) last, value);
            }
            return copy;
        }
    }

    /**
     * Visits every field under {@code node}: every object member, and the first two elements of each list (lists
     * of samples hold hundreds of numbers that are all read alike).
     */
    private static void walk(JsonNode root, JsonNode node, List<Object> steps, String path, Consumer<Site> visitor) {
        if (node.isObject()) {
            for (Map.Entry<String, JsonNode> member : node.properties()) {
                step(root, member.getValue(), steps, member.getKey(), path + "." + member.getKey(), visitor);
            }
        } else if (node.isArray()) {
            for (int i = 0; i < Math.min(2, node.size()); i++) {
                step(root, node.get(i), steps, i, path + "[" + i + "]", visitor);
            }
        }
    }

    private static void step(JsonNode root, JsonNode child, List<Object> steps, Object step, String path,
            Consumer<Site> visitor) {
        List<Object> deeper = new ArrayList<>(steps);
        deeper.add(step);
        visitor.accept(new Site(root, deeper, path));
        walk(root, child, deeper, path, visitor);
    }

    private static final String NATIVE = """
            {"benchmark": "parser", "name": "nightly",
             "without": {"label": "main", "metrics": {"ns_per_op": {"unit": "ns", "direction": "lower",
                                                                     "values": [12.1, 12.3, 12.2]}},
                         "configuration": {"threads": "4"}},
             "with": {"label": "branch", "metrics": {"ns_per_op": [11.1, 11.3, 11.2]}},
             "git": {"repository": "r", "branch": "b", "commit": "0123456789ab", "baseCommit": "c",
                     "pullRequest": "7", "commitTime": "2025-01-31T12:00:00Z", "defaultBranch": "main"},
             "machine": {"cpu": "x", "cores": 2, "jvm": {"version": "17"}}, "tags": ["nightly", "x"]}""";
}
