package io.perflab.upload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A JMH, Google Benchmark or hyperfine entry whose fields the tools never write is refused naming the entry and the
 * field.
 */
class JsonHarnessEntriesTests {

    private static final String FIRST = "JMH entry 1 ('bench.StringJoinBenchmark.builder')";

    private final UploadFormats formats = new UploadFormats();

    private static ArrayNode jmh() {
        return (ArrayNode) JsonContent.read(Fixtures.read("jmh.json"));
    }

    private static ObjectNode primary(ArrayNode jmh) {
        return (ObjectNode) jmh.get(0).get("primaryMetric");
    }

    private String refusal(JsonNode content, UploadFormat format) {
        return assertThatThrownBy(() -> formats.parse(content.toString(), format, "with", null))
                .isInstanceOf(InvalidUploadException.class).actual().getMessage();
    }

    @Test
    void refusesRawDataThatIsNoListOfForksInsteadOfDroppingTheEntry() {
        // each was stored without the entry's primary metric, under a warning about gc.* metrics
        ArrayNode flat = jmh();
        primary(flat).putArray("rawData").add(1).add(2);
        assertThat(refusal(flat, UploadFormat.JMH)).isEqualTo(FIRST + ": 'primaryMetric.rawData[0]' must be a list "
                + "of the fork's iterations, as JMH writes it; got a number 1.");
        ArrayNode nothing = jmh();
        primary(nothing).putNull("rawData");
        assertThat(refusal(nothing, UploadFormat.JMH)).isEqualTo(FIRST + ": 'primaryMetric.rawData' must be a list "
                + "of forks, each a list of its iterations, as JMH writes it; got null.");
        ArrayNode list = jmh();
        ((ObjectNode) list.get(0)).putArray("primaryMetric");
        assertThat(refusal(list, UploadFormat.JMH)).isEqualTo(FIRST + ": 'primaryMetric' must be an object (its "
                + "scoreUnit and rawData), as JMH writes it; got a list.");
    }

    @Test
    void refusesABenchmarkNameThatIsNotTextNamingAMethod() {
        // were keyed "[parts=8]" and "5[parts=8]"
        ArrayNode empty = jmh();
        ((ObjectNode) empty.get(0)).put("benchmark", "");
        assertThat(refusal(empty, UploadFormat.JMH)).isEqualTo("JMH entry 1: 'benchmark' must be the benchmark "
                + "method's name as text (\"org.example.MyBench.parse\"), as JMH writes it; got empty text.");
        ArrayNode number = jmh();
        ((ObjectNode) number.get(0)).put("benchmark", 5);
        assertThat(refusal(number, UploadFormat.JMH)).endsWith("as JMH writes it; got a number 5.");
    }

    @Test
    void refusesANegativeTime() {
        ArrayNode negative = jmh();
        ((ArrayNode) primary(negative).get("rawData").get(1)).set(2, -5.0);
        assertThat(refusal(negative, UploadFormat.JMH)).isEqualTo(FIRST + ": 'primaryMetric.rawData[1][2]' is -5.0, "
                + "which JMH's avgt mode never measures; a time or a throughput is at least 0.");
    }

    @Test
    void refusesANegativeGoogleBenchmarkTime() {
        ObjectNode google = (ObjectNode) JsonContent.read(Fixtures.read("googlebenchmark.json"));
        ((ObjectNode) google.get("benchmarks").get(0)).put("real_time", -5);
        assertThat(refusal(google, UploadFormat.GOOGLEBENCHMARK)).isEqualTo("Google Benchmark entry 1 "
                + "('BM_StringAppend/8'): 'real_time' is -5, which Google Benchmark never measures; a time or a rate "
                + "is at least 0.");
    }

