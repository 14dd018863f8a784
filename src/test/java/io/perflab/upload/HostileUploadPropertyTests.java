package io.perflab.upload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.statistics.Statistics;

/**
 * Hostile content in every upload format: each real fixture, mutated (cut off at any byte; bytes replaced, inserted or
 * deleted; lines duplicated or swapped; numbers made huge, negative, NaN, infinite, empty or hundreds of digits long;
 * values of JSON replaced by values of other kinds or taken out; bytes that are not UTF-8, NUL, deep JSON nesting,
 * very long lines), read as {@code POST /api/v1/uploads} reads a body before it stores anything: decoded
 * ({@link UploadText#decode}), parsed ({@link UploadFormats#parse}) and validated ({@link UploadValidator#validate}).
 * Each mutant is either an upload whose every value is finite, or is refused with the project's own exception — the
 * refusals {@link UploadService} answers with a 400 — whose message says where the problem is, in the upload's terms
 * and not a parser's, and does not call content of a format's shape not in that format. Anything else (a
 * NullPointerException, a NumberFormatException, a Jackson exception, a StackOverflowError, a read that takes
 * seconds) would be a 500 or a stuck request. Each property's statistics say how many mutants were stored and which
 * step refused the others.
 *
 * <p>Run on the readers before their fixes, these properties found the refusals that said neither which limit of the
 * JSON reader a value passed nor where, those that called JMH, hyperfine and PerfLab JSON of the format's shape not in
 * it, the CSV reader's own words, and the rpc-bench lines whose reading took minutes; each fix has its example test
 * beside the format's.
 */
class HostileUploadPropertyTests {

    /** Tries of each property: a few seconds of the suite for all of them. */
    private static final int TRIES = 150;

    /**
     * More tries of the long lines, each a read of milliseconds: only a few kinds of line, ended in a few ways, make a
     * reading expression backtrack over the line. On the rpc-bench reader before its fix, 400 found it in 2 runs of 4.
     */
    private static final int LONG_LINE_TRIES = 400;

    /** Far more than any fixture's mutant takes (milliseconds); a parse that backtracks without end is caught. */
    private static final Duration PATIENCE = Duration.ofSeconds(10);

    private static final UploadFormats FORMATS = new UploadFormats();

    /** PerfLab's own JSON, both sides with every field, as a CI job writes it (there is no fixture file of it). */
    static final String NATIVE_BOTH = """
            {
              "benchmark": "parser",
              "name": "nightly parser run",
              "without": {
                "label": "main",
                "metrics": {
                  "parse_ns": {"unit": "ns", "direction": "lower", "values": [1210.5, 1198.2, 1225.9]},
                  "alloc_bytes": [4096, 4096, 4096]
                }
              },
              "with": {
                "label": "patched",
                "metrics": {
                  "parse_ns": {"unit": "ns", "direction": "lower", "values": [1131.4, 1140.8, 1127.3]},
                  "alloc_bytes": [2048, 2048, 2048]
                }
              },
              "git": {"repository": "https://example.com/parser.git", "branch": "feature", "commit": "abc123def456",
                      "baseCommit": "def456abc123", "pullRequest": 42, "commitTime": "2025-01-31T12:00:00Z",
                      "defaultBranch": "main"},
              "machine": {"cpu": "AMD EPYC", "cores": 2, "kernel": {"release": "6.1", "flags": ["smp", "preempt"]}},
              "tags": ["nightly", "ci"]
            }
            """;

    /** PerfLab's own JSON of one side. */
    static final String NATIVE_ONE_SIDE = """
            {"benchmark": "parser", "variant": "without",
             "metrics": {"qps": {"unit": "req/s", "direction": "higher", "values": [9135.95, 10078.4, 9987]},
                         "p99_us": {"unit": "us", "values": [4044.8, 2766.85, 3100]}},
             "git": {"branch": "main", "commit": "0123456789abcdef", "commitTime": 1738324800}}
            """;

    // ---- the properties: one per format, one with the format detected, one of a two-file upload ----

    @Property(tries = TRIES)
    void csvIsReadOrRefusedSayingWhy(@ForAll("csv") Mutant mutant) {
        assertReadOrRefused(UploadFormat.CSV, mutant);
    }

