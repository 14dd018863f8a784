package io.perflab.system;

import static org.assertj.core.api.Assertions.assertThat;

import io.perflab.upload.UploadServer;
import java.io.IOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import tools.jackson.databind.JsonNode;

/**
 * Hostile but realistic requests, one group per finding of the review that found them: numbers that overflow,
 * mistakes that were accepted silently, errors that leaked internals or lost their format, names that broke links.
 * Each is refused with a problem whose detail names the field in the user's terms, and nothing is stored.
 */
class HostileInputTests extends UploadServer {

    private static final String EXPERIMENTS = "/api/v1/experiments";

    private HttpResponse<String> experiment(String json) throws Exception {
        return post(EXPERIMENTS, ADMIN_TOKEN, "application/json", json);
    }

    private static String withPreset(String extra) {
        return "{\"name\":\"hostile\",\"preset\":\"sync-completion\"" + extra + "}";
    }

    private void assertProblem(HttpResponse<String> response, int status, String... fragments) {
        assertProblem(new Raw(response.statusCode(), response.headers().firstValue("Content-Type").orElse(""),
                response.body()), status, fragments);
    }

    private void assertProblem(Raw response, int status, String... fragments) {
        assertThat(response.status()).as(response.body()).isEqualTo(status);
        assertThat(response.contentType()).startsWith("application/problem+json");
        String detail = read(response.body()).get("detail").asString();
        assertThat(detail).contains(fragments);
        assertThat(detail).doesNotContain("java.", "io.perflab", "tools.jackson", "Jackson", "StreamReadConstraints",
                "`", "Exception");
    }

    @Test
    void numbersThatOverflowAreRefusedNamingTheField() throws Exception {
        Map<String, Long> before = rowCounts();
        assertProblem(post("/api/v1/analyze", null, "application/json",
                "{\"with\":[1e308,1e308,1e308],\"without\":[1,2,3]}"), 400, "with[0]", "values too large to compare");
        assertProblem(post("/api/v1/uploads", ADMIN_TOKEN, "application/json", "{\"benchmark\":\"huge\","
                + "\"without\":{\"metrics\":{\"t\":{\"values\":[1e308,1e308]}}},"
                + "\"with\":{\"metrics\":{\"t\":{\"values\":[1,2]}}}}"), 400, "Metric 't'", "too large to compare");
        assertProblem(experiment(withPreset(",\"workload\":{\"runSeconds\":18446744074.709551616}")), 400,
                "workload.runSeconds", "18446744074.709551616");
        assertProblem(experiment(withPreset(",\"workload\":{\"warmupSeconds\":\"auto:18446744074.709551616\"}")),
                400, "workload.warmupSeconds", "must be at most 600 s, got 18446744074.709551616");
        assertProblem(experiment(withPreset(",\"workload\":{\"runSeconds\":1e20}")), 400, "workload.runSeconds",
                "1E+20");
        assertThat(rowCounts()).isEqualTo(before);
    }

    @Test
    void mistakesThatWereAcceptedSilentlyAreRefused() throws Exception {
        Map<String, Long> before = rowCounts();
        assertProblem(experiment(withPreset(",\"runsPerVariant\":2.5")), 400, "runsPerVariant",
                "must be a whole number");
        assertProblem(experiment(withPreset(",\"runPerVariant\":2")), 400, "runPerVariant", "unknown field",
                "runsPerVariant");
        assertProblem(post("/api/v1/analyze", null, "application/json",
                "{\"with\":[1,2,3],\"with\":[4,5,6],\"without\":[1,2,3]}"), 400, "appears twice", "with");
        // a name is 1 to 200 characters: too long it was said to be "between 0 and 200", though "" is refused
        assertProblem(experiment("{\"name\":\"" + "n".repeat(300) + "\",\"preset\":\"sync-completion\"}"), 400,
                "name: size must be between 1 and 200");
        assertProblem(experiment("{\"name\":\"\",\"preset\":\"sync-completion\"}"), 400, "name: must not be blank");
        assertProblem(experiment(withPreset(",\"with\":{\"\":\"monitor\"}")), 400, "must not be blank");
        assertProblem(experiment(withPreset(",\"with\":{\"" + "k".repeat(41) + "\":\"monitor\"}")), 400,
                "size must be between 1 and 40");
        for (String name : new String[] {"a\\u0000b", "a\\u001b[31mred", "bell\\u0007", "two\\r\\nlines"}) {
            assertProblem(experiment("{\"name\":\"" + name + "\",\"preset\":\"sync-completion\"}"), 400, "name",
                    "control characters");
        }
        assertProblem(post("/api/v1/uploads?format=csv&benchmark=a%07b", ADMIN_TOKEN, "text/plain",
                "metric,value\nt,1\nt,2\n"), 400, "'benchmark' holds a control character");
        // at either end too: trim() cut these off, and the upload was stored as "[2Jcsv" and "nightly"
        assertProblem(post("/api/v1/uploads?format=csv&benchmark=%1B%5B2Jcsv", ADMIN_TOKEN, "text/plain",
                "metric,value\nt,1\nt,2\n"), 400, "'benchmark' holds a control character (U+001B) at position 1");
        assertProblem(post("/api/v1/uploads?format=csv&benchmark=csv&name=nightly%07", ADMIN_TOKEN, "text/plain",
                "metric,value\nt,1\nt,2\n"), 400, "'name' holds a control character (U+0007) at position 8");
        assertProblem(post("/api/v1/uploads?format=csv&benchmark=csv", ADMIN_TOKEN, "text/plain",
                "metric,value\nt,1d\nt,0x1p3\n"), 400, "'1d' is not a number");
        // each of these answered 500 (an object or a list where text belongs), or was stored and shown as it was
        // (an escape code in a unit, a right-to-left override in a name), or stored a commit in year 999999999
        String metrics = "\"metrics\":{\"m\":[1,2,3]}";
        assertProblem(upload("{\"benchmark\":{\"a\":1}," + metrics + "}"), 400,
                "'benchmark' must be text, got an object");
        assertProblem(upload("{\"benchmark\":\"b\",\"git\":{\"branch\":[1]}," + metrics + "}"), 400,
                "'git.branch' must be text, got a list");
        assertProblem(upload("{\"benchmark\":\"b\",\"tags\":[\"x\",{\"a\":1}]," + metrics + "}"), 400,
                "tags[1] is an object");
        assertProblem(upload("{\"benchmark\":\"b\",\"metrics\":{\"m\":{\"unit\":\"n\\u001b[31ms\","
                + "\"values\":[1,2]}}}"), 400,
                "The unit of metric 'm' holds a control character (U+001B) at position 2");
        assertProblem(upload("{\"benchmark\":\"b\",\"name\":\"\\u202eexe.txt\"," + metrics + "}"), 400,
                "'name' holds a hidden format character (U+202E) at position 1");
        assertProblem(upload("{\"benchmark\":\"b\",\"git\":{\"commit\":\"c\","
                + "\"commitTime\":999999999999999}," + metrics + "}"), 400,
                "git.commitTime must lie between 1970-01-01T00:00:00Z and 9999-12-31T23:59:59Z");
        byte[] overlong = "{\"name\":\"a__b\",\"preset\":\"sync-completion\"}".getBytes(StandardCharsets.UTF_8);
        int at = new String(overlong, StandardCharsets.UTF_8).indexOf("__");
        overlong[at] = (byte) 0xC0;
        overlong[at + 1] = (byte) 0xBC;
        assertProblem(postBytes(EXPERIMENTS, overlong), 400, "not valid UTF-8");
        assertThat(rowCounts()).isEqualTo(before);
    }

