package io.perflab.system;

import static org.assertj.core.api.Assertions.assertThat;

import io.perflab.PerfLabApplication;
import io.perflab.experiment.ExperimentEvents;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.CookieManager;
import java.net.HttpCookie;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.json.JsonMapper;

/**
 * Two service instances on one real PostgreSQL (issue 19): what one instance does reaches the other — live events,
 * a signed-in session, tokens and idempotency keys — and concurrent uploads through both store every sample once
 * (on PostgreSQL this stands for {@code UploadConcurrencyTests}, which runs one instance on H2).
 */
class SeveralInstancesTests {

    /** Samples stored: one row each for trials, an upload\'s packed per side and metric (V11). */
    private static final String SAMPLES = "SELECT (SELECT COUNT(*) FROM sample) + "
            + "(SELECT COALESCE(SUM(value_count), 0) FROM sample_series)";

    private static final String BOOTSTRAP = "several-instances-bootstrap";

    private static ConfigurableApplicationContext one;
    private static ConfigurableApplicationContext two;
    private static Path dataOne;

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final JsonMapper json = JsonMapper.builder().build();

    @BeforeAll
    static void startTwoInstances() throws Exception {
        EmbeddedPostgres.Database database = EmbeddedPostgres.newDatabase();
        dataOne = Files.createTempDirectory("perflab-instance-1");
        one = start(database, dataOne, "built-in one");
        two = start(database, Files.createTempDirectory("perflab-instance-2"), "built-in two");
    }

    /** An instance with a built-in agent of its own: two on one host must not share the default name. */
    private static ConfigurableApplicationContext start(EmbeddedPostgres.Database database, Path dataDir,
                                                        String builtIn) {
        return new SpringApplicationBuilder(PerfLabApplication.class).run("--server.port=0",
                "--perflab.agents.built-in-name=" + builtIn,
                "--server.address=127.0.0.1", "--perflab.data-dir=" + dataDir,
                "--perflab.security.bootstrap-token=" + BOOTSTRAP, "--spring.datasource.url=" + database.url(),
                "--spring.datasource.username=" + database.username(),
                "--spring.datasource.password=" + database.password(), "--spring.main.banner-mode=off",
                "--logging.level.root=WARN");
    }

    @AfterAll
    static void stop() {
        if (two != null) {
            two.close();
        }
        if (one != null) {
            one.close();
        }
    }

    private static String base(ConfigurableApplicationContext instance) {
        return "http://127.0.0.1:" + instance.getEnvironment().getProperty("local.server.port");
    }