    @Test
    void anErrorWithoutAMessageIsSaidSoNotAsNull() {
        ObjectNode google = (ObjectNode) JsonContent.read(Fixtures.read("googlebenchmark.json"));
        ((ObjectNode) google.get("benchmarks").get(0)).put("error_occurred", true);
        assertThat(formats.parse(google.toString(), UploadFormat.GOOGLEBENCHMARK, "with", null).warnings())
                .contains("Google Benchmark entry 'BM_StringAppend/8' reported an error (without a message); it was "
                        + "left out.");
    }

    /**
     * An entry without its benchmark or primary metric, or that is no object, beside JMH's results: the file was "not
     * in the format 'jmh' … found a JSON array of 4 elements (it looks like jmh)", naming neither (found among the
     * refusals of HostileUploadPropertyTests).
     */
    @Test
    void refusesAJmhEntryThatIsNoResultNamingItAndWhatItLacks() {
        ArrayNode nameless = jmh();
        ((ObjectNode) nameless.get(1)).remove("benchmark");
        assertThat(refusal(nameless, UploadFormat.JMH)).isEqualTo("JMH entry 2: 'benchmark' must be the benchmark "
                + "method's name as text (\"org.example.MyBench.parse\"), as JMH writes it; it is missing.");
        ArrayNode scoreless = jmh();
        ((ObjectNode) scoreless.get(1)).remove("primaryMetric");
        assertThat(refusal(scoreless, UploadFormat.JMH)).isEqualTo("JMH entry 2 ('"
                + scoreless.get(1).get("benchmark").asString() + "'): 'primaryMetric' must be an object (its scoreUnit "
                + "and rawData), as JMH writes it; it is missing.");
        ArrayNode number = jmh();
        number.set(3, 5);
        assertThat(refusal(number, UploadFormat.JMH)).isEqualTo("JMH entry 4 must be an object, as JMH writes each "
                + "result; got a number 5.");
    }

    /**
     * Results that are no list or none, a result that is no object, and a first result without its times: the export
     * was "not in the format 'hyperfine' … found a JSON object with the fields [results] (it looks like hyperfine)",
     * where the second result without its times was refused naming it.
     */
    @Test
    void refusesHyperfineResultsThatAreNotWhatHyperfineWritesNamingThem() {
        ObjectNode timeless = (ObjectNode) JsonContent.read(Fixtures.read("hyperfine.json"));
        ((ObjectNode) timeless.get("results").get(0)).remove("times");
        assertThat(refusal(timeless, UploadFormat.HYPERFINE)).isEqualTo("hyperfine result 1 ('sort --version'): "
                + "'times' must be a list of each run's time in seconds, as hyperfine writes it; it is missing.");
        ObjectNode number = (ObjectNode) JsonContent.read(Fixtures.read("hyperfine.json"));
        ((ArrayNode) number.get("results")).set(0, 3);
        assertThat(refusal(number, UploadFormat.HYPERFINE)).isEqualTo("hyperfine result 1 must be an object, as "
                + "hyperfine writes each command's; got a number 3.");
        assertThat(refusal(JsonContent.read("{\"results\": []}"), UploadFormat.HYPERFINE)).isEqualTo("The "
                + "hyperfine export's 'results' must be a list of each command's result, as hyperfine writes it; it is "
                + "empty.");
        assertThat(refusal(JsonContent.read("{\"results\": {\"command\": \"ls\"}}"), UploadFormat.HYPERFINE))
                .endsWith("as hyperfine writes it; got an object.");
    }

    /** Entries that are no list: "not in the format 'googlebenchmark' … (it looks like googlebenchmark)". */
    @Test
    void refusesGoogleBenchmarkEntriesThatAreNoListNamingThem() {
        ObjectNode google = (ObjectNode) JsonContent.read(Fixtures.read("googlebenchmark.json"));
        google.putObject("benchmarks");
        assertThat(refusal(google, UploadFormat.GOOGLEBENCHMARK)).isEqualTo("The Google Benchmark JSON's "
                + "'benchmarks' must be a list of its runs, as Google Benchmark writes it; got an object.");
    }
}
