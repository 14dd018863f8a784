package io.perflab.system;

import static org.assertj.core.api.Assertions.assertThat;

import io.perflab.upload.UploadServer;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.databind.JsonNode;

/**
 * What the API answers is what {@code /v3/api-docs} says it answers, read as a client generated from the document
 * reads it: each status an operation answers is documented for it, with the media type answered, and each JSON body
 * is valid against that response's schema, read strictly ({@link ResponseSchemas}). Each test collects what is wrong
 * with every answer it gets and fails with the list. Its experiments ask for host labels that only the agent of
 * {@link #anAgentRegistersClaimsPostsAndEnds} carries, so no trial runs.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ApiResponseSchemaTests extends UploadServer {

    /** Host labels of this class's experiments: only the agent registered here claims them. */
    private static final String POOL = "{\"pool\": \"schema-check\"}";

    private static final String JSON = "application/json";

    private ResponseSchemas schemas;
    private final List<String> problems = new ArrayList<>();

    @BeforeAll
    void document() throws Exception {
        HttpResponse<String> doc = get("/v3/api-docs");
        assertThat(doc.statusCode()).isEqualTo(200);
        schemas = new ResponseSchemas(read(doc.body()));
    }

    @BeforeEach
    void noProblemsYet() {
        problems.clear();
    }

    @AfterEach
    void everyAnswerAsDocumented() {
        assertThat(problems).isEmpty();
    }

    @Test
    void experimentsQueuedListedReadAndControlled() throws Exception {
        long id = read(checked(202, json("POST", "/api/v1/experiments", ADMIN_TOKEN, """
                {"name": "schema check queued", "preset": "sync-completion", "runsPerVariant": 2,
                 "description": "two\\nlines", "hostLabels": %s}""".formatted(POOL))).body()).get("id").asLong();
        String experiment = "/api/v1/experiments/" + id;

        checked(200, get(experiment));
        checked(200, get("/api/v1/experiments?name=schema+check&size=200"));
        checked(200, get("/api/v1/experiments?status=QUEUED&kind=engine&size=5"));
        checked(200, get(experiment + "/samples"));
        streamed(200, experiment + "/events");
        streamed(200, "/api/v1/experiments/events");
        checked(202, send("POST", experiment + "/cancel", ADMIN_TOKEN, null));
        checked(409, send("POST", experiment + "/cancel", ADMIN_TOKEN, null));
        checked(202, send("POST", experiment + "/resume", ADMIN_TOKEN, null));
        checked(409, send("POST", experiment + "/resume", ADMIN_TOKEN, null));
        checked(403, send("POST", experiment + "/rerun", newToken("schema check user"), null));
        String copy = "/api/v1/experiments/" + id(checked(202, send("POST", experiment + "/rerun", ADMIN_TOKEN,
                null)), "id");
        checked(202, send("POST", copy + "/cancel", ADMIN_TOKEN, null));
        checked(204, send("DELETE", copy, ADMIN_TOKEN, null));
        checked(409, send("DELETE", experiment, ADMIN_TOKEN, null));
        checked(202, send("POST", experiment + "/cancel", ADMIN_TOKEN, null));
        checked(204, send("DELETE", experiment, ADMIN_TOKEN, null));
        checked(404, get(experiment));
    }

    /**
     * An engine experiment's kind is {@code engine} in any locale: in a Turkish one it was {@code engıne}, with a
     * dotless i, which is none of the kinds the document lists.
     */
    @Test
    void anExperimentsKindIsOneTheDocumentListsInAnyLocale() throws Exception {
        long id = read(checked(202, json("POST", "/api/v1/experiments", ADMIN_TOKEN, """
                {"name": "schema check locale", "preset": "sync-completion", "runsPerVariant": 2,
                 "hostLabels": %s}""".formatted(POOL))).body()).get("id").asLong();
        Locale before = Locale.getDefault();
        try {
            Locale.setDefault(Locale.forLanguageTag("tr-TR"));
            assertThat(read(checked(200, get("/api/v1/experiments/" + id)).body()).get("kind").asString())
                    .isEqualTo("engine");
        } finally {
            Locale.setDefault(before);
        }
        checked(202, send("POST", "/api/v1/experiments/" + id + "/cancel", ADMIN_TOKEN, null));
        checked(204, send("DELETE", "/api/v1/experiments/" + id, ADMIN_TOKEN, null));
    }

    @Test
    void uploadsOfEachBodyTheirComparisonsReportsAndHistory() throws Exception {
        String benchmark = "schema-check-go";
        String uploads = "/api/v1/uploads?benchmark=" + benchmark + "&branch=main&commit=";
        checked(201, send("POST", uploads + "c1", ADMIN_TOKEN, go(0), "Content-Type", "text/plain"));
        long withBase = id(checked(201, send("POST", uploads + "c2", ADMIN_TOKEN, go(3), "Content-Type",
                "text/plain")));
        long oneFile = id(checked(201, multipart(uploads + "c3", "file", go(5))));
        long twoFiles = id(checked(201, multipart("/api/v1/uploads?benchmark=schema-check-pair", "without", go(0),
                "with", go(7))));
        checked(201, json("POST", "/api/v1/uploads", ADMIN_TOKEN, """
                {"benchmark": "schema-check-json", "variant": "with", "tags": ["nightly"],
                 "machine": {"cpu": "test CPU", "cores": 8},
                 "metrics": {"parse": {"unit": "ns", "direction": "lower", "values": [12.1, 12.3, 12.2]}},
                 "git": {"branch": "main", "commit": "j1", "commitTime": "2025-04-01T08:00:00Z"}}"""));

        checked(200, get("/api/v1/experiments/" + withBase + "/base-comparison"));
        checked(404, get("/api/v1/experiments/" + twoFiles + "/base-comparison"));
        checked(409, send("POST", "/api/v1/experiments/" + twoFiles + "/rerun", ADMIN_TOKEN, null));
        checked(200, get("/api/v1/experiments/" + withBase));
        checked(200, get("/api/v1/experiments/" + twoFiles));
        checked(200, get("/api/v1/experiments/" + twoFiles + "/samples"));
        checked(200, send("GET", "/api/v1/experiments/" + twoFiles + "/samples", null, null, "Accept", "text/csv"));
        checked(200, get("/api/v1/experiments?kind=upload&benchmark=" + benchmark + "&size=200"));
        checked(200, get("/api/v1/experiments?name=schema-check&size=200"));
        for (String report : List.of("/report.html", "/report.md", "/report.txt")) {
            checked(200, get("/api/v1/experiments/" + oneFile + report));
        }
        checked(200, send("GET", "/api/v1/experiments/" + oneFile + "/report", null, null, "Accept", "text/markdown"));
        checked(406, send("GET", "/api/v1/experiments/" + oneFile + "/report", null, null, "Accept", JSON));
        checked(404, get("/api/v1/experiments/999999999/report.md"));

        checked(200, get("/api/v1/benchmarks?name=schema-check"));
        checked(200, get("/api/v1/benchmarks/" + benchmark + "/history?metric=Join:ns/op"));
        checked(200, get("/api/v1/benchmarks/history?benchmark=schema-check-json&metric=parse&branch=main"));
        checked(404, get("/api/v1/benchmarks/schema-check-none/history"));
        checked(404, get("/api/v1/benchmarks/history?benchmark=schema-check/none"));
        checked(400, get("/api/v1/benchmarks/" + benchmark + "/history?metric=nope"));
    }

    @Test
    void analyzeWelchAndPaired() throws Exception {
        String samples = "\"with\": [16.1, 17.2, 16.5, 16.9, 17.0, 16.4], "
                + "\"without\": [18.3, 18.0, 17.1, 17.9, 18.4, 17.6]";
        checked(200, json("POST", "/api/v1/analyze", null, "{" + samples + "}"));
        checked(200, json("POST", "/api/v1/analyze", null, "{" + samples
                + ", \"paired\": true, \"alternative\": \"less\", \"better\": \"higher\", \"margin\": 2}"));
        checked(200, send("POST", "/api/v1/analyze", null, "{" + samples + "}", "Content-Type", JSON,
                "Accept", "text/plain"));
        checked(400, json("POST", "/api/v1/analyze", null, "{\"with\": [1]}"));
        checked(415, send("POST", "/api/v1/analyze", null, "{" + samples + "}", "Content-Type", "text/plain"));
    }

    @Test
    void tokensCreatedListedReadAndRevoked() throws Exception {
        revokeToken("schema check");
        HttpResponse<String> created = checked(201, json("POST", "/api/v1/tokens", ADMIN_TOKEN,
                "{\"name\": \"schema check\"}"));
        long id = id(created, "id");
        String user = read(created.body()).get("token").asString();

        checked(400, json("POST", "/api/v1/tokens", ADMIN_TOKEN, "{\"name\": \"schema check\"}"));
        checked(200, send("GET", "/api/v1/tokens?size=200", ADMIN_TOKEN, null));
        checked(200, send("GET", "/api/v1/tokens/" + id, ADMIN_TOKEN, null));
        checked(403, send("GET", "/api/v1/tokens", user, null));
        checked(401, send("GET", "/api/v1/tokens", null, null));
        checked(200, send("POST", "/api/v1/tokens/" + id + "/revoke", ADMIN_TOKEN, null));
        checked(200, send("DELETE", "/api/v1/tokens/" + id, ADMIN_TOKEN, null));
        checked(401, send("GET", "/api/v1/experiments", user, null));
        checked(404, send("GET", "/api/v1/tokens/999999999", ADMIN_TOKEN, null));
        checked(404, send("DELETE", "/api/v1/tokens/999999999", ADMIN_TOKEN, null));
    }

    @Test
    void anAgentRegistersClaimsPostsAndEnds() throws Exception {
        revokeToken("schema check agent");
        String token = read(json("POST", "/api/v1/tokens", ADMIN_TOKEN,
                "{\"name\": \"schema check agent\", \"role\": \"agent\"}").body()).get("token").asString();
        long agent = id(checked(201, json("POST", "/api/v1/agents", token, """
                {"name": "schema check host", "labels": %s,
                 "environment": {"cpu_model": "test CPU", "cpu_count": "2", "os_name": "Linux", "os_arch": "amd64"},
                 "runsCommands": false}"""
                .formatted(POOL))), "agentId");
        // an agent not of PerfLab's making, which registered no platform: listed with platform null
        checked(201, json("POST", "/api/v1/agents", token, """
                {"name": "schema check host without a platform", "labels": {"pool": "schema-nowhere"},
                 "environment": {"cpu_model": "test CPU"}, "runsCommands": false}"""));
        String agents = "/api/v1/agents/" + agent;
        checked(204, send("POST", agents + "/poll?waitSeconds=0", token, null));

        long fresh = id(json("POST", "/api/v1/experiments", ADMIN_TOKEN, """
                {"name": "schema check claimed", "preset": "sync-completion", "runsPerVariant": 2,
                 "hostLabels": %s}""".formatted(POOL)), "id");
        checked(200, send("POST", agents + "/poll?waitSeconds=0", token, null));
        checked(200, send("POST", agents + "/heartbeat", token, null));
        String trial = """
                {"variant": "without", "ordinal": 0, "status": "OK", "start": "%1$s", "end": "%1$s", "pid": 4242,
                 "metrics": {"user_cpu_us_per_req": 41.7, "reqs_per_sec": 23810.0},
                 "environment": {"host": "schema-check-host"}}""".formatted(recent());
        String trials = agents + "/experiments/" + fresh + "/trials";
        checked(201, json("POST", trials, token, trial));
        checked(200, json("POST", trials, token, trial));
        checked(409, json("POST", trials, token, trial.replace("41.7", "41.8")));
        checked(200, get("/api/v1/experiments/" + fresh));
        checked(200, get("/api/v1/experiments/" + fresh + "/samples"));
        checked(200, json("POST", agents + "/experiments/" + fresh + "/finish", token,
                "{\"outcome\": \"FAILED\", \"message\": \"checked\"}"));

        long paired = id(json("POST", "/api/v1/experiments", ADMIN_TOKEN, """
                {"name": "schema check paired", "preset": "sync-completion", "design": "alternating", "pairs": 4,
                 "windowsPerPair": 2, "target": ["cpu_us_per_req:40%%"], "hostLabels": %s}""".formatted(POOL)), "id");
        checked(200, send("POST", agents + "/poll?waitSeconds=0", token, null));
        String pairs = agents + "/experiments/" + paired + "/pairs";
        String at = recent();
        boolean stop = false;
        for (int index = 0; index < 4 && !stop; index++) {
            stop = read(checked(201, json("POST", pairs, token, pair(index, at))).body()).get("stop").asBoolean();
        }
        assertThat(stop).as("the target is met within the pairs posted").isTrue();
        checked(200, json("POST", pairs, token, pair(0, at)));
        checked(200, json("POST", agents + "/experiments/" + paired + "/finish", token,
                "{\"outcome\": \"COMPLETED\"}"));
        checked(200, get("/api/v1/experiments/" + paired));
        checked(200, get("/api/v1/experiments/" + paired + "/samples"));
        checked(200, get("/api/v1/agents?size=200"));
        checked(200, get(agents));
        checked(403, json("POST", "/api/v1/experiments", token, "{\"name\": \"an agent's\"}"));
        checked(200, send("POST", agents + "/leave", token, null));
        checked(409, send("POST", agents + "/heartbeat", token, null));
        checked(404, get("/api/v1/agents/999999999"));
    }

    @Test
    void errorsAreDocumentedProblems() throws Exception {
        HttpResponse<String> invalid = checked(400, json("POST", "/api/v1/experiments", ADMIN_TOKEN,
                "{\"name\": \"\", \"runsPerVariant\": 0, \"hostLabels\": " + POOL + "}"));
        assertThat(read(invalid.body()).get("errors")).hasSizeGreaterThan(1).allSatisfy(error -> {
            assertThat(error.path("field").asString("")).isNotBlank();
            assertThat(error.path("message").asString("")).isNotBlank();
        });
        checked(400, get("/api/v1/experiments?stauts=QUEUED"));
        checked(400, get("/api/v1/experiments/0x2"));
        checked(400, send("POST", "/api/v1/uploads?format=nope", ADMIN_TOKEN, go(0), "Content-Type", "text/plain"));
        checked(401, json("POST", "/api/v1/experiments", null, "{\"name\": \"x\"}"));
        checked(401, send("GET", "/api/v1/experiments/1", "plt_unknown", null));
        checked(404, get("/api/v1/experiments/999999999/samples"));
        checked(404, send("POST", "/api/v1/experiments/999999999/cancel", ADMIN_TOKEN, null));
        checked(404, send("POST", "/api/v1/experiments/999999999/rerun", ADMIN_TOKEN, null));
        String key = "schema-check-" + System.nanoTime();
        String uploads = "/api/v1/uploads?benchmark=schema-check-key";
        checked(201, send("POST", uploads, ADMIN_TOKEN, go(1), "Content-Type", "text/plain", "Idempotency-Key", key));
        checked(409, send("POST", uploads, ADMIN_TOKEN, go(2), "Content-Type", "text/plain", "Idempotency-Key", key));
        checked(415, send("POST", uploads, ADMIN_TOKEN, go(2), "Content-Type", "application/x-www-form-urlencoded"));
        checked(415, send("POST", "/api/v1/experiments", ADMIN_TOKEN, "name=x", "Content-Type", "text/plain"));
    }

    /**
     * An Accept header that takes none of what an operation answers is refused with 406, as the document says of
     * each operation, before the operation does anything: an experiment, a token (its secret with it) or an agent was
     * stored and its answer refused, and an upload was stored and answered in JSON. Downloads named by their format
     * answer in it whatever Accept says.
     */
    @Test
    void anAcceptNoOperationAnswersIsRefusedBeforeAnythingIsDone() throws Exception {
        long upload = id(checked(201, send("POST", "/api/v1/uploads?benchmark=schema-check-accept", ADMIN_TOKEN,
                go(0), "Content-Type", "text/plain")));
        Map<String, String> bodies = Map.of(
                "/api/v1/experiments", "{\"name\": \"schema check refused\", \"preset\": \"sync-completion\", "
                        + "\"runsPerVariant\": 2, \"hostLabels\": " + POOL + "}",
                "/api/v1/tokens", "{\"name\": \"schema check refused\"}",
                "/api/v1/agents", "{\"name\": \"schema check refused\", \"labels\": " + POOL + "}",
                "/api/v1/uploads", "{\"benchmark\": \"schema-check-refused\", "
                        + "\"metrics\": {\"t\": {\"values\": [1, 2]}}}",
                "/api/v1/analyze", "{\"with\": [1, 2, 3], \"without\": [2, 3, 4]}");
        Map<String, Long> before = stored();
        int operations = 0;
        for (Map.Entry<String, JsonNode> path : read(get("/v3/api-docs").body()).get("paths").properties()) {
            String uri = path.getKey().replace("{id}", String.valueOf(upload))
                    .replace("{experimentId}", String.valueOf(upload)).replace("{name}", "schema-check-accept");
            for (Map.Entry<String, JsonNode> operation : path.getValue().properties()) {
                String method = operation.getKey().toUpperCase(Locale.ROOT);
                HttpResponse<String> answer = operation.getValue().has("requestBody")
                        ? send(method, uri, ADMIN_TOKEN, bodies.getOrDefault(path.getKey(), "{}"), "Content-Type",
                                JSON, "Accept", "application/xml")
                        : send(method, uri, ADMIN_TOKEN, null, "Accept", "application/xml");
                checked(uri.contains("/report.") ? 200 : 406, answer);
                operations++;
            }
        }

        assertThat(operations).isGreaterThan(30);
        assertThat(stored()).isEqualTo(before);
        HttpResponse<String> refused = send("POST", "/api/v1/tokens", ADMIN_TOKEN, bodies.get("/api/v1/tokens"),
                "Content-Type", JSON, "Accept", "application/xml");
        assertThat(read(refused.body()).path("detail").asString()).contains("Accept", "application/xml",
                "application/json");
    }

    /** How many rows the API's writes make, table by table. */
    private Map<String, Long> stored() {
        Map<String, Long> counts = new TreeMap<>(rowCounts());
        for (String table : List.of("api_token", "agent")) {
            counts.put(table, jdbc.sql("SELECT COUNT(*) FROM " + table).query(Long.class).single());
        }
        return counts;
    }

    /** Records what is wrong with {@code response} as the document describes it, once its status is as expected. */
    private HttpResponse<String> checked(int status, HttpResponse<String> response) {
        assertThat(response.statusCode()).as(response.request().method() + " " + response.request().uri() + ": "
                + response.body()).isEqualTo(status);
        problems.addAll(schemas.problems(response));
        return response;
    }

    /** An event stream's status and media type, as the document describes them; its events are not waited for. */
    private void streamed(int status, String path) throws Exception {
        HttpResponse<InputStream> stream = http.send(HttpRequest.newBuilder(URI.create(base() + path))
                .header("Accept", "text/event-stream").GET().build(), HttpResponse.BodyHandlers.ofInputStream());
        try (InputStream ignored = stream.body()) {
            assertThat(stream.statusCode()).as("GET " + path).isEqualTo(status);
            problems.addAll(schemas.problems("GET", schemas.operationPath(path), stream.statusCode(),
                    stream.headers().firstValue("Content-Type").orElse(null), null));
        }
    }

    private HttpResponse<String> json(String method, String path, String token, String body) throws Exception {
        return send(method, path, token, body, "Content-Type", JSON);
    }

    /** A multipart upload of the files {@code files}: name, content, name, content… */
    private HttpResponse<String> multipart(String path, String... files) throws Exception {
        String boundary = "schema-check-boundary";
        StringBuilder body = new StringBuilder();
        for (int i = 0; i < files.length; i += 2) {
            body.append("--").append(boundary).append("\r\nContent-Disposition: form-data; name=\"").append(files[i])
                    .append("\"; filename=\"").append(files[i]).append(".txt\"\r\n\r\n").append(files[i + 1])
                    .append("\r\n");
        }
        return send("POST", path, ADMIN_TOKEN, body.append("--").append(boundary).append("--\r\n").toString(),
                "Content-Type", "multipart/form-data; boundary=" + boundary);
    }

    /** Sends as {@code token} (none if null) with {@code headers}; asks for JSON unless they say what to accept. */
    private HttpResponse<String> send(String method, String path, String token, String body, String... headers)
            throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base() + path)).method(method,
                body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        boolean accept = false;
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
            accept |= headers[i].equals("Accept");
        }
        if (!accept) {
            request.header("Accept", JSON);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private long id(HttpResponse<String> response) {
        return id(response, "experimentId");
    }

    private long id(HttpResponse<String> response, String field) {
        return read(response.body()).get(field).asLong();
    }

    /** A token of this class's from an earlier run in the shared context is revoked, so that its name is free. */
    private void revokeToken(String name) {
        jdbc.sql("UPDATE api_token SET revoked_at = CURRENT_TIMESTAMP, revoked_by = 'tests', live_name = NULL "
                + "WHERE name = ? AND revoked_at IS NULL").param(name).update();
    }

    /**
     * Pair {@code index} of an alternating experiment of two windows per pair, its four windows in order (without,
     * with, without, with), the change's CPU per call some 2 % below the baseline's; each starts and ends {@code at}.
     */
    private static String pair(int index, String at) {
        StringBuilder windows = new StringBuilder();
        for (int i = 0; i < 4; i++) {
            String variant = i % 2 == 0 ? "without" : "with";
            double cpu = (40 + (index * 3 + i) % 5 * 0.2) * (variant.equals("with") ? 0.98 : 1);
            windows.append(i == 0 ? "" : ", ").append(String.format(Locale.ROOT, """
                    {"variant": "%s", "ordinal": %d, "status": "OK", "start": "%s", "end": "%3$s", "pid": %d,
                     "metrics": {"cpu_us_per_req": %.3f, "user_cpu_us_per_req": %.3f, "sys_cpu_us_per_req": %.3f,
                                 "reqs_per_sec": 23810.0, "ctx_switches_per_req": 4.1},
                     "environment": {}, "window": {"pair": %d, "window": %d, "startedFirst": %b}}""",
                    variant, index * 4 + i, at, 100 + i % 2, cpu, cpu * 0.3, cpu * 0.7, index, i / 2,
                    variant.equals("without")));
        }
        return """
                {"index": %d, "status": "OK", "first": "without", "start": "%s", "end": "%2$s", "setupSeconds": 1.0,
                 "measuringSeconds": 3.0, "results": [%s]}""".formatted(index, at, windows);
    }

    /** A time within the claim of an experiment claimed now, as a trial's start and end are. */
    private static String recent() {
        return Instant.now().minusSeconds(60).truncatedTo(ChronoUnit.SECONDS).toString();
    }

    /** Go benchmark output of ten runs of Join, its ns/op varying by run ({@code shift} moves them). */
    private static String go(int shift) {
        StringBuilder out = new StringBuilder("goos: linux\ngoarch: amd64\npkg: example.org/strs\n");
        for (int i = 0; i < 10; i++) {
            out.append(String.format(Locale.ROOT, "BenchmarkJoin-2   \t 5000000\t %8.1f ns/op\t %6d B/op\t %4d "
                    + "allocs/op%n", 240 + (i * 7 + shift) % 10 * 1.5, 64, 2));
        }
        return out.append("PASS\n").toString();
    }
}