    private HttpResponse<String> upload(String json) throws Exception {
        return post("/api/v1/uploads", ADMIN_TOKEN, "application/json", json);
    }

    @Test
    void textWhereANumberOrTrueFalseBelongsIsRefusedNotConverted() throws Exception {
        Map<String, Long> before = rowCounts();
        assertProblem(experiment(withPreset(",\"runsPerVariant\":\"\"")), 400, "runsPerVariant",
                "must be a whole number");
        assertProblem(experiment(withPreset(",\"pairs\":\"8\"")), 400, "pairs", "must be a whole number");
        assertProblem(experiment(withPreset(",\"workload\":{\"clientThreads\":\"16\"}")), 400,
                "workload.clientThreads", "must be a whole number");
        assertProblem(experiment(withPreset(",\"workload\":{\"runSeconds\":\"5\"}")), 400, "workload.runSeconds",
                "must be a number");
        assertProblem(experiment(withPreset(",\"workload\":{\"encryption\":1}")), 400, "workload.encryption",
                "must be true or false");
        assertProblem(experiment(withPreset(",\"workload\":{\"encryption\":\"true\"}")), 400,
                "workload.encryption", "must be true or false");
        // an option's value is text, and a number there is read as the text it is: only the pairs are refused
        HttpResponse<String> numberAsOptionValue = experiment("{\"name\":\"buffers\",\"pairs\":1,"
                + "\"without\":{\"callBufferInitialBytes\":256},\"with\":{\"callBufferInitialBytes\":4096}}");
        assertProblem(numberAsOptionValue, 400, "pairs: must be greater than or equal to 2, got 1");
        assertThat(read(numberAsOptionValue.body()).get("errors")).hasSize(1);
        assertThat(rowCounts()).isEqualTo(before);
    }

    /** A number, true/false or an object where text belongs was turned into text and stored ("123", "{"a":1}"). */
    @Test
    void aNumberTrueFalseObjectOrListWhereTextBelongsIsRefusedNotStoredAsText() throws Exception {
        Map<String, Long> before = rowCounts();
        long tokens = jdbc.sql("SELECT COUNT(*) FROM api_token").query(Long.class).single();
        for (String value : new String[] {"123", "1.5", "true", "{\"a\":1}", "[\"a\"]"}) {
            assertProblem(experiment("{\"name\":" + value + ",\"preset\":\"sync-completion\"}"), 400,
                    "name: must be text");
            assertProblem(experiment(withPreset(",\"hostLabels\":{\"a\":" + value + "}")), 400,
                    "hostLabels.a: must be text");
            assertProblem(experiment(withPreset(",\"description\":" + value)), 400, "description: must be text");
            assertProblem(post("/api/v1/tokens", ADMIN_TOKEN, "application/json", "{\"name\":" + value + "}"),
                    400, "name: must be text");
            assertProblem(post("/api/v1/agents", ADMIN_TOKEN, "application/json",
                    "{\"name\":" + value + ",\"runsCommands\":false}"), 400, "name: must be text");
            assertProblem(post("/api/v1/agents", ADMIN_TOKEN, "application/json",
                    "{\"name\":\"host\",\"runsCommands\":false,\"environment\":{\"cpus\":" + value + "}}"), 400,
                    "environment.cpus: must be text");
        }
        assertThat(rowCounts()).isEqualTo(before);
        assertThat(jdbc.sql("SELECT COUNT(*) FROM api_token").query(Long.class).single()).isEqualTo(tokens);
        // an engine option's value may be written as a number (textWhereANumber…), not as an object
        assertProblem(experiment("{\"name\":\"buffers\",\"with\":{\"callBufferInitialBytes\":{\"a\":1}}}"), 400,
                "with.callBufferInitialBytes: must be text");
    }

    /** The server took keys the CLI refuses (a tab, byte 0xE9): it applies the CLI's rule, which is the server's. */
    @Test
    void anIdempotencyKeyThatIsNotPrintableAsciiIsRefusedNamingTheCharacter() throws Exception {
        Map<String, Long> before = rowCounts();
        String body = "{\"benchmark\":\"idempotent\",\"without\":{\"metrics\":{\"t\":{\"values\":[1,2,3]}}},"
                + "\"with\":{\"metrics\":{\"t\":{\"values\":[1,2,3]}}}}";
        // the header's bytes, one character each: curl sends é as UTF-8's two bytes, and — as three, one a C1 control
        String[][] cases = {{"a\tb", "The Idempotency-Key header must be printable ASCII", "character 2 is U+0009"},
            {"caf\u00e9", "The Idempotency-Key header must be printable ASCII", "character 4 is U+00E9"},
            {utf8Bytes("caf\u00e9"), "character 4 is U+00C3 (a header is read byte by byte: that is a byte of text "
                    + "that is not ASCII, such as UTF-8)", "must be printable ASCII"},
            {utf8Bytes("a\u2014b"), "its header 'Idempotency-Key' holds a character a header may not",
                    "Send the header's value as printable ASCII"}};
        for (String[] c : cases) {
            assertProblem(raw("POST /api/v1/uploads HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer "
                    + ADMIN_TOKEN + "\r\nContent-Type: application/json\r\nIdempotency-Key: " + c[0]
                    + "\r\nContent-Length: " + body.length() + "\r\nConnection: close\r\n\r\n" + body), 400,
                    c[1], c[2]);
        }
        assertThat(rowCounts()).isEqualTo(before);
    }