    @Property(tries = TRIES)
    void goBenchIsReadOrRefusedSayingWhy(@ForAll("gobench") Mutant mutant) {
        assertReadOrRefused(UploadFormat.GOBENCH, mutant);
    }

    @Property(tries = TRIES)
    void googleBenchmarkIsReadOrRefusedSayingWhy(@ForAll("googlebenchmark") Mutant mutant) {
        assertReadOrRefused(UploadFormat.GOOGLEBENCHMARK, mutant);
    }

    @Property(tries = TRIES)
    void hyperfineIsReadOrRefusedSayingWhy(@ForAll("hyperfine") Mutant mutant) {
        assertReadOrRefused(UploadFormat.HYPERFINE, mutant);
    }

    @Property(tries = TRIES)
    void jmhIsReadOrRefusedSayingWhy(@ForAll("jmh") Mutant mutant) {
        assertReadOrRefused(UploadFormat.JMH, mutant);
    }

    @Property(tries = TRIES)
    void nativeJsonIsReadOrRefusedSayingWhy(@ForAll("json") Mutant mutant) {
        assertReadOrRefused(UploadFormat.JSON, mutant);
    }

    @Property(tries = TRIES)
    void rpcBenchIsReadOrRefusedSayingWhy(@ForAll("rpcbench") Mutant mutant) {
        assertReadOrRefused(UploadFormat.RPCBENCH, mutant);
    }

    /** Without {@code ?format=}: the format is told from the mutant's content, or that it cannot be is said. */
    @Property(tries = TRIES)
    void anyFormatDetectedIsReadOrRefusedSayingWhy(@ForAll("anyFormat") Mutant mutant) {
        assertReadOrRefused(null, mutant);
    }

    /** The mutant as the file 'with' of a two-file upload whose file 'without' is the fixture it came from. */
    @Property(tries = TRIES)
    void aMutantBesideItsFixtureIsReadOrRefusedSayingWhy(@ForAll("anyFormat") Mutant mutant) {
        Optional<Refusal> refusal = assertTimeoutPreemptively(PATIENCE, () -> twoFileRefusal(mutant),
                () -> "reading " + mutant + " took longer than " + PATIENCE);
        refusal.ifPresent(said -> assertSaysWhatIsWrong(said, mutant));
        Statistics.collect(refusal.map(Refusal::step).orElse("stored"));
    }

    /**
     * A file of a JSON format with values of other kinds, numbers out of range, texts and nestings put in place of its
     * values, or values taken out, all of it still JSON: byte mutations mostly end at the parser, these reach the
     * adapter's reading of each field.
     */
    @Property(tries = TRIES)
    void aJsonFileWithValuesOfOtherKindsIsReadOrRefusedSayingWhy(@ForAll("jsonValues") Mutant mutant) {
        assertReadOrRefused(mutant.format(), mutant);
    }

    /**
     * A line of a fixture made hundreds of kilobytes long out of its own words, then ended otherwise: what a line of
     * a format's reading expressions may meet, each at its end, so that one that backtracks over the line for each of
     * its characters takes minutes here.
     */
    @Property(tries = LONG_LINE_TRIES)
    void aVeryLongLineIsReadOrRefusedQuickly(@ForAll("longLines") Mutant mutant) {
        assertReadOrRefused(mutant.format(), mutant);
    }

    private static void assertReadOrRefused(UploadFormat format, Mutant mutant) {
        Optional<Refusal> refusal = assertTimeoutPreemptively(PATIENCE, () -> refusal(format, mutant.bytes()),
                () -> "reading " + mutant + " took longer than " + PATIENCE);
        refusal.ifPresent(said -> assertSaysWhatIsWrong(said, mutant));
        Statistics.collect(refusal.map(Refusal::step).orElse("stored"));
    }

    /**
     * What a 400 says: its message, and the field its error names (null: none); and which step refused it, for the
     * properties' statistics.
     */
    record Refusal(String step, String message, String field) {

        static Refusal of(String step, UploadContentException e) {
            return new Refusal(step, e.getMessage(), e.field());
        }
    }

