package io.perflab.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import io.perflab.agent.HostLabels;
import io.perflab.runner.experiment.EngineVariant;
import io.perflab.runner.experiment.ExperimentPlan;
import io.perflab.runner.rpcbench.Workload;
import io.perflab.security.ApiTokens;
import io.perflab.security.UserAccounts;
import io.perflab.upload.UploadServer;
import java.net.CookieManager;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.security.crypto.password.PasswordEncoder;
import tools.jackson.databind.JsonNode;

/**
 * A user cancels, resumes and re-runs only the experiments they started, and an API token only those it started (told
 * by its id, not its name); an administrator any. The experiments wait for hosts labelled as none is, so nothing runs.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ExperimentOwnerTests extends UploadServer {

    private static final String PASSWORD = "owner-tests-password";

    @Autowired
    ExperimentRepository store;

    @Autowired
    UserAccounts users;

    @Autowired
    PasswordEncoder passwords;

    @Autowired
    ApiTokens tokens;

    /** A user API token named for alice's CI (an administrator makes every token). */
    private String aliceToken;

    private long aliceTokenId;

    @BeforeAll
    void users() {
        for (String name : new String[] {"alice", "bob"}) {
            if (users.findByUsername(name).isEmpty()) {
                users.create(name, passwords.encode(PASSWORD), UserAccounts.Role.USER);
            }
        }
        jdbc.sql("UPDATE api_token SET revoked_at = CURRENT_TIMESTAMP, revoked_by = 'tests', live_name = NULL "
                + "WHERE name = 'alice-ci' AND revoked_at IS NULL").update();
        ApiTokens.CreatedToken created = tokens.create("alice-ci", "admin");
        aliceToken = created.secret();
        aliceTokenId = created.token().id();
    }

    /** Nothing these tests queued is left waiting for the next class. */
    @AfterAll
    void cancelLeftovers() {
        jdbc.sql("UPDATE experiment SET status = 'CANCELLED' WHERE status = 'QUEUED' AND name LIKE 'owner tests%'")
                .update();
    }

    private long stored(ExperimentStatus status, String createdBy) {
        return stored(status, createdBy, null);
    }

    /** An experiment stored as started by {@code createdBy} with stored token {@code createdByToken}. */
    private long stored(ExperimentStatus status, String createdBy, Long createdByToken) {
        ExperimentPlan plan = ExperimentPlan.of(EngineVariant.of(Map.of("completion", "monitor"), Workload.DEFAULTS),
                EngineVariant.of(Map.of("completion", "notification"), Workload.DEFAULTS), 2);
        return store.insert(new ExperimentSpec("owner tests", null, ExperimentKind.ENGINE, null, plan,
                PairedStopping.NONE, HostLabels.parse("pool=owner-tests-nowhere")), status, createdBy,
                createdByToken, Instant.now());
    }

    /** What a refused attempt must leave as it was. */
    private String row(long id) {
        return jdbc.sql("SELECT status, data_version, started_at, finished_at, created_by FROM experiment WHERE id = ?")
                .param(id).query((rs, n) -> rs.getString(1) + " " + rs.getString(2) + " " + rs.getString(3) + " "
                        + rs.getString(4) + " " + rs.getString(5)).single();
    }

    private long experimentCount() {
        return jdbc.sql("SELECT COUNT(*) FROM experiment").query(Long.class).single();
    }

    private static String basic(String user) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + PASSWORD)
                .getBytes(StandardCharsets.UTF_8));
    }

    private HttpResponse<String> control(long id, String action, String authorization) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(base() + "/api/v1/experiments/" + id + "/" + action))
                .header("Authorization", authorization).header("Accept", "application/json")
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void onlyWhoeverStartedItOrAnAdministratorCancelsResumesOrReRunsOverTheApi() throws Exception {
        long queued = stored(ExperimentStatus.QUEUED, "alice");
        long cancelled = stored(ExperimentStatus.CANCELLED, "alice");
        String queuedBefore = row(queued);
        String cancelledBefore = row(cancelled);
        long before = experimentCount();

        HttpResponse<String> cancel = control(queued, "cancel", basic("bob"));
        HttpResponse<String> resume = control(cancelled, "resume", basic("bob"));
        HttpResponse<String> rerun = control(cancelled, "rerun", basic("bob"));

        for (HttpResponse<String> refused : List.of(cancel, resume, rerun)) {
            assertThat(refused.statusCode()).as(refused.body()).isEqualTo(403);
            assertThat(refused.headers().firstValue("Content-Type").orElseThrow())
                    .startsWith("application/problem+json");
            assertThat(read(refused.body()).get("detail").asString()).contains("was started by someone else",
                    "only they or an administrator may").doesNotContain("alice");
        }
        assertThat(row(queued)).isEqualTo(queuedBefore);
        assertThat(row(cancelled)).isEqualTo(cancelledBefore);
        assertThat(experimentCount()).as("no re-run queued").isEqualTo(before);
        // alice herself, signed in by HTTP Basic; the bootstrap token; a signed-in administrator
        for (String caller : new String[] {basic("alice"), "Bearer " + ADMIN_TOKEN, adminBasic()}) {
            long id = stored(ExperimentStatus.QUEUED, "alice");

            HttpResponse<String> answer = control(id, "cancel", caller);
            assertThat(answer.statusCode()).as(answer.body()).isEqualTo(202);
            assertThat(row(id)).startsWith("CANCELLED");
            HttpResponse<String> resumed = control(id, "resume", caller);
            assertThat(resumed.statusCode()).as(resumed.body()).isEqualTo(202);
            assertThat(row(id)).startsWith("QUEUED");
            HttpResponse<String> reRun = control(id, "rerun", caller);
            assertThat(reRun.statusCode()).as(reRun.body()).isEqualTo(202);
            assertThat(row(read(reRun.body()).get("id").asLong())).startsWith("QUEUED");
        }
    }

    /**
     * What a token starts is that token's, not a user's, and a token controls nothing a user started: an administrator
     * makes every token, so a token acting for its maker would control an administrator's experiments.
     */
    @Test
    void whatATokenStartedIsThatTokensAlone() throws Exception {
        long byToken = stored(ExperimentStatus.QUEUED, "token:alice-ci", aliceTokenId);
        long byAlice = stored(ExperimentStatus.QUEUED, "alice");
        long byAdmin = stored(ExperimentStatus.QUEUED, "admin");

        for (String caller : List.of(basic("bob"), basic("alice"))) {
            assertThat(control(byToken, "cancel", caller).statusCode()).isEqualTo(403);
        }
        assertThat(control(byAlice, "cancel", "Bearer " + aliceToken).statusCode()).isEqualTo(403);
        assertThat(control(byAdmin, "cancel", "Bearer " + aliceToken).statusCode()).isEqualTo(403);
        assertThat(row(byToken)).startsWith("QUEUED");
        assertThat(row(byAlice)).startsWith("QUEUED");
        assertThat(row(byAdmin)).startsWith("QUEUED");
        assertThat(control(byToken, "cancel", "Bearer " + aliceToken).statusCode()).isEqualTo(202);
        assertThat(row(byToken)).startsWith("CANCELLED");
    }

    /**
     * A token is told by its id, not its name: a revoked token's name is free again, and a token created anew with it
     * is another token, which cancels, resumes and re-runs nothing the revoked one queued, re-ran or uploaded. It
     * controlled them by name, as if it had started them.
     */
    @Test
    void aTokenCreatedWithARevokedTokensNameControlsNothingTheRevokedOneStarted() throws Exception {
        String name = "owner-tests-renamed";
        String first = newToken(name);
        long firstId = liveTokenId(name);
        long queued = queue(first);
        long cancelled = queue(first);
        // the token controls what it started: it cancels, resumes and re-runs its own
        assertThat(control(cancelled, "cancel", "Bearer " + first).statusCode()).isEqualTo(202);
        assertThat(control(cancelled, "resume", "Bearer " + first).statusCode()).isEqualTo(202);
        assertThat(control(cancelled, "cancel", "Bearer " + first).statusCode()).isEqualTo(202);
        HttpResponse<String> rerun = control(cancelled, "rerun", "Bearer " + first);
        assertThat(rerun.statusCode()).as(rerun.body()).isEqualTo(202);
        long copy = read(rerun.body()).get("id").asLong();
        long uploaded = upload(first, "owner-tests-renamed-upload");
        assertThat(List.of(queued, cancelled, copy, uploaded)).extracting(this::createdByToken)
                .as("queued, re-run and uploaded by the token").containsOnly(firstId);
        HttpResponse<String> revoked = post("/api/v1/tokens/" + firstId + "/revoke", ADMIN_TOKEN,
                "application/json", "");
        assertThat(revoked.statusCode()).as(revoked.body()).isEqualTo(200);
        String second = newToken(name);
        long secondId = liveTokenId(name);
        String queuedBefore = row(queued);
        String cancelledBefore = row(cancelled);
        long before = experimentCount();

        HttpResponse<String> cancel = control(queued, "cancel", "Bearer " + second);
        HttpResponse<String> resume = control(cancelled, "resume", "Bearer " + second);
        HttpResponse<String> resumeUpload = control(uploaded, "resume", "Bearer " + second);
        HttpResponse<String> rerunAgain = control(cancelled, "rerun", "Bearer " + second);

        assertThat(secondId).isNotEqualTo(firstId);
        for (HttpResponse<String> refused : List.of(cancel, resume, resumeUpload, rerunAgain)) {
            assertThat(refused.statusCode()).as(refused.body()).isEqualTo(403);
            assertThat(read(refused.body()).get("detail").asString()).contains("was started by someone else");
        }
        assertThat(row(queued)).isEqualTo(queuedBefore).endsWith("token:" + name);
        JsonNode shown = read(get("/api/v1/experiments/" + queued).body());
        assertThat(shown.get("createdBy").asString()).as("the name, for people").isEqualTo("token:" + name);
        assertThat(shown.has("createdByToken")).as("not the token's id").isFalse();
        assertThat(row(cancelled)).isEqualTo(cancelledBefore);
        assertThat(experimentCount()).as("no re-run queued").isEqualTo(before);

        // what the new token starts is its own, and an administrator still controls the revoked token's
        long own = queue(second);
        assertThat(createdByToken(own)).isEqualTo(secondId);
        assertThat(control(own, "cancel", "Bearer " + second).statusCode()).isEqualTo(202);
        assertThat(control(queued, "cancel", "Bearer " + ADMIN_TOKEN).statusCode()).isEqualTo(202);
        assertThat(row(queued)).startsWith("CANCELLED");
    }

    /**
     * An upload's {@code Idempotency-Key} is the token's, by its id: a token created with a revoked token's name
     * neither gets the revoked one's stored response back for the same upload nor is refused (409) for another upload
     * under its key; the revoked token's own retry was answered from what it stored.
     */
    @Test
    void aTokenCreatedWithARevokedTokensNameHasNoneOfItsIdempotencyKeys() throws Exception {
        String name = "owner-tests-keys";
        String first = newToken(name);
        long firstId = liveTokenId(name);
        String body = "{\"benchmark\":\"owner-tests-keys\",\"metrics\":{\"t\":{\"values\":[1,2]}}}";
        HttpResponse<String> sent = post("/api/v1/uploads", first, "application/json", body, "Idempotency-Key", "k-1");
        HttpResponse<String> retried = post("/api/v1/uploads", first, "application/json", body,
                "Idempotency-Key", "k-1");
        assertThat(sent.statusCode()).as(sent.body()).isEqualTo(201);
        long firstUpload = read(sent.body()).get("experimentId").asLong();
        assertThat(read(retried.body()).get("experimentId").asLong()).as("the token's retry").isEqualTo(firstUpload);
        assertThat(post("/api/v1/tokens/" + firstId + "/revoke", ADMIN_TOKEN, "application/json", "").statusCode())
                .isEqualTo(200);
        String second = newToken(name);

        HttpResponse<String> same = post("/api/v1/uploads", second, "application/json", body, "Idempotency-Key", "k-1");
        HttpResponse<String> other = post("/api/v1/uploads", second, "application/json",
                body.replace("[1,2]", "[3,4]"), "Idempotency-Key", "k-2");
        HttpResponse<String> otherUnderFirstKey = post("/api/v1/uploads", second, "application/json",
                body.replace("[1,2]", "[5,6]"), "Idempotency-Key", "k-1");

        assertThat(same.statusCode()).as(same.body()).isEqualTo(201);
        long secondUpload = read(same.body()).get("experimentId").asLong();
        assertThat(secondUpload).as("stored anew, not the revoked token's response").isNotEqualTo(firstUpload);
        assertThat(createdByToken(secondUpload)).isEqualTo(liveTokenId(name));
        assertThat(other.statusCode()).as(other.body()).isEqualTo(201);
        assertThat(otherUnderFirstKey.statusCode()).as("its own key k-1 now holds its own upload")
                .isEqualTo(409);
        assertThat(read(otherUnderFirstKey.body()).get("detail").asString()).contains("experiment " + secondUpload)
                .doesNotContain("experiment " + firstUpload);
    }

    /** Queues an engine experiment through the API with {@code token}, on a host none is; returns its id. */
    private long queue(String token) throws Exception {
        HttpResponse<String> queued = post("/api/v1/experiments", token, "application/json", """
                {"name": "owner tests by a token", "preset": "sync-completion", "runsPerVariant": 2,
                 "hostLabels": {"pool": "owner-tests-nowhere"}}""");
        assertThat(queued.statusCode()).as(queued.body()).isEqualTo(202);
        return read(queued.body()).get("id").asLong();
    }

    /** Uploads benchmark {@code benchmark} with {@code token}; returns the experiment's id. */
    private long upload(String token, String benchmark) throws Exception {
        HttpResponse<String> uploaded = post("/api/v1/uploads", token, "application/json",
                "{\"benchmark\":\"" + benchmark + "\",\"metrics\":{\"t\":{\"values\":[1,2]}}}");
        assertThat(uploaded.statusCode()).as(uploaded.body()).isEqualTo(201);
        return read(uploaded.body()).get("experimentId").asLong();
    }

    private long liveTokenId(String name) {
        return jdbc.sql("SELECT id FROM api_token WHERE live_name = ?").param(name).query(Long.class).single();
    }

    private Long createdByToken(long id) {
        return jdbc.sql("SELECT created_by_token FROM experiment WHERE id = ?").param(id).query(Long.class).single();
    }

    @Test
    void anExperimentThatDoesNotRecordWhoStartedItIsAnAdministrators() throws Exception {
        long id = stored(ExperimentStatus.QUEUED, null);

        HttpResponse<String> refused = control(id, "cancel", basic("alice"));

        assertThat(refused.statusCode()).isEqualTo(403);
        assertThat(read(refused.body()).get("detail").asString()).contains("does not record who started it");
        assertThat(row(id)).startsWith("QUEUED");
        assertThat(control(id, "cancel", "Bearer " + ADMIN_TOKEN).statusCode()).isEqualTo(202);
    }

    @Test
    void anotherUsersPageShowsNoButtonsAndRefusesThem() throws Exception {
        long queued = stored(ExperimentStatus.QUEUED, "alice");
        long cancelled = stored(ExperimentStatus.CANCELLED, "alice");
        String queuedBefore = row(queued);
        String cancelledBefore = row(cancelled);
        long before = experimentCount();
        HttpClient bob = signedIn("bob", PASSWORD);
        HttpClient alice = signedIn("alice", PASSWORD);

        String bobsView = page(bob, "/experiments/" + queued);
        String bobsViewOfCancelled = page(bob, "/experiments/" + cancelled);
        HttpResponse<String> cancel = bob.send(form("/experiments/" + queued + "/cancel", bobsView),
                HttpResponse.BodyHandlers.ofString());
        HttpResponse<String> resume = bob.send(form("/experiments/" + cancelled + "/resume", bobsViewOfCancelled),
                HttpResponse.BodyHandlers.ofString());
        HttpResponse<String> rerun = bob.send(form("/experiments/" + cancelled + "/rerun", bobsViewOfCancelled),
                HttpResponse.BodyHandlers.ofString());

        assertThat(bobsView).doesNotContain("/experiments/" + queued + "/cancel", "/experiments/" + queued + "/rerun")
                .contains("only they or an administrator may cancel, resume or re-run it");
        assertThat(bobsViewOfCancelled).doesNotContain("/experiments/" + cancelled + "/resume");
        for (HttpResponse<String> refused : List.of(cancel, resume, rerun)) {
            assertThat(refused.statusCode()).as(refused.body()).isEqualTo(403);
            assertThat(refused.body()).contains("was started by someone else");
        }
        assertThat(row(queued)).isEqualTo(queuedBefore);
        assertThat(row(cancelled)).isEqualTo(cancelledBefore);
        assertThat(experimentCount()).as("no re-run queued").isEqualTo(before);

        String alicesView = page(alice, "/experiments/" + queued);
        assertThat(alicesView).contains("/experiments/" + queued + "/cancel").doesNotContain("someone else");
        HttpResponse<String> hers = alice.send(form("/experiments/" + queued + "/cancel", alicesView),
                HttpResponse.BodyHandlers.ofString());
        assertThat(hers.statusCode()).isEqualTo(302);
        assertThat(row(queued)).startsWith("CANCELLED");
    }

    private String adminBasic() throws Exception {
        String password = Files.readString(dataDir.resolve("initial-admin-password")).strip();
        return "Basic " + Base64.getEncoder().encodeToString(("admin:" + password).getBytes(StandardCharsets.UTF_8));
    }

    private HttpClient signedIn(String username, String password) throws Exception {
        HttpClient browser = HttpClient.newBuilder().cookieHandler(new CookieManager()).build();
        HttpResponse<String> signedIn = browser.send(post("/login", "username=" + username + "&password="
                + URLEncoder.encode(password, StandardCharsets.UTF_8) + "&_csrf="
                + ExperimentPagesTests.csrf(page(browser, "/login"))), HttpResponse.BodyHandlers.ofString());
        assertThat(signedIn.statusCode()).as("sign-in of " + username).isEqualTo(302);
        assertThat(signedIn.headers().firstValue("Location").orElseThrow()).doesNotContain("error");
        return browser;
    }

    private String page(HttpClient browser, String path) throws Exception {
        return browser.send(HttpRequest.newBuilder(URI.create(base() + path)).header("Accept", "text/html").build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }

    /** A page's form, sent with the CSRF token of {@code page}. */
    private HttpRequest form(String path, String page) {
        return post(path, "_csrf=" + ExperimentPagesTests.csrf(page));
    }

    private HttpRequest post(String path, String body) {
        return HttpRequest.newBuilder(URI.create(base() + path))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build();
    }
}