    /** Smaller findings of the hostile-input review: each message said too much, too little or the wrong thing. */
    @Test
    void messagesQuoteLittleSayTheRealRangeAndNullAndAnEmptyTargetListIsRefused() throws Exception {
        Map<String, Long> before = rowCounts();
        HttpResponse<String> huge = post("/api/v1/analyze", null, "application/json",
                "{\"with\":[1,2,3],\"without\":[1,2,3],\"alternative\":\"" + "x".repeat(1_000_000) + "\"}");
        assertProblem(huge, 400, "alternative: unknown alternative 'xxx", "use two-sided, two.sided, less or greater");
        assertThat(huge.body()).as("the value cut short, not echoed whole").hasSizeLessThan(1000);
        HttpResponse<String> malformed = post("/api/v1/analyze", null, "application/json", "{");
        assertProblem(malformed, 400, "The request body is not valid JSON (line 1, column 2)");
        assertThat(read(malformed.body()).get("detail").asString()).containsOnlyOnce("not valid JSON");
        assertProblem(experiment(withPreset(",\"runsPerVariant\":9223372036854775808")), 400,
                "runsPerVariant: is out of range: a whole number from 2 to 1000 is allowed");
        assertProblem(experiment(withPreset(",\"hostLabels\":{\"a\":null}")), 400, "label a: value is null");
        assertProblem(experiment(withPreset(",\"design\":\"alternating\",\"target\":[]")), 400,
                "target: an empty list names no target");
        assertProblem(get("/api/v1/benchmarks/some/history?branch=%00"), 400,
                "branch: must be text without control characters; it has a control character (U+0000) at position 1");
        assertProblem(get("/api/v1/benchmarks?name=a%1Bb"), 400, "name: must be text without control characters");
        assertThat(rowCounts()).isEqualTo(before);

        // a machine description's entry whose value is null is left out, as an upload's is
        HttpResponse<String> registered = post("/api/v1/agents", ADMIN_TOKEN, "application/json",
                "{\"name\":\"null-cpu\",\"runsCommands\":false,\"environment\":{\"cpu\":null,\"os\":\"linux\"}}");
        assertThat(registered.statusCode()).as(registered.body()).isEqualTo(201);
        assertThat(jdbc.sql("SELECT environment FROM agent WHERE name = 'null-cpu'").query(String.class).single())
                .contains("linux").doesNotContain("cpu");
    }

    @Test
    void aFieldLeftOutOrNullIsCalledMissingNotMistyped() throws Exception {
        Map<String, Long> before = rowCounts();
        assertProblem(post("/api/v1/agents", ADMIN_TOKEN, "application/json", "{\"name\":\"host\"}"), 400,
                "runsCommands: is missing or null: it must be true or false");
        assertProblem(post("/api/v1/agents", ADMIN_TOKEN, "application/json",
                "{\"name\":\"host\",\"runsCommands\":null}"), 400, "runsCommands: is missing or null");
        assertProblem(experiment(withPreset(",\"runsPerVariant\":\"two\"")), 400,
                "runsPerVariant: must be a whole number");
        assertThat(rowCounts()).isEqualTo(before);
    }

    /** page × size went past an int: a negative offset (a 500) or another page's experiments. */
    @Test
    void aPageFarBeyondTheLastIsEmpty() throws Exception {
        uploadTwoSamples("far-page");
        HttpResponse<String> api = get("/api/v1/experiments?page=10737419&size=200");
        assertThat(api.statusCode()).as(api.body()).isEqualTo(200);
        assertThat(read(api.body()).get("items")).isEmpty();
        HttpResponse<String> page = http.send(HttpRequest.newBuilder(URI.create(base() + "/experiments?page=85899346"))
                .header("Accept", "text/html").build(), HttpResponse.BodyHandlers.ofString());
        assertThat(page.statusCode()).as("the list page says there is no such page").isEqualTo(404);
        assertThat(page.body()).containsPattern("There is no page\\s*<span>85899347</span>");
    }

    /**
     * The agents' list stopped at 200 and took no page (an agent token may register any number, and every restart
     * of {@code perflab agent} registers again); the tokens' list had no bound at all.
     */
    @Test
    void agentsAndTokensAreListedAPageAtATime() throws Exception {
        newToken("listed one");
        newToken("listed two");
        for (String name : new String[] {"listed-a", "listed-b"}) {
            assertThat(post("/api/v1/agents", ADMIN_TOKEN, "application/json", "{\"name\":\"" + name
                    + "\",\"runsCommands\":false}").statusCode()).isEqualTo(201);
        }
        for (String list : new String[] {"/api/v1/agents", "/api/v1/tokens"}) {
            JsonNode first = read(asAdmin(list + "?size=1").body());
            JsonNode second = read(asAdmin(list + "?page=1&size=1").body());
            assertThat(first.get("items")).as(list).hasSize(1);
            assertThat(first.get("total").asLong()).as(list).isGreaterThanOrEqualTo(2);
            assertThat(second.get("items").get(0).get("id").asLong()).as(list)
                    .isLessThan(first.get("items").get(0).get("id").asLong());
            assertProblem(asAdmin(list + "?size=201"), 400, "size: must be between 1 and 200, got 201");
            assertProblem(asAdmin(list + "?page=-1"), 400, "page: must be ≥ 0, got -1");
        }
    }

    private HttpResponse<String> asAdmin(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(base() + path)).header("Accept", "application/json")
                .header("Authorization", "Bearer " + ADMIN_TOKEN).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Two benchmarks that showed alike as 'café', one typed with a combining accent: each had its own history. */
    @Test
    void aBenchmarkNameIsOneNameHoweverItsAccentsWereTyped() throws Exception {
        String csv = "metric,value\nt,1\nt,2\n";
        assertThat(post("/api/v1/uploads?format=csv&branch=main&commit=n1&benchmark=caf%C3%A9-nfc", ADMIN_TOKEN,
                "text/plain", csv).statusCode()).isEqualTo(201);
        HttpResponse<String> decomposed = post("/api/v1/uploads?format=csv&branch=main&commit=n2"
                + "&benchmark=cafe%CC%81-nfc", ADMIN_TOKEN, "text/plain", csv);
        assertThat(decomposed.statusCode()).as(decomposed.body()).isEqualTo(201);
        assertThat(read(decomposed.body()).get("benchmark").asString()).isEqualTo("caf\u00e9-nfc");
        assertThat(decomposed.body()).doesNotContain("No earlier upload");
        JsonNode listed = read(get("/api/v1/benchmarks?name=cafe%CC%81-n").body());
        assertThat(listed.get("total").asLong()).isOne();
        assertThat(get("/api/v1/benchmarks/history?benchmark=cafe%CC%81-nfc").statusCode()).isEqualTo(200);
    }