    /** The steps that refuse an upload, as the statistics name them. */
    private static final String NOT_UTF8 = "refused: not UTF-8";
    private static final String NOT_JSON = "refused: not JSON";
    private static final String READING = "refused by the adapter";
    private static final String VALIDATING = "refused by the validator";

    /**
     * Where a refusal says the problem is: its error's field, or in its message a line, column or offset, what it
     * quotes from the upload ('…'), or the content as a whole ("The upload is not in the format…", "The CSV has a
     * header but no rows.").
     */
    private static final Pattern WHERE = Pattern.compile("\\b(line|column|offset) \\d+|'|^(The upload|The CSV|The "
            + "files|Cannot tell|With two files)");

    private static void assertSaysWhatIsWrong(Refusal refusal, Mutant mutant) {
        assertThat(refusal.message()).as("the refusal of %s", mutant).isNotBlank()
                // a parser's or the JVM's words are not the project's: they name Java types and settings
                .doesNotContain("java.", "io.perflab", "tools.jackson", "Jackson", "StreamReadConstraints",
                        "Exception", "(code ", "CTRL-CHAR");
        assertThat(refusal.field() != null || WHERE.matcher(refusal.message()).find())
                .as("the refusal of %s says where: %s", mutant, refusal.message()).isTrue();
        assertThat(refusal.message()).as("the refusal of %s", mutant).doesNotContainPattern(NOT_WHAT_IT_LOOKS_LIKE);
    }

    /**
     * "The upload is not in the format 'jmh': … found a JSON array of 4 elements (it looks like jmh)": content the
     * format is told by refused as not in it, which says nothing of what is wrong.
     */
    private static final Pattern NOT_WHAT_IT_LOOKS_LIKE = Pattern.compile("not in the format '([a-z]+)'.*\\(it looks "
            + "like \\1\\)");

    /**
     * What {@code POST /api/v1/uploads} answers for {@code bytes} sent as the body with {@code ?format=} (null:
     * detected), short of storing it: empty for an upload it would store, whose values are then checked to be finite,
     * else the 400's message. Every other exception is let through, to fail the property.
     */
    static Optional<Refusal> refusal(UploadFormat format, byte[] bytes) {
        String text;
        try {
            text = UploadText.decode(bytes, "The request body");
        } catch (InvalidUploadException e) {
            return Optional.of(Refusal.of(NOT_UTF8, e));
        }
        ParsedUpload parsed;
        try {
            parsed = FORMATS.parse(text, format, ParsedUpload.WITH, null);
        } catch (UploadContentException e) {
            return Optional.of(Refusal.of(READING, e));
        } catch (JsonContent.MalformedJsonException e) {
            return Optional.of(new Refusal(NOT_JSON, e.getMessage(), e.field()));
        }
        return validated(parsed, UploadValidator.Source.BODY);
    }

    /** As {@link #refusal} for the files 'without' (the mutant's fixture) and 'with' (the mutant) of one upload. */
    private static Optional<Refusal> twoFileRefusal(Mutant mutant) {
        String with;
        try {
            with = UploadText.decode(mutant.bytes(), "The file 'with'");
        } catch (InvalidUploadException e) {
            return Optional.of(Refusal.of(NOT_UTF8, e));
        }
        ParsedUpload parsed;
        try {
            List<ParsedUpload> sides = FORMATS.parseSides(fixture(mutant.fixture()), with, mutant.format());
            if (sides.get(0).variants().size() != 1 || sides.get(1).variants().size() != 1) {
                // as UploadService refuses it
                return Optional.of(new Refusal(READING, "With two files, each must hold one side; this content already "
                        + "holds both 'without' and 'with'. Upload it as one file.", null));
            }
            parsed = ParsedUpload.pair(sides.get(0), sides.get(1));
        } catch (UploadContentException e) {
            return Optional.of(Refusal.of(READING, e));
        } catch (JsonContent.MalformedJsonException e) {
            return Optional.of(new Refusal(NOT_JSON, e.getMessage(), e.field()));
        }
        return validated(parsed, new UploadValidator.Source(List.of(ParsedUpload.WITHOUT, ParsedUpload.WITH), null));
    }

