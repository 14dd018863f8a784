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

/**
 * A user cancels, resumes and re-runs only the experiments they started, and an API token only those it started; an
 * administrator any. The experiments wait for hosts labelled as none is, so nothing runs.
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

    @BeforeAll
    void users() {
        for (String name : new String[] {"alice", "bob"}) {
            if (users.findByUsername(name).isEmpty()) {
                users.create(name, passwords.encode(PASSWORD), UserAccounts.Role.USER);
            }
        }
        jdbc.sql("UPDATE api_token SET revoked_at = CURRENT_TIMESTAMP, revoked_by = 'tests', live_name = NULL "
                + "WHERE name = 'alice-ci' AND revoked_at IS NULL").update();
        aliceToken = tokens.create("alice-ci", "admin").secret();
    }

    /** Nothing these tests queued is left waiting for the next class. */
    @AfterAll
    void cancelLeftovers() {
        jdbc.sql("UPDATE experiment SET status = 'CANCELLED' WHERE status = 'QUEUED' AND name LIKE 'owner tests%'")
                .update();
    }

    private long stored(ExperimentStatus status, String createdBy) {
        ExperimentPlan plan = ExperimentPlan.of(EngineVariant.of(Map.of("completion", "monitor"), Workload.DEFAULTS),
                EngineVariant.of(Map.of("completion", "notification"), Workload.DEFAULTS), 2);
        return store.insert(new ExperimentSpec("owner tests", null, ExperimentKind.ENGINE, null, plan,
                PairedStopping.NONE, HostLabels.parse("pool=owner-tests-nowhere")), status, createdBy,
                Instant.now());
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
    void onlyWhoeverStartedItOrAnAdministratorCancelsOrResumesOverTheApi() throws Exception {
        long queued = stored(ExperimentStatus.QUEUED, "alice");
        long cancelled = stored(ExperimentStatus.CANCELLED, "alice");
        String queuedBefore = row(queued);
        String cancelledBefore = row(cancelled);

        HttpResponse<String> cancel = control(queued, "cancel", basic("bob"));
        HttpResponse<String> resume = control(cancelled, "resume", basic("bob"));

        for (HttpResponse<String> refused : List.of(cancel, resume)) {
            assertThat(refused.statusCode()).as(refused.body()).isEqualTo(403);
            assertThat(refused.headers().firstValue("Content-Type").orElseThrow())
                    .startsWith("application/problem+json");
            assertThat(read(refused.body()).get("detail").asString()).contains("was started by someone else",
                    "only they or an administrator may").doesNotContain("alice");
        }
        assertThat(row(queued)).isEqualTo(queuedBefore);
        assertThat(row(cancelled)).isEqualTo(cancelledBefore);
        // alice herself, signed in by HTTP Basic; the bootstrap token; a signed-in administrator
        for (String caller : new String[] {basic("alice"), "Bearer " + ADMIN_TOKEN, adminBasic()}) {
            long id = stored(ExperimentStatus.QUEUED, "alice");

            HttpResponse<String> answer = control(id, "cancel", caller);
            assertThat(answer.statusCode()).as(answer.body()).isEqualTo(202);
            assertThat(row(id)).startsWith("CANCELLED");
            HttpResponse<String> resumed = control(id, "resume", caller);
            assertThat(resumed.statusCode()).as(resumed.body()).isEqualTo(202);
            assertThat(row(id)).startsWith("QUEUED");
        }
    }

    /**
     * What a token starts is that token's, not a user's, and a token controls nothing a user started: an administrator
     * makes every token, so a token acting for its maker would control an administrator's experiments.
     */
    @Test
    void whatATokenStartedIsThatTokensAlone() throws Exception {
        long byToken = stored(ExperimentStatus.QUEUED, "token:alice-ci");
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