    /**
     * A query parameter that the API request does not take was ignored: {@code ?benchmrk=} stored the upload under
     * the name its output gave, and {@code ?stauts=failed} listed every experiment.
     */
    @Test
    void aQueryParameterTheRequestDoesNotTakeIsRefusedNamingThoseItTakes() throws Exception {
        Map<String, Long> before = rowCounts();
        assertProblem(post("/api/v1/uploads?benchmrk=misspelt&format=csv", ADMIN_TOKEN, "text/plain",
                "metric,value\nt,1\nt,2\n"), 400, "Parameter 'benchmrk' is not one POST /api/v1/uploads takes; "
                + "it takes: baseCommit, benchmark, branch,");
        assertThat(rowCounts()).isEqualTo(before);
        assertProblem(get(EXPERIMENTS + "?stauts=failed"), 400, "Parameter 'stauts' is not one GET "
                + "/api/v1/experiments takes; it takes: benchmark, kind, name, page, size, status.");
        assertProblem(get("/api/v1/benchmarks/history?benchmark=x&metrc=t"), 400, "Parameter 'metrc'",
                "it takes: benchmark, branch, metric, page, size.");
        uploadTwoSamples("known-parameters");
        long id = read(get(EXPERIMENTS + "?benchmark=known-parameters").body()).get("items").get(0).get("id")
                .asLong();
        assertProblem(get(EXPERIMENTS + "/" + id + "/samples?metric=t"), 400, "Parameter 'metric'", "it takes none.");
        assertProblem(get(EXPERIMENTS + "?x%E2%80%AE=1"), 400, "Parameter 'x\\u202E'");
        // pages take what a link carries
        assertThat(http.send(HttpRequest.newBuilder(URI.create(base() + "/experiments?utm_source=x"))
                .header("Accept", "text/html").build(), HttpResponse.BodyHandlers.ofString()).statusCode())
                .isEqualTo(200);
    }