    private static Optional<Refusal> validated(ParsedUpload parsed, UploadValidator.Source source) {
        ValidUpload valid;
        try {
            valid = UploadValidator.validate(parsed, null, null, GitInfo.NONE, source, Map.of(), JsonContent.MAPPER);
        } catch (InvalidUploadException e) {
            return Optional.of(Refusal.of(VALIDATING, e));
        }
        valid.parsed().variants().forEach((side, variant) -> variant.metrics().forEach((key, samples) -> {
            assertThat(samples.values()).as("values of %s in '%s'", key, side).isNotEmpty()
                    .allSatisfy(value -> assertThat(Double.isFinite(value)).as("%s of %s in '%s' is finite", value,
                            key, side).isTrue());
        }));
        return Optional.empty();
    }

    // ---- the mutants ----

    /** The fixtures of each format, by the names {@link #fixture} reads. */
    private static final Map<UploadFormat, List<String>> FIXTURES = Map.of(
            UploadFormat.CSV, List.of("samples.csv"),
            UploadFormat.GOBENCH, List.of("gobench.txt", "gobench-cpu.txt"),
            UploadFormat.GOOGLEBENCHMARK, List.of("googlebenchmark.json"),
            UploadFormat.HYPERFINE, List.of("hyperfine.json", "hyperfine-exit.json"),
            UploadFormat.JMH, List.of("jmh.json", "jmh-modes.json"),
            UploadFormat.JSON, List.of("native-both", "native-one-side"),
            UploadFormat.RPCBENCH, List.of("rpcbench-kudu.txt", "rpcbench-perflab.txt", "rpcbench-modes.txt"));

    static String fixture(String name) {
        return switch (name) {
            case "native-both" -> NATIVE_BOTH;
            case "native-one-side" -> NATIVE_ONE_SIDE;
            default -> Fixtures.read(name);
        };
    }

    @Provide
    Arbitrary<Mutant> csv() {
        return mutants(UploadFormat.CSV);
    }

    @Provide
    Arbitrary<Mutant> gobench() {
        return mutants(UploadFormat.GOBENCH);
    }

    @Provide
    Arbitrary<Mutant> googlebenchmark() {
        return mutants(UploadFormat.GOOGLEBENCHMARK);
    }

    @Provide
    Arbitrary<Mutant> hyperfine() {
        return mutants(UploadFormat.HYPERFINE);
    }

    @Provide
    Arbitrary<Mutant> jmh() {
        return mutants(UploadFormat.JMH);
    }

    @Provide
    Arbitrary<Mutant> json() {
        return mutants(UploadFormat.JSON);
    }

    @Provide
    Arbitrary<Mutant> rpcbench() {
        return mutants(UploadFormat.RPCBENCH);
    }

    @Provide
    Arbitrary<Mutant> anyFormat() {
        return Arbitraries.of(UploadFormat.class).flatMap(HostileUploadPropertyTests::mutants);
    }

    @Provide
    Arbitrary<Mutant> longLines() {
        return Arbitraries.of(UploadFormat.class).flatMap(format -> Combinators.combine(
                Arbitraries.of(FIXTURES.get(format)), stretch()).as((name, stretch) -> new Mutant(format, name,
                List.of(stretch))));
    }

    @Provide
    Arbitrary<Mutant> jsonValues() {
        Arbitrary<Mutation> replaced = Combinators.combine(Arbitraries.integers().between(0, Integer.MAX_VALUE),
                Arbitraries.frequencyOf(Tuple.of(4, Arbitraries.of(JSON_KEPT).map(Run::of)),
                        Tuple.of(1, Arbitraries.just(null)))).as(ReplaceValue::new);
        return Arbitraries.of(UploadFormat.JSON, UploadFormat.JMH, UploadFormat.GOOGLEBENCHMARK,
                UploadFormat.HYPERFINE).flatMap(format -> Combinators.combine(Arbitraries.of(FIXTURES.get(format)),
                replaced.list().ofMinSize(1).ofMaxSize(4)).as((name, mutations) -> new Mutant(format, name,
                mutations)));
    }

    private static Arbitrary<Mutant> mutants(UploadFormat format) {
        return Combinators.combine(Arbitraries.of(FIXTURES.get(format)), mutation().list().ofMinSize(1).ofMaxSize(3))
                .as((name, mutations) -> new Mutant(format, name, mutations));
    }

