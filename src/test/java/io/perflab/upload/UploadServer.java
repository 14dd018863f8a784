package io.perflab.upload;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The real server on a random port with a fresh database, shared by every test that needs the whole server
 * (uploads, history, tokens, pages, reports, the browser tests): one Spring context for all of them, so keep its
 * configuration here. The bootstrap token is an admin token.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
public abstract class UploadServer {

    public static final String ADMIN_TOKEN = "upload-tests-bootstrap-token";

    /** Tables an upload writes to; their row counts must not move when an upload is refused. */
    public static final List<String> UPLOAD_TABLES = List.of("experiment", "variant", "experiment_metric",
            "trial_run", "sample", "sample_series", "upload_idempotency");

    /**
     * This context's data directory (its {@code initial-admin-password} signs in as admin): read from the context,
     * since the classes that run on PostgreSQL share another context with a data directory of its own.
     */
    @Value("${perflab.data-dir}")
    protected java.nio.file.Path dataDir;

    @DynamicPropertySource
    static void serverProperties(DynamicPropertyRegistry registry) throws IOException {
        String dir = Files.createTempDirectory("perflab-uploads").toString();
        registry.add("perflab.data-dir", () -> dir);
        registry.add("perflab.security.bootstrap-token", () -> ADMIN_TOKEN);
    }

    @LocalServerPort
    protected int port;

    @Autowired
    protected JdbcClient jdbc;

    protected final HttpClient http = HttpClient.newHttpClient();
    protected final JsonMapper json = JsonMapper.builder().build();

    protected String base() {
        return "http://localhost:" + port;
    }

    protected HttpResponse<String> post(String path, String token, String contentType, String body,
            String... headers) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base() + path))
                .header("Content-Type", contentType)
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    protected HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(base() + path)).header("Accept", "application/json")
                .GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Uploads benchmark {@code name} with one metric of two samples, through the API as the admin. */
    protected void uploadTwoSamples(String name) throws Exception {
        HttpResponse<String> created = post("/api/v1/uploads", ADMIN_TOKEN, "application/json",
                "{\"benchmark\":\"" + name + "\",\"metrics\":{\"t\":{\"values\":[1,2]}}}");
        if (created.statusCode() != 201) {
            throw new IllegalStateException("upload → " + created.statusCode() + ": " + created.body());
        }
    }

    protected JsonNode read(String body) {
        return json.readTree(body);
    }

    /**
     * A new token of role USER named {@code name}, created through the API with the admin token. A token's name is
     * unique among live tokens, and tests that ask for one per test (or per parameter) in this shared context ask
     * for the same name again: the earlier token, which only an earlier test used, is revoked first.
     */
    protected String newToken(String name) throws Exception {
        jdbc.sql("UPDATE api_token SET revoked_at = CURRENT_TIMESTAMP, revoked_by = 'tests', live_name = NULL "
                + "WHERE name = ? AND revoked_at IS NULL").param(name).update();
        HttpResponse<String> created = post("/api/v1/tokens", ADMIN_TOKEN, "application/json",
                "{\"name\":\"" + name + "\"}");
        if (created.statusCode() != 201) {
            throw new IllegalStateException("token create → " + created.statusCode() + ": " + created.body());
        }
        return read(created.body()).get("token").asString();
    }

    protected Map<String, Long> rowCounts() {
        Map<String, Long> counts = new LinkedHashMap<>();
        for (String table : UPLOAD_TABLES) {
            counts.put(table, jdbc.sql("SELECT COUNT(*) FROM " + table).query(Long.class).single());
        }
        return counts;
    }

    /** Every sample stored: a row each for trials' samples, an upload's counted in its packed series (V11). */
    protected long storedSamples() {
        return jdbc.sql("SELECT (SELECT COUNT(*) FROM sample) + (SELECT COALESCE(SUM(value_count), 0) "
                + "FROM sample_series)").query(Long.class).single();
    }

    /** Samples stored for one experiment, per metric and variant. */
    protected long samples(long experimentId, String metric, String variant) {
        return jdbc.sql("""
                SELECT COALESCE(SUM(value_count), 0) FROM sample_series
                WHERE experiment_id = ? AND metric_key = ? AND variant = ?""")
                .params(experimentId, metric, variant).query(Long.class).single();
    }
}