    /**
     * A filter or page number given twice was joined with commas or read as its first value: {@code ?name=a&name=b}
     * listed the experiments named "a,b" (none, and said so as if it were the answer), {@code ?page=1&page=5} page 1.
     */
    @Test
    void aQueryParameterOfOneValueGivenTwiceIsRefusedNamingIt() throws Exception {
        uploadTwoSamples("twice-listed");
        assertProblem(get(EXPERIMENTS + "?name=twice-listed&name=other"), 400,
                "Parameter 'name' given twice ('twice-listed', 'other'); give each parameter once.");
        assertProblem(get(EXPERIMENTS + "?page=0&page=5&page=6&page=7"), 400,
                "Parameter 'page' given 4 times ('0', '5', '6', …)");
        assertProblem(get("/api/v1/benchmarks?name=a&name=b"), 400, "Parameter 'name' given twice");
        assertProblem(asAdmin("/api/v1/tokens?size=1&size=2"), 400, "Parameter 'size' given twice");
        HttpResponse<String> page = http.send(HttpRequest.newBuilder(URI.create(base()
                + "/experiments?status=RUNNING&status=DONE")).header("Accept", "text/html").build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(page.statusCode()).isEqualTo(400);
        assertThat(page.body()).contains("Parameter &#39;status&#39; given twice");
        // once each, as before
        JsonNode once = read(get(EXPERIMENTS + "?benchmark=twice-listed&page=0").body());
        assertThat(once.get("total").asLong()).isPositive();
    }

    @Test
    void aPathOrQueryValueOfTheWrongTypeIsNamedWithoutJavaTypes() throws Exception {
        assertProblem(get("/api/v1/experiments/abc"), 400, "id: must be a whole number up to 9223372036854775807",
                "got 'abc'");
        assertProblem(get("/api/v1/experiments?page=99999999999"), 400,
                "page: must be a whole number up to 2147483647, got '99999999999'");
        HttpResponse<String> page = http.send(HttpRequest.newBuilder(URI.create(base() + "/experiments/abc"))
                .header("Accept", "text/html").build(), HttpResponse.BodyHandlers.ofString());
        assertThat(page.statusCode()).isEqualTo(400);
        assertThat(page.body()).contains("id: must be a whole number up to 9223372036854775807, got &#39;abc&#39;")
                .doesNotContain("java.", "Failed to convert");
    }

    @Test
    void aTokenOrAgentNameWithAControlOrHiddenCharacterIsRefused() throws Exception {
        long tokens = jdbc.sql("SELECT COUNT(*) FROM api_token").query(Long.class).single();
        for (String name : new String[] {"a\\u001bb", "ci\\u0000", "line\\nbreak", "rtl\\u202egnp.exe"}) {
            assertProblem(post("/api/v1/tokens", ADMIN_TOKEN, "application/json", "{\"name\":\"" + name + "\"}"),
                    400, "name: must be printable text without control characters");
        }
        assertThat(jdbc.sql("SELECT COUNT(*) FROM api_token").query(Long.class).single()).isEqualTo(tokens);
        assertProblem(post("/api/v1/agents", ADMIN_TOKEN, "application/json",
                "{\"name\":\"host\\u202e\",\"runsCommands\":false}"), 400, "name: 1 to 200 printable characters");
    }

    @Test
    void errorsSayWhatWasWrongWithoutJavaTypes() throws Exception {
        assertProblem(experiment(withPreset(",\"runsPerVariant\":1e10")), 400, "runsPerVariant");
        assertProblem(experiment(withPreset(",\"runsPerVariant\":\"many\"")), 400, "runsPerVariant",
                "whole number");
        assertProblem(experiment(withPreset(",\"workload\":[1]")), 400, "workload", "must be an object");
        assertProblem(experiment("{\"name\":\"x\",\"preset\":"), 400, "not valid JSON");
        assertProblem(post("/api/v1/analyze", null, "application/json", "{\"with\":" + "[".repeat(2000)
                + "]".repeat(2000) + "}"), 400, "too deeply nested");
        assertProblem(post("/api/v1/analyze", null, "application/json", "{\"with\":[" + "1".repeat(5000)
                + "],\"without\":[1,2]}"), 400, "a number is written with more digits than 1000");
        // Spring's message for these named the handler method, its class and return type
        for (String body : new String[] {"", "null"}) {
            HttpResponse<String> missing = post("/api/v1/tokens", ADMIN_TOKEN, "application/json", body);
            assertProblem(missing, 400, "the request body is empty or null; it must be a JSON object");
            assertThat(missing.body()).doesNotContain("io.perflab", "ResponseEntity", "org.springframework");
        }
    }

    @Test
    void aMultipartBodyThatCannotBeReadIsA400NotA500() throws Exception {
        Map<String, Long> before = rowCounts();
        String unclosed = "--b0undary\r\nContent-Disposition: form-data; name=\"without\"; filename=\"a\"\r\n\r\n"
                + "metric,value\nt,1\n";
        String type = "multipart/form-data; boundary=b0undary";
        assertProblem(post("/api/v1/uploads", ADMIN_TOKEN, type, unclosed), 400, "multipart body cannot be read",
                "followed by '--'");
        assertProblem(post("/api/v1/analyze", null, type, unclosed), 400, "multipart body cannot be read");
        assertThat(rowCounts()).isEqualTo(before);
    }

    @Test
    void anAcceptHeaderThatIsNotAMediaTypeListIsSaidSo() throws Exception {
        for (String accept : new String[] {"garbage", "a/b/c", "text/html;q=x"}) {
            for (String path : new String[] {EXPERIMENTS, EXPERIMENTS + "/987654", EXPERIMENTS + "/1/report"}) {
                HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(base() + path))
                        .header("Accept", accept).GET().build(), HttpResponse.BodyHandlers.ofString());
                assertProblem(response, 400, "The Accept header is not a list of media types");
            }
        }
    }

    /** The body was read as it came: a gzipped one was "not valid UTF-8", a plain one that claimed gzip was stored. */
    @Test
    void aCompressedBodyIsRefusedAsUnsupportedNotReadAsText() throws Exception {
        Map<String, Long> before = rowCounts();
        for (String encoding : new String[] {"gzip", "identity, br"}) {
            assertProblem(post("/api/v1/uploads?format=csv&benchmark=encoded", ADMIN_TOKEN, "text/plain",
                    "metric,value\nt,1\nt,2\n", "Content-Encoding", encoding), 415, "Content-Encoding '"
                    + (encoding.equals("gzip") ? "gzip" : "br") + "' is not supported");
        }
        assertThat(rowCounts()).isEqualTo(before);
        assertThat(post("/api/v1/uploads?format=csv&benchmark=encoded", ADMIN_TOKEN, "text/plain",
                "metric,value\nt,1\nt,2\n", "Content-Encoding", "identity").statusCode()).isEqualTo(201);
    }

    @Test
    void textQuotedFromTheRequestCannotReorderTheMessage() throws Exception {
        HttpResponse<String> status = get(EXPERIMENTS + "?status=x%E2%80%AEy");
        assertProblem(status, 400, "unknown value 'x\\u202Ey'");
        assertThat(status.body()).doesNotContain("\u202e");
        HttpResponse<String> benchmark = get("/api/v1/benchmarks/x%E2%80%AEy/history");
        assertProblem(benchmark, 404, "x\\u202Ey");
        assertThat(benchmark.body()).doesNotContain("\u202e");
        HttpResponse<String> page = http.send(HttpRequest.newBuilder(URI.create(base()
                + "/benchmarks/x%E2%80%AEy")).header("Accept", "text/html").GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(page.statusCode()).isEqualTo(404);
        assertThat(page.body()).contains("x\\u202Ey").doesNotContain("\u202e");
    }

    /**
     * An experiment's kind and budget were quoted whole, however long, where other messages quote at most 60
     * characters, escapes included.
     */
    @Test
    void anExperimentsKindAndBudgetAreQuotedEscapedAndShort() throws Exception {
        Map<String, Long> before = rowCounts();
        HttpResponse<String> kind = experiment(withPreset(",\"kind\":\"x\\u001B\\u202E" + "k".repeat(100)
                + "\""));
        assertProblem(kind, 400, "kind: unknown kind 'x\\u001B\\u202E" + "k".repeat(46) + "…'; allowed: engine");
        assertThat(kind.body()).doesNotContain("\u001B", "\u202E");
        HttpResponse<String> budget = experiment(withPreset(",\"budget\":\"1"
                + "\\u001B".repeat(5) + "\\u202E".repeat(6) + "\""));
        assertProblem(budget, 400, "budget", "got '1" + "\\u001B".repeat(5) + "\\u202E".repeat(4) + "…'");
        assertThat(budget.body()).doesNotContain("\u001B", "\u202E");
        assertThat(rowCounts()).isEqualTo(before);
    }

    /**
     * Jackson's message for a body with more after its JSON value named the token and the Java type the body was
     * bound to ({@code io.perflab.experiment.ExperimentRequest}, {@code tools.jackson.databind.JsonNode}).
     */
    @Test
    void moreAfterTheJsonValueIsRefusedWithoutJavaNames() throws Exception {
        Map<String, Long> before = rowCounts();
        long tokens = jdbc.sql("SELECT COUNT(*) FROM api_token").query(Long.class).single();
        assertProblem(post("/api/v1/tokens", ADMIN_TOKEN, "application/json", "{\"name\":\"a\"} 5"), 400,
                "more follows the end of the JSON value", "send one JSON value, nothing after it");
        assertProblem(experiment(withPreset("") + withPreset("")), 400, "more follows the end of the JSON value");
        assertProblem(post("/api/v1/analyze", null, "application/json", "{\"with\":[1,2],\"without\":[1,2]}[]"),
                400, "more follows the end of the JSON value");
        assertProblem(post("/api/v1/uploads", ADMIN_TOKEN, "application/json",
                "{\"benchmark\":\"trailing\",\"metrics\":{\"t\":{\"values\":[1,2]}}} {}"), 400,
                "more follows the end of the JSON value (line 1, column");
        // Jackson's words for other faults quoted its parser ("Unexpected close marker ']': no open Array to close")
        assertProblem(post("/api/v1/uploads", ADMIN_TOKEN, "application/json",
                "{\"benchmark\":\"x\",\"metrics\":{\"t\":{\"values\":[1,2]]}}}"), 400,
                "a ']' stands where a '}' should close what is open (line 1, column");
        assertProblem(post("/api/v1/uploads", ADMIN_TOKEN, "application/json",
                "{\"benchmark\":\"x\",\"metrics\":{\"t\":{\"values\":[1,2]}}} ]"), 400,
                "The request body is not valid JSON: a ']' closes nothing that is open (line 1, column 52)");
        assertProblem(post("/api/v1/uploads", ADMIN_TOKEN, "application/json",
                "{\"benchmark\":\"x\",\"metrics\":{\"t\":{\"values\":[1,2,x]}}}"), 400,
                "'x' is not a JSON value (text is written in double quotes) (line 1, column");
        // the API's own bodies said only "not valid JSON (line 1, column 45)" of what an upload's file names
        assertProblem(post("/api/v1/analyze", null, "application/json",
                "{\"with\":[1,2],\"without\":[1,2],\"alternative\":\"a\0b\"}"), 400,
                "The request body is not valid JSON: a text holds the control character U+0000 (line 1, column ",
                "), which JSON writes as an escape (\\u0000)");
        assertProblem(post("/api/v1/analyze", null, "application/json", "{\"with\":[1,02],\"without\":[1,2]}"),
                400, "The request body is not valid JSON: a number begins with a 0 followed by a digit (line 1, "
                        + "column ", "write 12, not 012");
        assertProblem(experiment("{\"name\":\"x\",\"preset\":\"sync-completion\"]"), 400,
                "not valid JSON: a ']' stands where a '}' should close what is open (line 1, column");
        assertThat(rowCounts()).isEqualTo(before);
        assertThat(jdbc.sql("SELECT COUNT(*) FROM api_token").query(Long.class).single()).isEqualTo(tokens);
    }

    /** A list where a workload's mode or stack belongs was refused with Jackson's words, naming Java types. */
    @Test
    void aListWhereAChoiceBelongsIsRefusedWithTheChoices() throws Exception {
        Map<String, Long> before = rowCounts();
        assertProblem(experiment(withPreset(",\"workload\":{\"mode\":[\"sync\"]}")), 400,
                "workload.mode: must be one of sync, async");
        assertProblem(experiment(withPreset(",\"workload\":{\"stack\":[]}")), 400, "workload.stack: must be one of");
        assertThat(rowCounts()).isEqualTo(before);
    }

    /** A whole number beyond a double's range (a 400-digit integer) made the analysis fail with 500. */
    @Test
    void aWholeNumberBeyondADoublesRangeIsTooLargeNotAnInternalError() throws Exception {
        String huge = "1" + "0".repeat(400);
        assertProblem(post("/api/v1/analyze", null, "application/json", "{\"with\":[" + huge
                + ",2],\"without\":[1,2]}"), 400, "with[0] is too large to be a finite number: 1000");
        assertProblem(post("/api/v1/analyze", null, "application/json", "{\"with\":[1,2],\"without\":[1,2],"
                + "\"margin\":-" + huge + "}"), 400, "margin is too large to be a finite number");
    }

    /** A machine description's entry whose value was null made the upload fail with 500, after it was read. */
    @Test
    void aMachineEntryWithoutAValueIsLeftOut() throws Exception {
        HttpResponse<String> created = post("/api/v1/uploads", ADMIN_TOKEN, "application/json",
                "{\"benchmark\":\"null-machine\",\"metrics\":{\"t\":{\"values\":[1,2]}},"
                        + "\"machine\":{\"gpu\":null,\"os\":\"linux\",\"cache\":{\"l3\":null}}}");
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        JsonNode machine = read(jdbc.sql("SELECT machine FROM experiment WHERE id = ?")
                .param(read(created.body()).get("experimentId").asLong()).query(String.class).single());
        assertThat(machine.has("gpu")).isFalse();
        assertThat(machine.get("os").asString()).isEqualTo("linux");
        assertThat(machine.get("cache").has("l3")).isTrue();
    }

    /**
     * Tomcat refused a parameter that is not %-escaped UTF-8 with a message that called it "ignored" and asked for
     * debug logging, and logged the refusal as a server error with its stack trace.
     */
    @Test
    @ExtendWith(OutputCaptureExtension.class)
    void aParameterThatIsNotUtf8IsRefusedNamingIt(CapturedOutput log) throws Exception {
        assertProblem(get(EXPERIMENTS + "?name=%FF"), 400,
                "The query parameter 'name' (name=%FF) is not %-escaped UTF-8 text", "(é is %C3%A9)");
        // sent as it is: an HTTP client refuses to send a % that starts no escape
        assertProblem(raw("GET /api/v1/benchmarks?name=caf%C3%A9&page=%ZZ HTTP/1.1\r\nHost: localhost\r\n"
                + "Accept: application/json\r\nConnection: close\r\n\r\n"), 400,
                "The query parameter 'page' (page=%ZZ) is not %-escaped UTF-8 text");
        HttpResponse<String> page = http.send(HttpRequest.newBuilder(URI.create(base() + "/experiments?sort=%C0%AF"))
                .header("Accept", "text/html").build(), HttpResponse.BodyHandlers.ofString());
        assertThat(page.statusCode()).isEqualTo(400);
        assertThat(page.body()).contains("The query parameter &#39;sort&#39; (sort=%C0%AF) is not %-escaped UTF-8")
                .doesNotContain("ignored", "debug level");
        assertProblem(post("/login", null, "application/x-www-form-urlencoded", "username=%FF&password=x",
                "Accept", "application/json"), 400, "A form field is not %-escaped UTF-8 text");
        // read by a page's template as it renders (the sign-in page's ?error), or by nothing at all: refused alike,
        // each time; the first of the sign-in page's logged the template's failure with its stack trace
        for (String path : new String[] {"/login?error=%G1", "/login?error=%G1", "/agents?x=%FF"}) {
            Raw refused = raw("GET " + path + " HTTP/1.1\r\nHost: localhost\r\nAccept: text/html\r\n"
                    + "Connection: close\r\n\r\n");
            assertThat(refused.status()).as(path).isEqualTo(400);
            assertThat(refused.body()).contains("The query parameter &#39;" + path.replaceAll(".*\\?(\\w+)=.*", "$1"));
        }
        assertThat(log.getOut() + log.getErr()).doesNotContain("InvalidParameterException", "TemplateProcessing");
    }

    /**
     * A write that a browser says another site's page sent is refused whatever credentials ride on it: basic
     * credentials a browser keeps for the host after a user:pass@ address signed such a write in, without a CSRF token.
     */
    @Test
    void aWriteAnotherSitesPageSentIsRefusedWhateverItsCredentials() throws Exception {
        String basic = "Basic " + java.util.Base64.getEncoder().encodeToString("admin:wrong".getBytes());
        for (String authorization : new String[] {"Bearer " + ADMIN_TOKEN, basic}) {
            assertProblem(post(EXPERIMENTS, null, "application/json", "{}", "Authorization", authorization,
                    "Sec-Fetch-Site", "cross-site"), 403,
                    "sent by a page of another site (Sec-Fetch-Site: cross-site)");
        }
        // from PerfLab's own pages, or from a client that is no browser, it goes on to be judged:
        // a request without name
        assertThat(post(EXPERIMENTS, ADMIN_TOKEN, "application/json", "{}", "Sec-Fetch-Site", "same-origin")
                .statusCode()).isEqualTo(400);
        assertThat(post(EXPERIMENTS, ADMIN_TOKEN, "application/json", "{}").statusCode()).isEqualTo(400);
        // a read is no write
        assertThat(http.send(HttpRequest.newBuilder(URI.create(base() + EXPERIMENTS)).header("Sec-Fetch-Site",
                "cross-site").GET().build(), HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(200);
    }

    /** The error path asked for itself answers no error: it said 500, "PerfLab hit an internal error". */
    @Test
    void theErrorPathItselfIsNotFound() throws Exception {
        assertProblem(get("/error"), 404, "Nothing at GET /error.");
        HttpResponse<String> page = http.send(HttpRequest.newBuilder(URI.create(base() + "/error"))
                .header("Accept", "text/html").build(), HttpResponse.BodyHandlers.ofString());
        assertThat(page.statusCode()).isEqualTo(404);
        assertThat(page.body()).contains("Nothing at GET /error.").doesNotContain("internal error");
    }

    /**
     * The error page is for a client whose Accept takes HTML at least as gladly as JSON; one that refuses HTML
     * ({@code q=0}) or prefers JSON gets the problem. Any range that named HTML, even with {@code q=0}, got the page.
     */
    @Test
    void anErrorIsAPageOnlyForAnAcceptThatTakesHtml() throws Exception {
        for (String accept : new String[] {"text/html;q=0, application/json", "text/*, text/html;q=0",
            "application/json, text/html;q=0.5", "*/*"}) {
            HttpResponse<String> problem = http.send(HttpRequest.newBuilder(URI.create(base() + "/no-such-page"))
                    .header("Accept", accept).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(problem.headers().firstValue("Content-Type")).as(accept).hasValue("application/problem+json");
            assertProblem(problem, 404, "Nothing at GET /no-such-page.");
        }
        for (String accept : new String[] {"text/html", "text/html,application/xhtml+xml,application/xml;q=0.9,"
                + "*/*;q=0.8", "application/json;q=0, text/html;q=0.1", "text/*, */*"}) {
            HttpResponse<String> page = http.send(HttpRequest.newBuilder(URI.create(base() + "/no-such-page"))
                    .header("Accept", accept).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(page.statusCode()).as(accept).isEqualTo(404);
            assertThat(page.headers().firstValue("Content-Type").orElseThrow()).as(accept).startsWith("text/html");
            assertThat(page.body()).contains("Back to the home page");
        }
    }

    /**
     * Tomcat refuses a path that is not %-escaped UTF-8 before the application sees it: a browser got a problem in
     * JSON instead of the error page, and both it and an API client were told of encoded slashes and oversized
     * headers. The refusal is the application's now, which says what was wrong with the path.
     */
    @Test
    @ExtendWith(OutputCaptureExtension.class)
    void aPathThatIsNotUtf8IsRefusedSayingSo(CapturedOutput log) throws Exception {
        for (String path : new String[] {"/experiments/%FF", "/experiments/%E2%28", "/benchmarks/%G1/history"}) {
            Raw page = raw("GET " + path + " HTTP/1.1\r\nHost: localhost\r\nAccept: text/html\r\n"
                    + "Connection: close\r\n\r\n");
            assertThat(page.status()).as(page.body()).isEqualTo(400);
            assertThat(page.contentType()).startsWith("text/html");
            assertThat(page.body()).contains("<title>400 Bad Request · PerfLab</title>", "class=\"site-header\"",
                    "The path &#39;" + path + "&#39; is not %-escaped UTF-8 text: encode the text as UTF-8");
        }
        for (String path : new String[] {EXPERIMENTS + "/%FF", EXPERIMENTS + "/%E2%28", EXPERIMENTS + "/%G1",
            "/api/v1/benchmarks/%C0%AF/history"}) {
            assertProblem(raw("GET " + path + " HTTP/1.1\r\nHost: localhost\r\nAccept: application/json\r\n"
                    + "Connection: close\r\n\r\n"), 400, "The path '" + path + "' is not %-escaped UTF-8 text",
                    "(é is %C3%A9)");
        }
        assertProblem(raw("POST " + EXPERIMENTS + "/%FF/cancel HTTP/1.1\r\nHost: localhost\r\nAuthorization: "
                + "Bearer " + ADMIN_TOKEN + "\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"), 400,
                "The path '" + EXPERIMENTS + "/%FF/cancel' is not %-escaped UTF-8 text");
        assertThat(log.getOut() + log.getErr()).doesNotContain("Malformed escape pair", "Invalid encoded sequence",
                "Exception Processing [ErrorPage");
    }

    /** Tomcat refuses these as it refuses undecodable parameters; they were said to be "not %-escaped UTF-8". */
    @Test
    void aFormLargerThanTheServerReadsOrTooManyParametersAreSaidSo() throws Exception {
        assertProblem(post("/login", null, "application/x-www-form-urlencoded", "username=admin&password="
                + "x".repeat(3_000_000), "Accept", "application/json"), 413,
                "The form's body is larger than the server reads as form fields");
        assertProblem(get("/experiments?" + "a=1&".repeat(1001)), 400,
                "The request has more parameters, of its query and its form together, than the server reads");
    }

    /**
     * Spring read a whole number in a path or query without its white space and as hexadecimal:
     * {@code /api/v1/experiments/0%205} was experiment 5 (as {@code 3%209} was 39), and so were {@code 0x5} and
     * {@code #5}; a {@code DELETE} of such an address deleted that experiment.
     */
    @Test
    void aWholeNumberInAPathOrQueryIsDecimalDigitsOnly() throws Exception {
        uploadTwoSamples("decimal-ids");
        long id = read(get(EXPERIMENTS + "?benchmark=decimal-ids").body()).get("items").get(0).get("id").asLong();
        for (String written : new String[] {"0%20" + id, "0x" + Long.toHexString(id), "%23" + id}) {
            assertProblem(get(EXPERIMENTS + "/" + written), 400, "id: must be a whole number up to "
                    + "9223372036854775807, got '");
            HttpResponse<String> deleted = http.send(HttpRequest.newBuilder(URI.create(base() + EXPERIMENTS + "/"
                    + written)).header("Authorization", "Bearer " + ADMIN_TOKEN).DELETE().build(),
                    HttpResponse.BodyHandlers.ofString());
            assertProblem(deleted, 400, "id: must be a whole number");
        }
        assertThat(get(EXPERIMENTS + "/" + id).statusCode()).isEqualTo(200);
        assertThat(get(EXPERIMENTS + "/%20" + id + "%20").statusCode()).isEqualTo(200);
        assertProblem(get(EXPERIMENTS + "?size=1%200"), 400,
                "size: must be a whole number up to 2147483647, got '1 0'");
        assertProblem(asAdmin("/api/v1/tokens?page=0x0"), 400, "page: must be a whole number");
        HttpResponse<String> page = http.send(HttpRequest.newBuilder(URI.create(base() + "/experiments/0x"
                + Long.toHexString(id))).header("Accept", "text/html").build(), HttpResponse.BodyHandlers.ofString());
        assertThat(page.statusCode()).isEqualTo(400);
    }

    @ParameterizedTest
    @ValueSource(strings = {"/api/v1/..;/..;/etc/passwd", "/api/v1/%2e%2e/experiments", "/api/v1/a%2fb",
        "/api/v1/experiments/1;jsessionid=x", "/api/v1/experiments%5c1"})
    void pathsTheFirewallRefusesAnswerAProblem(String path) throws Exception {
        assertProblem(raw("GET " + path + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"), 400,
                "This request is refused");
    }

    @Test
    void tooLargeRequestsAnswerAProblem() throws Exception {
        String huge = "a".repeat(20_000);
        assertProblem(raw("GET /api/v1/experiments HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer " + huge
                + "\r\nConnection: close\r\n\r\n"), 400, "This request is refused",
                "headers are malformed or larger than the server accepts");

        // a chunked multipart upload of 40 MB: the server answers once 16 MiB have come, and may close early
        String head = "POST /api/v1/uploads HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer " + ADMIN_TOKEN
                + "\r\nContent-Type: multipart/form-data; boundary=b0undary\r\nTransfer-Encoding: chunked\r\n"
                + "Connection: close\r\n\r\n";
        byte[] part = ("--b0undary\r\nContent-Disposition: form-data; name=\"without\"; filename=\"a\"\r\n\r\n")
                .getBytes(StandardCharsets.UTF_8);
        try (Socket socket = new Socket("localhost", port)) {
            Thread writer = new Thread(() -> {
                try {
                    var out = socket.getOutputStream();
                    out.write(head.getBytes(StandardCharsets.ISO_8859_1));
                    out.write(chunk(part));
                    byte[] block = chunk(new byte[64 * 1024]);
                    for (int i = 0; i < 640; i++) {
                        out.write(block);
                    }
                } catch (IOException e) {
                    // the server answered and closed: what this test expects
                }
            });
            writer.start();
            Raw tooLarge = parse(new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
            writer.join();
            assertProblem(tooLarge, 413, "larger than the server accepts");
        }
    }

    /**
     * What Tomcat refuses before the application sees it — a malformed request line, headers over the size limit, a
     * path that is not %-escaped UTF-8 — names what was wrong in errors[] as every 400 does, one error of the request
     * as a whole whose message is the detail: the valve's answer, written by hand, had no errors[].
     */
    @Test
    void refusalsOfTomcatItselfSayWhatWasWrongInErrors() throws Exception {
        Map<String, Raw> refused = new java.util.LinkedHashMap<>();
        refused.put("a malformed request line", raw("G{T " + EXPERIMENTS + " HTTP/1.1\r\nHost: localhost\r\n"
                + "Connection: close\r\n\r\n"));
        refused.put("a request target with a character no path has", raw("GET " + EXPERIMENTS + "{x} HTTP/1.1\r\n"
                + "Host: localhost\r\nConnection: close\r\n\r\n"));
        refused.put("an oversized header", raw("GET " + EXPERIMENTS + " HTTP/1.1\r\nHost: localhost\r\nX-Big: "
                + "a".repeat(20_000) + "\r\nConnection: close\r\n\r\n"));
        refused.put("a path that is not UTF-8", raw("GET " + EXPERIMENTS + "/%FF HTTP/1.1\r\nHost: localhost\r\n"
                + "Accept: application/json\r\nConnection: close\r\n\r\n"));
        refused.forEach((what, answer) -> {
            assertProblem(answer, 400, what.endsWith("UTF-8") ? "is not %-escaped UTF-8 text" : "This request is "
                    + "refused: its path holds a character the server does not accept");
            JsonNode problem = read(answer.body());
            assertThat(problem.get("title").asString()).as(what).isEqualTo("Bad Request");
            assertThat(problem.get("errors")).as(what).hasSize(1);
            assertThat(problem.get("errors").get(0).has("field")).as(what + ": the request as a whole").isFalse();
            assertThat(problem.get("errors").get(0).get("message").asString()).as(what)
                    .isEqualTo(problem.get("detail").asString());
        });
    }

    private static byte[] chunk(byte[] data) {
        byte[] size = (Integer.toHexString(data.length) + "\r\n").getBytes(StandardCharsets.ISO_8859_1);
        byte[] framed = new byte[size.length + data.length + 2];
        System.arraycopy(size, 0, framed, 0, size.length);
        System.arraycopy(data, 0, framed, size.length, data.length);
        framed[framed.length - 2] = '\r';
        framed[framed.length - 1] = '\n';
        return framed;
    }

    @Test
    void everyStoredBenchmarkNameCanBeOpened() throws Exception {
        for (String name : new String[] {"with%percent", "back\\slash", "semi;colon", "go/pkg/../Name", "plain"}) {
            HttpResponse<String> created = post("/api/v1/uploads?format=csv&benchmark="
                    + java.net.URLEncoder.encode(name, StandardCharsets.UTF_8), ADMIN_TOKEN, "text/plain",
                    "metric,value\nt,1\nt,2\n");
            assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        }
        String list = http.send(HttpRequest.newBuilder(URI.create(base() + "/benchmarks")).GET().build(),
                HttpResponse.BodyHandlers.ofString()).body();
        java.util.regex.Matcher links = java.util.regex.Pattern.compile("href=\"(/benchmarks[/?][^\"]*)\"")
                .matcher(list);
        int opened = 0;
        while (links.find()) {
            String href = links.group(1).replace("&amp;", "&");
            HttpResponse<String> page = http.send(HttpRequest.newBuilder(URI.create(base() + href)).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(page.statusCode()).as(href).isEqualTo(200);
            opened++;
        }
        assertThat(opened).isGreaterThanOrEqualTo(5);
    }

    private HttpResponse<String> postBytes(String path, byte[] body) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(base() + path))
                .header("Content-Type", "application/json").header("Authorization", "Bearer " + ADMIN_TOKEN)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** A response read off a socket: its status, content type and body. */
    private record Raw(int status, String contentType, String body) {
    }

    /** {@code text}'s UTF-8 bytes as {@link #raw} sends them, one character a byte. */
    private static String utf8Bytes(String text) {
        return new String(text.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1);
    }

    /** Sends {@code request} as it is, bytes on a socket, since an HTTP client would clean it up first. */
    private Raw raw(String request) throws IOException {
        try (Socket socket = new Socket("localhost", port)) {
            socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            socket.getOutputStream().flush();
            return parse(new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        }
    }

    /** A response's status line, content type and body (one chunk at most, as error answers are). */
    private static Raw parse(String answer) {
        int headersEnd = answer.indexOf("\r\n\r\n");
        String head = answer.substring(0, headersEnd);
        String body = answer.substring(headersEnd + 4);
        java.util.regex.Matcher type = java.util.regex.Pattern.compile("(?im)^Content-Type:\\s*(.+)$").matcher(head);
        if (head.toLowerCase(java.util.Locale.ROOT).contains("transfer-encoding: chunked")) {
            body = body.substring(body.indexOf("\r\n") + 2, body.lastIndexOf("\r\n0\r\n"));
        }
        return new Raw(Integer.parseInt(head.substring(9, 12)), type.find() ? type.group(1).trim() : "", body);
    }
}