    /** A fixture of {@code format} and what was done to it, in order. */
    record Mutant(UploadFormat format, String fixture, List<Mutation> mutations) {

        byte[] bytes() {
            // bytes as ISO-8859-1 characters, one each, so that text operations keep every byte as it is
            String content = latin1(HostileUploadPropertyTests.fixture(fixture).getBytes(StandardCharsets.UTF_8));
            for (Mutation mutation : mutations) {
                content = mutation.apply(content);
            }
            return content.getBytes(StandardCharsets.ISO_8859_1);
        }

        @Override
        public String toString() {
            return fixture + " " + mutations;
        }
    }

    /** One change to content whose characters are its bytes ({@link #latin1}). */
    sealed interface Mutation {

        String apply(String content);
    }

    /** The content cut off after {@code at} bytes. */
    record Truncate(int at) implements Mutation {

        @Override
        public String apply(String content) {
            return content.substring(0, at % (content.length() + 1));
        }
    }

    record Replace(int at, Run run) implements Mutation {

        @Override
        public String apply(String content) {
            int i = at % (content.length() + 1);
            return content.substring(0, i) + run.text() + content.substring(Math.min(content.length(),
                    i + run.text().length()));
        }
    }

    record Insert(int at, Run run) implements Mutation {

        @Override
        public String apply(String content) {
            int i = at % (content.length() + 1);
            return content.substring(0, i) + run.text() + content.substring(i);
        }
    }

    record Delete(int at, int length) implements Mutation {

        @Override
        public String apply(String content) {
            int i = at % (content.length() + 1);
            return content.substring(0, i) + content.substring(Math.min(content.length(), i + length));
        }
    }

    record DuplicateLine(int line) implements Mutation {

        @Override
        public String apply(String content) {
            List<String> lines = lines(content);
            int i = line % lines.size();
            lines.add(i, lines.get(i));
            return String.join("", lines);
        }
    }

    record SwapLines(int first, int second) implements Mutation {

        @Override
        public String apply(String content) {
            List<String> lines = lines(content);
            java.util.Collections.swap(lines, first % lines.size(), second % lines.size());
            return String.join("", lines);
        }
    }

    /**
     * The first line of the {@code line}th kind of line (by its first word, counted round), cut after its word
     * {@code from + words}; the words {@code from} to there (each with the white space before it) written again and
     * again until the line is about {@code length} characters long, then {@code tail}.
     */
    record Stretch(int line, int from, int words, int length, Run tail) implements Mutation {

        @Override
        public String apply(String content) {
            List<String> lines = lines(content);
            // a kind of line, each alike (a Go file is mostly result lines), by its first word: its first line
            List<String> kinds = lines.stream().map(HostileUploadPropertyTests::firstWord).distinct().toList();
            int i = lines.stream().map(HostileUploadPropertyTests::firstWord).toList()
                    .indexOf(kinds.get(line % kinds.size()));
            String text = lines.get(i);
            String end = text.endsWith("\n") ? "\n" : "";
            String body = text.substring(0, text.length() - end.length());
            List<int[]> tokens = new ArrayList<>();
            for (Matcher word = TOKEN.matcher(body); word.find(); ) {
                tokens.add(new int[] {word.start(), word.end()});
            }
            if (tokens.isEmpty()) {
                return content;
            }
            int first = from % tokens.size();
            int last = Math.min(tokens.size() - 1, first + words);
            String slice = body.substring(tokens.get(first)[0], tokens.get(last)[1]);
            lines.set(i, body.substring(0, tokens.get(first)[0]) + slice.repeat(Math.max(1, length / slice.length()))
                    + tail.text() + end);
            return String.join("", lines);
        }
    }

    /**
     * The {@code nth} value of the content's JSON tree (counted round, in document order, objects and lists too)
     * written as {@code with}, or taken out of its object or list when {@code with} is null; content that is no
     * JSON is left as it is. A mutation of its bytes mostly ends at the JSON parser; this one reaches the adapter,
     * which must then refuse a value of another kind where it reads one (an object for a list of forks, a number for
     * the results).
     */
    record ReplaceValue(int nth, Run with) implements Mutation {

        private static final String PLACEHOLDER = "\"@@hostile@@\"";

