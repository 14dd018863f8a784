package io.perflab.upload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The worst of {@link HostileUploadPropertyTests}'s mutants, sent to {@code POST /api/v1/uploads}: each is a 400
 * problem whose detail says what is wrong and where, answered at once, and the uploads stored before keep their rows
 * and their samples as they were.
 */
class HostileUploadApiTests extends UploadServer {

    /** A mutant: its query, its bytes, and what its problem's detail and error field say. */
    private record Mutant(String query, byte[] body, String detail, String field) {

        Mutant(String query, String body, String detail, String field) {
            this(query, body.getBytes(StandardCharsets.UTF_8), detail, field);
        }
    }

    private static List<Mutant> mutants() {
        List<Mutant> mutants = new ArrayList<>();
        // a GC line of 300 KB that does not end in " ms": its reading took minutes
        String rpc = Fixtures.read("rpcbench-perflab.txt");
        mutants.add(new Mutant("?format=rpcbench", rpc.replaceFirst("GC:               1 collections, 67 ms",
                "GC:               " + "1 collections, ".repeat(20_000) + "x"),
                "after 'GC:' rpc-bench writes '<count> collections, <pause> ms'; the line holds '1 collections, ",
                null));
        // (U+0085 within a Go result line, whose samples were lost without a word, is read as Go reads it since:
        // GoBenchAdapterTests)
        // a number of 5001 digits, values nested 600 deep, a NUL in a text: "a number, name or text is too long, or
        // values are nested too deeply, to be read" and "it is not valid JSON", saying neither which nor what
        mutants.add(new Mutant("", "{\"benchmark\":\"hostile\",\"metrics\":{\"t\":[1, 1" + "0".repeat(5000) + "]}}",
                "The request body is not valid JSON: the number at metrics.t[1] has 5001 characters; a number may "
                        + "have at most 1000 (line 1, column 43)", "metrics.t[1]"));
        mutants.add(new Mutant("?format=jmh", "[".repeat(600) + "]".repeat(600),
                "The request body is not valid JSON: values are nested more than 500 deep, deeper than can be read "
                        + "(line 1, column 501)", null));
        mutants.add(new Mutant("?format=googlebenchmark", Fixtures.read("googlebenchmark.json")
                .replaceFirst("\"BM_StringAppend/8\"", "\"BM_\u0000StringAppend/8\""),
                "The request body is not valid JSON: a text holds the control character U+0000 (line", null));
        // an entry without its primaryMetric, a first result without its times: "not in the format … (it looks
        // like jmh)", "… (it looks like hyperfine)"
        ArrayNode jmh = (ArrayNode) JsonContent.read(Fixtures.read("jmh.json"));
        ((ObjectNode) jmh.get(1)).remove("primaryMetric");
        mutants.add(new Mutant("?format=jmh", jmh.toString(), "JMH entry 2 ('bench.StringJoinBenchmark.builder'): "
                + "'primaryMetric' must be an object (its scoreUnit and rawData), as JMH writes it; it is missing.",
                "[1].primaryMetric"));
        ObjectNode hyperfine = (ObjectNode) JsonContent.read(Fixtures.read("hyperfine.json"));
        ((ObjectNode) hyperfine.get("results").get(0)).remove("times");
        mutants.add(new Mutant("", hyperfine.toString(), "hyperfine result 1 ('sort --version'): 'times' must be a "
                + "list of each run's time in seconds, as hyperfine writes it; it is missing.", "results[0].times"));
        // the CSV reader's words: "Unexpected character ('x' (code 120)): Expected column separator character"
        String quoted = Fixtures.read("samples.csv").replaceFirst("\nparse_ns,", "\n\"parse_ns\"x,");
        mutants.add(new Mutant("?format=csv", quoted, "The CSV cannot be read at line 2: a quoted field's closing "
                + "quote is followed by 'x'", null));
        // bytes that are not UTF-8, and JMH's output cut off
        byte[] csv = Fixtures.read("samples.csv").getBytes(StandardCharsets.UTF_8);
        byte[] overlong = new byte[csv.length + 2];
        System.arraycopy(csv, 0, overlong, 0, 30);
        overlong[30] = (byte) 0xC0;
        overlong[31] = (byte) 0xBC;
        System.arraycopy(csv, 30, overlong, 32, csv.length - 30);
        mutants.add(new Mutant("?format=csv", overlong, "The request body is not valid UTF-8: byte 0xC0 at offset 30 "
                + "(line 2)", null));
        String whole = Fixtures.read("jmh.json");
        mutants.add(new Mutant("?format=jmh", whole.substring(0, whole.length() / 2),
                "The request body is not valid JSON: it ends before its last value is complete", null));
        return mutants;
    }

    @Test
    void theWorstMutantsAre400SayingWhatIsWrongAndTheUploadsBeforeAreAsTheyWere() throws Exception {
        String token = newToken("hostile-upload-api-tests");
        List<Long> stored = new ArrayList<>();
        for (String[] upload : new String[][] {{"?format=csv&benchmark=hostile-before", Fixtures.read("samples.csv")},
            {"", HostileUploadPropertyTests.NATIVE_BOTH}, {"?format=gobench", Fixtures.read("gobench.txt")}}) {
            HttpResponse<String> created = post("/api/v1/uploads" + upload[0], token, "text/plain", upload[1]);
            assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
            stored.add(read(created.body()).get("experimentId").asLong());
        }
        Map<String, Long> rows = rowCounts();
        List<String> contents = contents(stored);

        for (Mutant mutant : mutants()) {
            HttpResponse<String> response = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> http.send(
                    HttpRequest.newBuilder(URI.create(base() + "/api/v1/uploads" + mutant.query()))
                            .header("Authorization", "Bearer " + token).header("Content-Type", "text/plain")
                            .POST(HttpRequest.BodyPublishers.ofByteArray(mutant.body())).build(),
                    HttpResponse.BodyHandlers.ofString()));
            assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
            assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                    type -> assertThat(type).startsWith("application/problem+json"));
            JsonNode problem = read(response.body());
            assertThat(problem.get("detail").asString()).as(mutant.detail()).contains(mutant.detail())
                    .doesNotContain("java.", "tools.jackson", "Jackson", "Exception");
            JsonNode error = problem.get("errors").get(0);
            assertThat(error.has("field") ? error.get("field").asString() : null).as(mutant.detail())
                    .isEqualTo(mutant.field());
        }

        assertThat(rowCounts()).isEqualTo(rows);
        assertThat(contents(stored)).isEqualTo(contents);
    }

    /** Each experiment as the API gives it, its samples and the rows of its metrics. */
    private List<String> contents(List<Long> experiments) throws Exception {
        List<String> contents = new ArrayList<>();
        for (long id : experiments) {
            HttpResponse<String> samples = get("/api/v1/experiments/" + id + "/samples");
            assertThat(samples.statusCode()).isEqualTo(200);
            contents.add(samples.body());
            contents.add(jdbc.sql("SELECT name, benchmark, status FROM experiment WHERE id = ?").param(id)
                    .query((row, n) -> row.getString(1) + "|" + row.getString(2) + "|" + row.getString(3)).single());
            contents.add(String.join(",", jdbc.sql("SELECT metric_key || ' ' || unit FROM experiment_metric WHERE "
                    + "experiment_id = ? ORDER BY metric_key").param(id).query(String.class).list()));
        }
        return contents;
    }
}