    @Test
    void anEventPublishedOnOneInstanceReachesTheStreamOfTheOther() throws Exception {
        // the stream of every experiment: an experiment's own stream ends at once if it has finished, and the
        // database these instances share holds the experiments of other test classes
        HttpResponse<InputStream> stream = http.send(HttpRequest.newBuilder(
                        URI.create(base(two) + "/api/v1/experiments/events"))
                .header("Accept", "text/event-stream").timeout(Duration.ofSeconds(20)).GET().build(),
                HttpResponse.BodyHandlers.ofInputStream());
        assertThat(stream.statusCode()).isEqualTo(200);
        ExecutorService reader = Executors.newSingleThreadExecutor();
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(stream.body(), StandardCharsets.UTF_8))) {
            Future<List<String>> event = reader.submit(() -> {
                List<String> read = new ArrayList<>();
                for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                    read.add(line);
                    if (line.startsWith("data:") && line.contains("\"experimentId\":42")) {
                        return read;
                    }
                }
                return read;
            });
            // the stream opens (with a comment) once instance 2 holds the subscription
            one.getBean(ExperimentEvents.class).publish(42, "status",
                    Map.of("experimentId", 42, "status", "RUNNING"));

            List<String> received = event.get(20, TimeUnit.SECONDS);
            assertThat(received).contains("event:status");
            String data = received.get(received.size() - 1).substring("data:".length());
            assertThat(json.readTree(data).get("status").asString()).isEqualTo("RUNNING");
            assertThat(json.readTree(data).get("experimentId").asLong()).isEqualTo(42);
        } finally {
            reader.shutdownNow();
        }
    }

    @Test
    void aSessionSignedInOnOneInstanceIsSignedInOnTheOther() throws Exception {
        CookieManager cookies = new CookieManager();
        HttpClient browser = HttpClient.newBuilder().cookieHandler(cookies).build();
        String password = Files.readString(dataOne.resolve("initial-admin-password")).trim();
        String form = browser.send(HttpRequest.newBuilder(URI.create(base(one) + "/login")).GET().build(),
                HttpResponse.BodyHandlers.ofString()).body();
        Matcher csrf = Pattern.compile("name=\"_csrf\" value=\"([^\"]+)\"").matcher(form);
        assertThat(csrf.find()).isTrue();
        HttpResponse<String> signedIn = browser.send(HttpRequest.newBuilder(URI.create(base(one) + "/login"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("username=admin&password=" + password + "&_csrf="
                        + csrf.group(1))).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(signedIn.statusCode()).isEqualTo(302);
        assertThat(signedIn.headers().firstValue("Location").orElseThrow()).doesNotContain("error");
        HttpCookie session = cookies.getCookieStore().getCookies().stream()
                .filter(c -> c.getName().equals("SESSION")).findFirst().orElseThrow();

        HttpResponse<String> onTwo = http.send(HttpRequest.newBuilder(URI.create(base(two) + "/settings/tokens"))
                .header("Cookie", "SESSION=" + session.getValue()).GET().build(), HttpResponse.BodyHandlers.ofString());
        HttpResponse<String> anonymous = http.send(HttpRequest.newBuilder(URI.create(base(two) + "/settings/tokens"))
                .GET().build(), HttpResponse.BodyHandlers.ofString());

        assertThat(onTwo.statusCode()).isEqualTo(200);
        assertThat(onTwo.body()).contains("API tokens");
        assertThat(anonymous.statusCode()).isEqualTo(302);
    }

    @Test
    void readingPagesAnonymouslyKeepsNoSession() throws Exception {
        JdbcClient jdbc = one.getBean(JdbcClient.class);
        HttpResponse<String> uploaded = upload(one, createToken(one), 99, 0, "page-view");
        long id = json.readTree(uploaded.body()).get("experimentId").asLong();
        long sessionsBefore = count(jdbc, "SELECT COUNT(*) FROM spring_session");
        long runsBefore = count(jdbc, "SELECT COUNT(*) FROM trial_run");

        for (String path : List.of("/", "/experiments/" + id, "/experiments")) {
            HttpResponse<String> page = http.send(HttpRequest.newBuilder(URI.create(base(two) + path))
                    .header("Accept", "text/html").GET().build(), HttpResponse.BodyHandlers.ofString());
            assertThat(page.statusCode()).as(path).isEqualTo(200);
        }

        assertThat(count(jdbc, "SELECT COUNT(*) FROM spring_session")).isEqualTo(sessionsBefore);
    }

    @Test
    void eightClientsUploadingThroughBothInstancesStoreEveryUploadAndSampleOnce() throws Exception {
        JdbcClient jdbc = one.getBean(JdbcClient.class);
        long experimentsBefore = count(jdbc, "SELECT COUNT(*) FROM experiment");
        long samplesBefore = count(jdbc, SAMPLES);
        long seriesBefore = count(jdbc, "SELECT COUNT(*) FROM sample_series");
        long sessionsBefore = count(jdbc, "SELECT COUNT(*) FROM spring_session");
        long runsBefore = count(jdbc, "SELECT COUNT(*) FROM trial_run");
        String token = createToken(one);
        int clients = 8;
        int uploadsPerClient = 250;
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        List<Future<Integer>> done = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            int client = c;
            done.add(pool.submit(() -> {
                int created = 0;
                for (int i = 0; i < uploadsPerClient; i++) {
                    // every other upload goes to the other instance; a token made on one works on both
                    ConfigurableApplicationContext instance = (client + i) % 2 == 0 ? one : two;
                    HttpResponse<String> response = upload(instance, token, client, i, "client-" + client + "-" + i);
                    if (response.statusCode() != 201) {
                        throw new IllegalStateException("upload " + client + "/" + i + " → "
                                + response.statusCode() + ": " + response.body());
                    }
                    created++;
                }
                return created;
            }));
        }
        int created = 0;
        try {
            for (Future<Integer> client : done) {
                created += client.get(5, TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
        }
        // a retry of a stored upload on the other instance returns the stored answer and stores nothing new
        HttpResponse<String> first = upload(one, token, 0, 0, "client-0-0");
        HttpResponse<String> retry = upload(two, token, 0, 0, "client-0-0");

        assertThat(created).isEqualTo(2_000);
        assertThat(count(jdbc, "SELECT COUNT(*) FROM experiment") - experimentsBefore).isEqualTo(2_000);
        assertThat(count(jdbc, SAMPLES) - samplesBefore).isEqualTo(40_000);
        // one series per side of 10 values, whose positions are the upload's runs: no trial_run rows (V11)
        assertThat(count(jdbc, "SELECT COUNT(*) FROM sample_series") - seriesBefore).isEqualTo(4_000);
        assertThat(count(jdbc, "SELECT COUNT(*) FROM trial_run") - runsBefore).isZero();
        for (int c = 0; c < clients; c++) {
            assertThat(jdbc.sql("SELECT COUNT(*) FROM experiment WHERE benchmark = ?")
                    .param("instances/bench-" + c).query(Long.class).single()).isEqualTo(uploadsPerClient);
        }
        assertThat(count(jdbc, "SELECT COUNT(*) FROM upload_idempotency")).isGreaterThanOrEqualTo(2_000);
        // bearer-token calls keep no session: nothing for the database to write besides the upload
        assertThat(count(jdbc, "SELECT COUNT(*) FROM spring_session")).isEqualTo(sessionsBefore);
        assertThat(retry.statusCode()).isEqualTo(201);
        assertThat(retry.headers().firstValue("Idempotent-Replayed")).contains("true");
        assertThat(retry.body()).isEqualTo(first.body());
        assertThat(count(jdbc, "SELECT COUNT(*) FROM experiment") - experimentsBefore).isEqualTo(2_000);
    }

    /** One upload of 10 + 10 samples (both sides of one metric). */
    private HttpResponse<String> upload(ConfigurableApplicationContext instance, String token, int client, int index,
            String idempotencyKey) throws Exception {
        StringBuilder without = new StringBuilder();
        StringBuilder with = new StringBuilder();
        for (int v = 0; v < 10; v++) {
            without.append(v == 0 ? "" : ",").append(100 + v + client);
            with.append(v == 0 ? "" : ",").append(95 + v + index % 7);
        }
        String body = "{\"benchmark\":\"instances/bench-" + client + "\",\"without\":{\"metrics\":{\"t_ns\":"
                + "{\"unit\":\"ns\",\"values\":[" + without + "]}}},\"with\":{\"metrics\":{\"t_ns\":"
                + "{\"unit\":\"ns\",\"values\":[" + with + "]}}}}";
        return http.send(HttpRequest.newBuilder(URI.create(base(instance) + "/api/v1/uploads"))
                .header("Content-Type", "application/json").header("Authorization", "Bearer " + token)
                .header("Idempotency-Key", idempotencyKey).timeout(Duration.ofSeconds(60))
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private String createToken(ConfigurableApplicationContext instance) throws Exception {
        HttpResponse<String> created = http.send(HttpRequest.newBuilder(URI.create(base(instance) + "/api/v1/tokens"))
                .header("Content-Type", "application/json").header("Authorization", "Bearer " + BOOTSTRAP)
                .POST(HttpRequest.BodyPublishers.ofString("{\"name\":\"ci-" + System.nanoTime() + "\"}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(created.statusCode()).isEqualTo(201);
        return json.readTree(created.body()).get("token").asString();
    }

    private static long count(JdbcClient jdbc, String sql) {
        return jdbc.sql(sql).query(Long.class).single();
    }
}