        @Override
        public String apply(String content) {
            tools.jackson.databind.JsonNode root;
            try {
                root = JsonContent.MAPPER.readTree(new String(content.getBytes(StandardCharsets.ISO_8859_1),
                        StandardCharsets.UTF_8));
            } catch (tools.jackson.core.JacksonException notJson) {
                return content;
            }
            // each value with its container and where in it, in document order
            List<Object[]> values = new ArrayList<>();
            collect(root, null, null, values);
            Object[] chosen = values.get(nth % values.size());
            if (chosen[1] == null) {
                return with == null ? content : with.text();
            }
            tools.jackson.databind.JsonNode parent = (tools.jackson.databind.JsonNode) chosen[1];
            if (parent instanceof tools.jackson.databind.node.ObjectNode object) {
                if (with == null) {
                    object.remove((String) chosen[2]);
                } else {
                    object.put((String) chosen[2], "@@hostile@@");
                }
            } else if (parent instanceof tools.jackson.databind.node.ArrayNode list) {
                if (with == null) {
                    list.remove((int) chosen[2]);
                } else {
                    list.set((int) chosen[2], "@@hostile@@");
                }
            }
            String written = latin1(JsonContent.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(root)
                    .getBytes(StandardCharsets.UTF_8));
            return with == null ? written : written.replace(PLACEHOLDER, with.text());
        }

        private static void collect(tools.jackson.databind.JsonNode node, tools.jackson.databind.JsonNode parent,
                Object where, List<Object[]> values) {
            values.add(new Object[] {node, parent, where});
            if (node.isObject()) {
                node.properties().forEach(field -> collect(field.getValue(), node, field.getKey(), values));
            } else if (node.isArray()) {
                for (int i = 0; i < node.size(); i++) {
                    collect(node.get(i), node, i, values);
                }
            }
        }
    }

    /** The {@code nth} number of the content (counted round) written as {@code with}. */
    record ReplaceNumber(int nth, Run with) implements Mutation {

        @Override
        public String apply(String content) {
            return replaceNth(NUMBER, content, nth, with);
        }
    }

    /** The {@code nth} JSON string of the content (counted round), quotes and all, written as {@code with}. */
    record ReplaceString(int nth, Run with) implements Mutation {

        @Override
        public String apply(String content) {
            return replaceNth(STRING, content, nth, with);
        }
    }

    /** The {@code nth} run of characters that are not white space (counted round) written as {@code with}. */
    record ReplaceWord(int nth, Run with) implements Mutation {

        @Override
        public String apply(String content) {
            return replaceNth(WORD, content, nth, with);
        }
    }

    private static final Pattern NUMBER = Pattern.compile("-?\\d+(?:\\.\\d+)?(?:[eE][-+]?\\d+)?");
    // possessive, unrolled: an alternation in a loop recurses once a character, and overflows on a long string
    private static final Pattern STRING = Pattern.compile("\"[^\"\\\\\\n]*+(?:\\\\.[^\"\\\\\\n]*+)*+\"");
    private static final Pattern WORD = Pattern.compile("\\S+");
    private static final Pattern TOKEN = Pattern.compile("\\s*+\\S++");

    private static String replaceNth(Pattern pattern, String content, int nth, Run with) {
        List<int[]> matches = new ArrayList<>();
        Matcher matcher = pattern.matcher(content);
        while (matcher.find()) {
            matches.add(new int[] {matcher.start(), matcher.end()});
        }
        if (matches.isEmpty()) {
            return content;
        }
        int[] match = matches.get(nth % matches.size());
        return content.substring(0, match[0]) + with.text() + content.substring(match[1]);
    }

    private static String firstWord(String line) {
        Matcher word = WORD.matcher(line);
        return word.find() ? word.group() : "";
    }

    /** The lines of {@code content}, each with its line end. */
    private static List<String> lines(String content) {
        return new ArrayList<>(List.of(content.split("(?<=\n)", -1)));
    }

    /** Bytes as ISO-8859-1 text: one character each, whatever they are. */
    static String latin1(byte[] bytes) {
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }

    /** What a mutation writes: its bytes as {@link #latin1} text, and how a failure's report shows them. */
    record Run(String text, String shown) {

