package io.perflab.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.perflab.security.UserAccounts;
import io.perflab.upload.JmhRunScript;
import java.io.IOException;
import java.net.CookieManager;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.security.crypto.bcrypt.BCryptPasswordEncoder;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Command experiments through the API where an operator enabled them: commands that print JMH results. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class CommandExperimentApiTests {

    static final String TOKEN = "command-experiment-tests-token";

    private static Path dataDir;

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) throws IOException {
        dataDir = Files.createTempDirectory("perflab-command-experiments");
        String dir = dataDir.toString();
        registry.add("perflab.data-dir", () -> dir);
        registry.add("perflab.security.bootstrap-token", () -> TOKEN);
        registry.add("perflab.commands.enabled", () -> "true");
    }

    @LocalServerPort
    int port;

    @Autowired
    JdbcClient jdbc;

    @Autowired
    UserAccounts users;

    @TempDir
    Path directory;

    ApiClient api;

    @BeforeEach
    void client() {
        api = new ApiClient(port, TOKEN);
    }

    @Test
    void jmhResultsOfEachRunAreItsSamplesComparedWithTheirUnitAndDirection() throws Exception {
        long id = api.create(jmhRequest("jmh A/B"));
        JsonNode experiment = awaitFinished(id);

        assertThat(experiment.get("status").asText()).as(experiment.toString()).isEqualTo("COMPLETED");
        JsonNode score = metric(experiment, "Parse.parse");
        assertThat(score.get("unit").asText()).isEqualTo("ops/s");
        assertThat(score.get("direction").asText()).isEqualTo("higher");
        assertThat(score.get("meanWithout").asDouble()).isEqualTo(105.0);
        assertThat(score.get("meanWith").asDouble()).isEqualTo(205.0);
        assertThat(score.get("verdict").asText()).isEqualTo("improved");
        assertThat(metric(experiment, "wall_ms").get("nWith").asInt()).isEqualTo(3);
        assertThat(experiment.get("variants").get("with").get("metricsFormat").asText()).isEqualTo("jmh");
        assertThat(experiment.get("optionDiff").get("environment").get("with").asText()).isEqualTo("SCORE=200");
        List<Double> perTrial = new ArrayList<>();
        for (JsonNode sample : api.getJson("/api/v1/experiments/" + id + "/samples")) {
            if (sample.get("metric").asText().equals("Parse.parse")) {
                perTrial.add(sample.get("value").asDouble());
            }
        }
        assertThat(perTrial).containsExactly(104.0, 204.0, 105.0, 205.0, 106.0, 206.0);
        assertThat(jdbc.sql("SELECT output_values FROM trial_run WHERE experiment_id = ? AND ordinal = 0").param(id)
                .query(String.class).single()).isEqualTo("{\"Parse.parse\":[101.0,103.0,105.0,107.0]}");

        String page = api.get("/experiments/" + id, "text/html").body();
        assertThat(page).contains("Parse.parse", "ops/s", "metrics read as <code>jmh</code>", "SCORE=200");
    }

    @Test
    void outputThatDoesNotParseFailsTheRunWithTheAdaptersMessage() throws Exception {
        Map<String, Object> request = jmhRequest("not JMH");
        request.put("withoutCommand", "echo 'BenchmarkParse-8  1000  123 ns/op'");
        request.put("maxFailures", 0);

        JsonNode experiment = awaitFinished(api.create(request));

        assertThat(experiment.get("status").asText()).isEqualTo("FAILED");
        assertThat(experiment.get("error").asText()).contains("the command's output is not jmh output");
        String error = jdbc.sql("SELECT error FROM trial_run WHERE experiment_id = ? AND ordinal = 0")
                .param(experiment.get("id").asLong()).query(String.class).single();
        assertThat(error).contains("The upload is not in the format 'jmh': expected JMH JSON",
                "(it looks like gobench)", "--- last output ---\nBenchmarkParse-8  1000  123 ns/op");
    }

    @Test
    void commandFieldsAreCheckedNamingTheField() throws Exception {
        Map<String, Map<String, Object>> cases = new LinkedHashMap<>();
        cases.put("metricsFormat", Map.of("metricsFormat", "xml"));
        cases.put("withoutDirectory", Map.of("withoutDirectory", "relative/dir"));
        cases.put("withDirectory", Map.of("withDirectory", directory.resolve("missing").toString()));
        cases.put("withEnvironment", Map.of("withEnvironment", Map.of("1X", "y")));
        cases.put("withoutCommand", Map.of("metricsFormat", "", "withoutCommand", "jmh -rff {output}"));
        // each value within its bound, together more than the column's 16,000 characters: it answered 500
        Map<String, String> large = new LinkedHashMap<>();
        for (int i = 0; i < 5; i++) {
            large.put("V" + i, "x".repeat(4000));
        }
        cases.put("withoutEnvironment", Map.of("withoutEnvironment", large));
        for (Map.Entry<String, Map<String, Object>> c : cases.entrySet()) {
            Map<String, Object> request = jmhRequest("bad");
            request.putAll(c.getValue());
            HttpResponse<String> response = api.post("/api/v1/experiments", request);
            assertThat(response.statusCode()).as(c.getKey()).isEqualTo(400);
            assertThat(api.read(response.body()).get("detail").asText()).as(response.body()).startsWith(c.getKey());
        }
        // accepted and handed to the agent: no process can be started with either, so the experiment failed later
        assertThat(api.read(api.post("/api/v1/experiments", withOne(jmhRequest("nul"), "withCommand", "tr\0ue"))
                .body()).get("detail").asText()).isEqualTo("withCommand: the command holds a NUL character, which no "
                + "process can be given");
        // as JSON's escape: a Java string's lone surrogate is sent as '?'
        String half = tools.jackson.databind.json.JsonMapper.builder().build().writeValueAsString(
                withOne(jmhRequest("half"), "withoutEnvironment", Map.of("SCORE", "1-half"))).replace("1-half",
                "1\\ud800");
        assertThat(api.read(api.post("/api/v1/experiments", half).body()).get("detail").asText())
                .isEqualTo("withoutEnvironment: the value of environment variable SCORE holds an unpaired surrogate "
                        + "(U+D800 at character 2), which is not text");
        HttpResponse<String> engine = api.post("/api/v1/experiments", Map.of("name", "e", "preset",
                "sync-completion", "metricsFormat", "jmh"));
        assertThat(api.read(engine.body()).get("detail").asText()).startsWith("metricsFormat")
                .contains("applies to command experiments");
    }

    @Test
    void anAdministratorQueuesACommandExperimentFromTheForm() throws Exception {
        Map<String, Object> request = jmhRequest("from the form");
        HttpClient browser = HttpClient.newBuilder().cookieHandler(new CookieManager()).build();
        String loginCsrf = ExperimentPagesTests.csrf(page(browser, "/login").body());
        String password = Files.readString(dataDir.resolve("initial-admin-password")).strip();
        browser.send(form("/login", "username=admin&password=" + password + "&_csrf=" + loginCsrf),
                HttpResponse.BodyHandlers.ofString());
        String empty = page(browser, "/experiments/new").body();
        assertThat(empty).contains("<legend>Commands</legend>", "<option value=\"rpcbench\">rpcbench</option>");
        String fields = "name=from+the+form&kind=command&design=fresh&runsPerVariant=3&order=interleaved&seed=1"
                + "&metricsFormat=jmh"
                + "&withoutCommand=" + encoded(request.get("withoutCommand")) + "&withCommand="
                + encoded(request.get("withCommand")) + "&withoutDirectory=" + encoded(request.get("withoutDirectory"))
                + "&withDirectory=" + encoded(request.get("withDirectory")) + "&_csrf="
                + ExperimentPagesTests.csrf(empty);

        HttpResponse<String> invalid = browser.send(form("/experiments/new", fields + "&withoutEnvironment=SCORE"
                + "&withEnvironment=SCORE%3D200"), HttpResponse.BodyHandlers.ofString());
        HttpResponse<String> queued = browser.send(form("/experiments/new", fields + "&withoutEnvironment=SCORE%3D100"
                + "&withEnvironment=SCORE%3D200%0D%0AOTHER%3D1"), HttpResponse.BodyHandlers.ofString());

        assertThat(invalid.body()).contains("one NAME=value a line, got &#39;SCORE&#39;");
        assertThat(queued.statusCode()).isEqualTo(302);
        long id = Long.parseLong(queued.headers().firstValue("Location").orElseThrow().replaceAll(".*/", ""));
        JsonNode experiment = awaitFinished(id);
        assertThat(experiment.get("status").asText()).as(experiment.toString()).isEqualTo("COMPLETED");
        assertThat(metric(experiment, "Parse.parse").get("verdict").asText()).isEqualTo("improved");
        assertThat(experiment.get("variants").get("with").get("environment").toString())
                .isEqualTo("{\"SCORE\":\"200\",\"OTHER\":\"1\"}");
    }

    @Test
    void onlyAnAdministratorRunsACommandExperimentAgain() throws Exception {
        long id = api.create(jmhRequest("run again"));
        awaitFinished(id);
        users.create("reader", "{bcrypt}" + new BCryptPasswordEncoder().encode("reader-password"),
                UserAccounts.Role.USER);
        // the reader's own, as started by a token of theirs (another's experiment is refused before its commands)
        jdbc.sql("UPDATE experiment SET created_by = 'reader' WHERE id = ?").param(id).update();
        long before = experimentCount();

        HttpClient user = signedIn("reader", "reader-password");
        String shown = page(user, "/experiments/" + id).body();
        assertThat(shown).containsPattern("<button type=\"submit\"[^>]* disabled=\"disabled\">Re-run with the")
                .contains("Re-run would be refused: kind: command experiments need an administrator");
        HttpResponse<String> refused = user.send(form("/experiments/" + id + "/rerun", "_csrf="
                + ExperimentPagesTests.csrf(shown)), HttpResponse.BodyHandlers.ofString());

        // refused on the experiment's page, as the other actions are, where it was a bare 403 page
        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(302);
        assertThat(refused.headers().firstValue("Location").orElseThrow()).endsWith("/experiments/" + id);
        assertThat(page(user, "/experiments/" + id).body())
                .contains("role=\"alert\">kind: command experiments need an administrator</p>");
        // the API refuses the re-run as it refuses creating one: the same status and problem
        HttpResponse<String> overApi = asReader("/api/v1/experiments/" + id + "/rerun", "");
        HttpResponse<String> created = asReader("/api/v1/experiments", JsonMapper.builder().build()
                .writeValueAsString(jmhRequest("run again")));
        assertThat(created.statusCode()).as(created.body()).isEqualTo(403);
        assertThat(overApi.statusCode()).as(overApi.body()).isEqualTo(403);
        assertThat(overApi.headers().firstValue("Content-Type")).isEqualTo(created.headers()
                .firstValue("Content-Type"));
        assertThat(api.read(overApi.body()).get("detail")).isEqualTo(api.read(created.body()).get("detail"));
        assertThat(api.read(overApi.body()).get("detail").asText())
                .isEqualTo("kind: command experiments need an administrator");
        assertThat(experimentCount()).as("nothing queued").isEqualTo(before);
        jdbc.sql("UPDATE experiment SET status = 'CANCELLED' WHERE id = ?").param(id).update();
        HttpResponse<String> resumed = user.send(form("/experiments/" + id + "/resume", "_csrf="
                + ExperimentPagesTests.csrf(page(user, "/experiments/" + id).body())), HttpResponse.BodyHandlers
                .ofString());
        assertThat(resumed.statusCode()).as(resumed.headers() + resumed.body()).isEqualTo(302);
        assertThat(page(user, "/experiments/" + id).body()).as("resuming runs its commands again")
                .contains("role=\"alert\">kind: command experiments need an administrator</p>");
        assertThat(api.status(id)).isEqualTo("CANCELLED");

        HttpClient admin = signedIn("admin", Files.readString(dataDir.resolve("initial-admin-password")).strip());
        HttpResponse<String> queued = admin.send(form("/experiments/" + id + "/rerun", "_csrf="
                + ExperimentPagesTests.csrf(page(admin, "/experiments/" + id).body())), HttpResponse.BodyHandlers
                .ofString());
        assertThat(queued.statusCode()).isEqualTo(302);
        assertThat(experimentCount()).isEqualTo(before + 1);
        assertThat(jdbc.sql("SELECT runs_commands FROM agent WHERE built_in").query(Boolean.class).list())
                .containsOnly(true);
        awaitFinished(Long.parseLong(queued.headers().firstValue("Location").orElseThrow().replaceAll(".*/", "")));
    }

    /** A JSON post to the API as the user 'reader', signed in by HTTP Basic. */
    private HttpResponse<String> asReader(String path, String body) throws Exception {
        String credentials = Base64.getEncoder().encodeToString("reader:reader-password"
                .getBytes(StandardCharsets.UTF_8));
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                .header("Authorization", "Basic " + credentials).header("Content-Type", "application/json")
                .header("Accept", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private long experimentCount() {
        return jdbc.sql("SELECT COUNT(*) FROM experiment").query(Long.class).single();
    }

    private HttpClient signedIn(String username, String password) throws Exception {
        HttpClient browser = HttpClient.newBuilder().cookieHandler(new CookieManager()).build();
        String csrf = ExperimentPagesTests.csrf(page(browser, "/login").body());
        browser.send(form("/login", "username=" + username + "&password=" + password + "&_csrf=" + csrf),
                HttpResponse.BodyHandlers.ofString());
        return browser;
    }

    private HttpResponse<String> page(HttpClient browser, String path) throws Exception {
        return browser.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                .header("Accept", "text/html").build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpRequest form(String path, String body) {
        return HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build();
    }

    private static String encoded(Object value) {
        return URLEncoder.encode(String.valueOf(value), StandardCharsets.UTF_8);
    }

    private static Map<String, Object> withOne(Map<String, Object> request, String field, Object value) {
        request.put(field, value);
        return request;
    }

    /** Three runs a side of the JMH script, each side in its own directory, where it counts its runs. */
    private Map<String, Object> jmhRequest(String name) throws IOException {
        Path script = directory.resolve("jmh.sh");
        Files.writeString(script, JmhRunScript.SCRIPT);
        Map<String, Object> request = new LinkedHashMap<>();
        request.put("name", name);
        request.put("kind", "command");
        request.put("withoutCommand", "sh '" + script + "' {output}");
        request.put("withCommand", "sh '" + script + "' {output}");
        request.put("metricsFormat", "jmh");
        request.put("withoutDirectory", Files.createDirectories(directory.resolve("old")).toString());
        request.put("withDirectory", Files.createDirectories(directory.resolve("new")).toString());
        request.put("withoutEnvironment", Map.of("SCORE", "100"));
        request.put("withEnvironment", Map.of("SCORE", "200"));
        request.put("runsPerVariant", 3);
        return request;
    }

    private static JsonNode metric(JsonNode experiment, String key) {
        for (JsonNode metric : experiment.get("results")) {
            if (metric.get("metric").asText().equals(key)) {
                return metric;
            }
        }
        throw new AssertionError("no metric " + key + " in " + experiment);
    }

    private JsonNode awaitFinished(long id) throws Exception {
        await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(200))
                .until(() -> Set.of("COMPLETED", "FAILED", "CANCELLED").contains(api.status(id)));
        return api.getJson("/api/v1/experiments/" + id);
    }
}