        /** The UTF-8 bytes of {@code text}. */
        static Run of(String text) {
            return new Run(latin1(text.getBytes(StandardCharsets.UTF_8)), text.length() > 40
                    ? text.substring(0, 20) + "…(" + text.length() + " characters)" : text);
        }

        static Run bytes(byte[] bytes) {
            return new Run(latin1(bytes), java.util.HexFormat.ofDelimiter(" ").withPrefix("0x").formatHex(bytes));
        }

        static Run repeated(String unit, int times) {
            // at most about a megabyte: the request body may hold 16 MiB, but the properties must stay quick
            int count = Math.min(times, 1_000_000 / unit.length());
            return new Run(latin1(unit.repeat(count).getBytes(StandardCharsets.UTF_8)), "'" + unit + "' × " + count);
        }

        @Override
        public String toString() {
            return "'" + shown.replace("\n", "\\n").replace("\r", "\\r").replace("\0", "\\0") + "'";
        }
    }

    private static Arbitrary<Mutation> mutation() {
        Arbitrary<Integer> anywhere = Arbitraries.integers().between(0, Integer.MAX_VALUE);
        return Arbitraries.frequencyOf(
                Tuple.of(2, anywhere.map(Truncate::new)),
                Tuple.of(2, Combinators.combine(anywhere, runs()).as(Replace::new)),
                Tuple.of(2, Combinators.combine(anywhere, runs()).as(Insert::new)),
                Tuple.of(1, Combinators.combine(anywhere, Arbitraries.integers().between(1, 2048)).as(Delete::new)),
                Tuple.of(1, anywhere.map(DuplicateLine::new)),
                Tuple.of(1, Combinators.combine(anywhere, anywhere).as(SwapLines::new)),
                Tuple.of(1, stretch()),
                Tuple.of(4, Combinators.combine(anywhere, values()).as(ReplaceNumber::new)),
                Tuple.of(2, Combinators.combine(anywhere, values()).as(ReplaceString::new)),
                Tuple.of(3, Combinators.combine(anywhere, Arbitraries.oneOf(values(), Arbitraries.just(null)))
                        .as(ReplaceValue::new)),
                Tuple.of(2, Combinators.combine(anywhere, values()).as(ReplaceWord::new)));
    }

    private static Arbitrary<Mutation> stretch() {
        Arbitrary<Integer> anywhere = Arbitraries.integers().between(0, Integer.MAX_VALUE);
        return Combinators.combine(anywhere, anywhere, Arbitraries.integers().between(0, 3),
                Arbitraries.integers().between(100_000, 400_000), Arbitraries.oneOf(Arbitraries.of(TAILS).map(Run::of),
                        runs())).as(Stretch::new);
    }

    /** How a stretched line ends: as it was cut, in a letter, or in a character that ends a line elsewhere. */
    private static final List<String> TAILS = List.of("", "x", " x", "\u0085x", " \u0085x", "\u2028x", " \u2029x");

    /** Bytes to write into content: special sequences, random bytes, long runs. */
    private static Arbitrary<Run> runs() {
        return Arbitraries.frequencyOf(
                Tuple.of(4, Arbitraries.of(SPECIAL_BYTES).map(Run::bytes)),
                Tuple.of(2, Arbitraries.of(SPECIAL_TEXT).map(Run::of)),
                Tuple.of(3, Arbitraries.bytes().array(byte[].class).ofMinSize(1).ofMaxSize(12).map(Run::bytes)),
                Tuple.of(2, Combinators.combine(Arbitraries.of(UNITS), Arbitraries.integers().between(1, 200_000))
                        .as(Run::repeated)));
    }

    /** What to put in place of a number, a string or a word. */
    private static Arbitrary<Run> values() {
        return Arbitraries.frequencyOf(
                Tuple.of(6, Arbitraries.of(NUMBERS).map(Run::of)),
                Tuple.of(3, Arbitraries.of(JSON_VALUES).map(Run::of)),
                Tuple.of(1, runs()));
    }

    /** Bytes that are not UTF-8 (a lone continuation byte, an overlong form, a surrogate, a cut sequence), NUL… */
    private static final List<byte[]> SPECIAL_BYTES = List.of(new byte[] {0}, new byte[] {(byte) 0xFF},
            new byte[] {(byte) 0x80}, new byte[] {(byte) 0xC0, (byte) 0xBC},
            new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, new byte[] {(byte) 0xE2, (byte) 0x82},
            new byte[] {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80}, new byte[] {'\r'}, new byte[] {'\n'},
            new byte[] {'\r', '\n'}, new byte[] {'\t'}, new byte[] {'"'}, new byte[] {','}, new byte[] {'{'},
            new byte[] {'}'}, new byte[] {'['}, new byte[] {']'}, new byte[] {':'}, new byte[] {'\\'},
            new byte[] {0x1B}, new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF});

    /** Characters that hide, reorder or end lines, and the like. */
    private static final List<String> SPECIAL_TEXT = List.of("\u202E", "\u2028", "\u2029", "\u0085", "\uFFFE",
            "\u200B", "\u00A0", "\u0000", "\u001B[31m", "\uD83D\uDE00", "é", "٣", " / ", ": ", "us", " B",
            " collections, ");

    /** What a very long line or value is made of. */
    private static final List<String> UNITS = List.of("9", "a", " ", "\t", ",", "\"", "[", "{\"a\":", "1 / ",
            "Benchmark", "Reqs/sec: 1\n", "x,1\n", "é", "\u0085", "-");

    /** Values that keep JSON JSON (NaN and Infinity too, which the reader takes for the validator to name). */
    private static final List<String> JSON_KEPT = List.of("null", "true", "false", "0", "-1", "-0.0", "-123.5",
            "1e-400", "1e400", "-1e400", "NaN", "Infinity", "-Infinity", "9".repeat(400), "9223372036854775808",
            "-9223372036854775809", "2147483648", "1.7976931348623157e308", "4.9e-324", "\"12\"", "\"\"", "\" \"",
            "\"NaN\"", "[]", "{}", "[[]]", "[[1]]", "[[-5]]", "[[NaN]]", "[[1e308, 1e308]]", "[[[1, 0]]]",
            "[[[1e308, 1e308]]]", "[[[1, -1]]]", "[[[NaN, 1]]]", "[[[1, 1.5]]]", "{\"a\":1}", "[null]", "[{}]",
            "\"\\u0000\"", "\"\\u001b[31m\"", "\"\\ud800\"", "\"‮\"", "\"" + "x".repeat(10_000) + "\"",
            "[".repeat(400) + "]".repeat(400), "\"ns\"", "\"zzz\"", "\"aggregate\"", "\"thrpt\"", "\"sample\"");

    private static final List<String> NUMBERS = List.of("1e400", "-1e400", "1e-400", "-1", "-0.0", "-123.5", "0",
            "NaN", "-NaN", "Infinity", "-Infinity", "+Infinity", "nan", "inf", "-inf", "INF", "", " ",
            "9".repeat(400), "1" + "0".repeat(5000), "0." + "0".repeat(5000) + "1", "1".repeat(100_000),
            "1e99999999999", "9223372036854775808", "-9223372036854775809", "2147483648", "1.7976931348623157e308",
            "1.8e308", "4.9e-324", "0x1p3", "1d", "2.5f", "1,000", "1_000", "12abc", "1.2.3", "+4E6", ".5", "3.",
            "e5", "--1", "1e", "٣");

    private static final List<String> JSON_VALUES = List.of("null", "true", "\"12\"", "\"\"", "\" \"", "[]", "{}",
            "[[1]]", "[1,2,", "{\"a\":1,\"a\":2}", "\"\\u0000\"", "\"\\u001b[31m\"", "\"\\ud800\"", "\"\u202E\"",
            "\"" + "x".repeat(100_000) + "\"", "[".repeat(5_000) + "]".repeat(5_000),
            "[".repeat(100_000), "{\"a\":".repeat(2_000) + "1" + "}".repeat(2_000), "[".repeat(400) + "1"
                    + "]".repeat(400), "{\"a\":".repeat(400) + "1" + "}".repeat(400), "\"ns\"", "\"with\"",
            "\"without\"", "\"aggregate\"", "\"zzz\"", "-5", "[-5]", "[[-5]]", "[[1e308, 1e308]]",
            "[[[1e308, 1e308]]]", "[[[1, -1]]]", "[[[NaN, 1]]]");
}
