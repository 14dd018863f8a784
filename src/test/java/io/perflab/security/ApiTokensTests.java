package io.perflab.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.perflab.cli.PerfLabCommand;
import io.perflab.display.Format;
import io.perflab.system.InvalidInputException;
import io.perflab.upload.UploadServer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.CookieManager;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.dao.DuplicateKeyException;

/** API tokens: who may manage them, what a token may do, how they are stored, the CLI and the settings page. */
class ApiTokensTests extends UploadServer {

    private static final String UPLOAD = "{\"benchmark\":\"tokens\",\"metrics\":{\"t\":{\"values\":[1,2]}}}";

    private String adminPassword() throws Exception {
        return Files.readString(dataDir.resolve("initial-admin-password")).trim();
    }

    private String basicAdmin() throws Exception {
        return "Basic " + Base64.getEncoder().encodeToString(("admin:" + adminPassword())
                .getBytes(StandardCharsets.UTF_8));
    }

    private HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void onlyAdministratorsManageTokens() throws Exception {
        String userToken = newToken("plain-user");

        assertThat(post("/api/v1/tokens", null, "application/json", "{\"name\":\"x\"}").statusCode()).isEqualTo(401);
        HttpResponse<String> asUser = post("/api/v1/tokens", userToken, "application/json", "{\"name\":\"x\"}");
        assertThat(asUser.statusCode()).isEqualTo(403);
        assertThat(read(asUser.body()).get("detail").asString())
                .isEqualTo("Your credentials do not allow this request: it needs an administrator.");
        assertThat(send(HttpRequest.newBuilder(URI.create(base() + "/api/v1/tokens"))
                .header("Authorization", "Bearer " + userToken).GET()).statusCode()).isEqualTo(403);

        HttpResponse<String> asAdminUser = send(HttpRequest.newBuilder(URI.create(base() + "/api/v1/tokens"))
                .header("Authorization", basicAdmin()).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"name\":\"by-admin\"}")));
        assertThat(asAdminUser.statusCode()).isEqualTo(201);
        assertThat(read(asAdminUser.body()).get("createdBy").asString()).isEqualTo("admin");
    }

    @Test
    void aTokenUploadsButCannotDelete() throws Exception {
        String token = newToken("uploader");
        HttpResponse<String> uploaded = post("/api/v1/uploads", token, "application/json", UPLOAD);
        assertThat(uploaded.statusCode()).isEqualTo(201);
        long id = read(uploaded.body()).get("experimentId").asLong();
        assertThat(jdbc.sql("SELECT created_by FROM experiment WHERE id = ?").param(id).query(String.class).single())
                .isEqualTo("token:uploader");

        HttpResponse<String> delete = send(HttpRequest.newBuilder(URI.create(base() + "/api/v1/experiments/" + id))
                .header("Authorization", "Bearer " + token).DELETE());

        assertThat(delete.statusCode()).isEqualTo(403);
        assertThat(jdbc.sql("SELECT COUNT(*) FROM experiment WHERE id = ?").param(id).query(Long.class).single())
                .isEqualTo(1);
    }

    @Test
    void onlyTheSha256OfATokenIsStoredAndUseIsRecorded() throws Exception {
        String token = newToken("hashed");
        // column labels as the database spells them: upper case on H2, lower case on PostgreSQL
        Map<String, Object> row = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        row.putAll(jdbc.sql("SELECT token_hash, token_prefix, last_used_at FROM api_token WHERE name = 'hashed'")
                .query().singleRow());
        // SHA-256 of the secret, hex, as `printf %s "$token" | sha256sum` prints it
        assertThat((String) row.get("token_hash")).isEqualTo(ApiTokens.hash(token)).hasSize(64)
                .isNotEqualTo(token);
        assertThat(token).startsWith("plt_").startsWith((String) row.get("token_prefix"));
        assertThat(row.get("last_used_at")).isNull();
        assertThat(jdbc.sql("SELECT COUNT(*) FROM api_token WHERE token_hash LIKE ? OR token_prefix = ?")
                .params("%" + token.substring(4) + "%", token).query(Long.class).single()).isZero();

        post("/api/v1/uploads", token, "application/json", UPLOAD);

        assertThat(jdbc.sql("SELECT last_used_at FROM api_token WHERE name = 'hashed'").query(Object.class).single())
                .isNotNull();
    }

    @Autowired
    private ApiTokens tokens;

    @Test
    void twoLiveTokensNeverShareANameNotEvenWhenCreatedAtOnce() throws Exception {
        // the store itself refuses a second live token of one name, which the check before the insert cannot when
        // two requests (or two instances) create it at the same moment
        tokens.create("raced", "tests");
        assertThatThrownBy(() -> jdbc.sql("INSERT INTO api_token (name, live_name, token_hash, token_prefix, role, "
                + "created_by, created_at) VALUES ('raced', 'raced', ?, 'plt_x', 'USER', 'tests', CURRENT_TIMESTAMP)")
                .param("0".repeat(64)).update()).isInstanceOf(DuplicateKeyException.class);

        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            for (int round = 0; round < 5; round++) {
                String name = "at-once-" + round;
                CyclicBarrier start = new CyclicBarrier(8);
                List<Future<Boolean>> created = new ArrayList<>();
                for (int i = 0; i < 8; i++) {
                    created.add(pool.submit(() -> {
                        start.await();
                        try {
                            tokens.create(name, "tests");
                            return true;
                        } catch (InvalidInputException e) {
                            assertThat(e).hasMessage("name: a token named '" + name + "' exists; revoke it first "
                                    + "or choose another name");
                            return false;
                        }
                    }));
                }
                long made = 0;
                for (Future<Boolean> one : created) {
                    made += one.get() ? 1 : 0;
                }
                assertThat(made).as(name).isOne();
                assertThat(jdbc.sql("SELECT COUNT(*) FROM api_token WHERE name = ? AND revoked_at IS NULL")
                        .param(name).query(Long.class).single()).as(name).isOne();
            }
        } finally {
            pool.shutdownNow();
        }
        // one name however its accents were typed: both were taken, and showed alike
        assertThat(tokens.create("caf\u0065\u0301", "tests").token().name()).isEqualTo("caf\u00e9");
        assertThatThrownBy(() -> tokens.create("caf\u00e9", "tests"))
                .hasMessageContaining("a token named 'caf\u00e9' exists");
        // a revoked token's name is free again
        long id = jdbc.sql("SELECT id FROM api_token WHERE name = 'raced'").query(Long.class).single();
        tokens.revoke(id, "tests");
        assertThat(tokens.create("raced", "tests").token().name()).isEqualTo("raced");
    }

    @Test
    void cliCreatesAndRevokesTokens() throws Exception {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int created = PerfLabCommand.commandLine(new PrintWriter(out), new PrintWriter(err))
                .execute("token", "create", "from-cli", "--server", base(), "--token", ADMIN_TOKEN);
        assertThat(created).as(err.toString()).isZero();
        String token = out.toString().lines().findFirst().orElseThrow();
        assertThat(token).startsWith("plt_");
        assertThat(post("/api/v1/uploads", token, "application/json", UPLOAD).statusCode()).isEqualTo(201);
        long id = jdbc.sql("SELECT id FROM api_token WHERE name = 'from-cli'").query(Long.class).single();
        // what a token does is recorded under its name: a second live token of that name would act as the first
        HttpResponse<String> again = post("/api/v1/tokens", ADMIN_TOKEN, "application/json", "{\"name\":\"from-cli\"}");
        assertThat(again.statusCode()).isEqualTo(400);
        assertThat(read(again.body()).get("detail").asString())
                .isEqualTo("name: a token named 'from-cli' exists; revoke it first or choose another name");
        // README: every refused body names its field in errors[]; the tokens API said it in its detail only
        assertThat(read(again.body()).at("/errors/0/field").asString()).isEqualTo("name");
        HttpResponse<String> noRole = post("/api/v1/tokens", ADMIN_TOKEN, "application/json",
                "{\"name\":\"x\",\"role\":\"root\"}");
        assertThat(noRole.statusCode()).isEqualTo(400);
        assertThat(read(noRole.body()).at("/errors/0/field").asString()).isEqualTo("role");

        StringWriter revokeOut = new StringWriter();
        int revoked = PerfLabCommand.commandLine(new PrintWriter(revokeOut), new PrintWriter(err))
                .execute("token", "revoke", String.valueOf(id), "--server", base(), "--user", "admin",
                        "--password", adminPassword());
        assertThat(revoked).as(err.toString()).isZero();
        assertThat(revokeOut.toString()).contains("revoked token " + id);

        HttpResponse<String> refused = post("/api/v1/uploads", token, "application/json", UPLOAD);
        assertThat(refused.statusCode()).isEqualTo(401);
        assertThat(read(refused.body()).get("detail").asString()).contains("'from-cli'").contains("was revoked");
        assertThat(post("/api/v1/tokens", ADMIN_TOKEN, "application/json", "{\"name\":\"from-cli\"}").statusCode())
                .as("the name is free again once its token is revoked").isEqualTo(201);

        StringWriter denied = new StringWriter();
        int asUser = PerfLabCommand.commandLine(new PrintWriter(new StringWriter()), new PrintWriter(denied))
                .execute("token", "create", "nope", "--server", base(), "--token", newToken("not-admin"));
        assertThat(asUser).isEqualTo(3);
        assertThat(denied.toString()).contains("403").contains("needs an administrator");
    }

    @Test
    void settingsPageCreatesATokenShownOnceAndRevokesIt() throws Exception {
        HttpClient browser = HttpClient.newBuilder().cookieHandler(new CookieManager()).build();
        HttpResponse<String> anonymous = browser.send(HttpRequest.newBuilder(URI.create(base() + "/settings/tokens"))
                .GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(anonymous.statusCode()).isEqualTo(302);

        signInAsAdmin(browser);

        String page = browser.send(HttpRequest.newBuilder(URI.create(base() + "/settings/tokens")).GET().build(),
                HttpResponse.BodyHandlers.ofString()).body();
        assertThat(page).contains("<h1>API tokens</h1>", "Signed in as");
        HttpResponse<String> created = browser.send(form("/settings/tokens",
                "name=%3Cscript%3Epage%3C%2Fscript%3E&_csrf=" + csrf(page)), HttpResponse.BodyHandlers.ofString());
        assertThat(created.statusCode()).isEqualTo(200);
        Matcher secret = Pattern.compile("<code class=\"secret\">(plt_[A-Za-z0-9_-]+)</code>").matcher(created.body());
        assertThat(secret.find()).as(created.body()).isTrue();
        // the name is user input: escaped, never markup
        assertThat(created.body()).contains("&lt;script&gt;page&lt;/script&gt;").doesNotContain("<script>page");
        assertThat(post("/api/v1/uploads", secret.group(1), "application/json", UPLOAD).statusCode()).isEqualTo(201);

        String again = browser.send(HttpRequest.newBuilder(URI.create(base() + "/settings/tokens")).GET().build(),
                HttpResponse.BodyHandlers.ofString()).body();
        assertThat(again).doesNotContain(secret.group(1));
        long id = jdbc.sql("SELECT id FROM api_token WHERE name = '<script>page</script>'").query(Long.class).single();
        HttpResponse<String> revoked = browser.send(form("/settings/tokens/" + id + "/revoke", "_csrf=" + csrf(again)),
                HttpResponse.BodyHandlers.ofString());
        assertThat(revoked.statusCode()).isEqualTo(302);
        assertThat(browser.send(HttpRequest.newBuilder(URI.create(base() + "/settings/tokens")).GET().build(),
                HttpResponse.BodyHandlers.ofString()).body()).contains("Token " + id + " is revoked.");
        assertThat(post("/api/v1/uploads", secret.group(1), "application/json", UPLOAD).statusCode()).isEqualTo(401);
    }

    /** The page showed a token's times as raw ISO instants with microseconds, where other pages show them in UTC. */
    @Test
    void settingsPageShowsTokenTimesAsOtherPagesShowTimes() throws Exception {
        HttpClient browser = HttpClient.newBuilder().cookieHandler(new CookieManager()).build();
        signInAsAdmin(browser);
        String page = browser.send(HttpRequest.newBuilder(URI.create(base() + "/settings/tokens")).GET().build(),
                HttpResponse.BodyHandlers.ofString()).body();
        HttpResponse<String> created = browser.send(form("/settings/tokens", "name=timed&_csrf=" + csrf(page)),
                HttpResponse.BodyHandlers.ofString());
        long id = jdbc.sql("SELECT id FROM api_token WHERE name = 'timed'").query(Long.class).single();
        Instant createdAt = jdbc.sql("SELECT created_at FROM api_token WHERE id = ?").param(id)
                .query(java.time.OffsetDateTime.class).single().toInstant();
        browser.send(form("/settings/tokens/" + id + "/revoke", "_csrf=" + csrf(created.body())),
                HttpResponse.BodyHandlers.ofString());

        String listed = browser.send(HttpRequest.newBuilder(URI.create(base() + "/settings/tokens")).GET().build(),
                HttpResponse.BodyHandlers.ofString()).body();

        String row = listed.substring(listed.indexOf("<td>" + id + "</td>"), listed.indexOf("</tr>",
                listed.indexOf("<td>" + id + "</td>")));
        assertThat(row).contains("<td class=\"time\">" + Format.time(createdAt) + "</td>", "<td>never</td>", "revoked ")
                .containsPattern("revoked \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC by admin")
                .doesNotContainPattern("\\d{4}-\\d\\d-\\d\\dT\\d\\d");
    }

    /** The page listed every token ever made, revoked ones too, however many there were. */
    @Test
    void settingsPageListsTheTokensAPageAtATime() throws Exception {
        for (int i = 0; i < TokensPageController.PAGE_SIZE + 1; i++) {
            newToken("paged-" + i);
        }
        long total = jdbc.sql("SELECT COUNT(*) FROM api_token").query(Long.class).single();
        HttpClient browser = HttpClient.newBuilder().cookieHandler(new CookieManager()).build();
        signInAsAdmin(browser);
        String first = browser.send(HttpRequest.newBuilder(URI.create(base() + "/settings/tokens")).GET().build(),
                HttpResponse.BodyHandlers.ofString()).body();
        assertThat(Pattern.compile("<tr>\\s*<td>\\d+</td>").matcher(first).results().count())
                .isEqualTo(TokensPageController.PAGE_SIZE);
        long pages = (total + TokensPageController.PAGE_SIZE - 1) / TokensPageController.PAGE_SIZE;
        assertThat(first).contains("Page 1 of " + pages + ", " + total + " tokens, newest first",
                "href=\"/settings/tokens?page=1\"");
        HttpResponse<String> last = browser.send(HttpRequest.newBuilder(URI.create(base() + "/settings/tokens?page="
                + (pages - 1))).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(last.statusCode()).isEqualTo(200);
        assertThat(Pattern.compile("<tr>\\s*<td>\\d+</td>").matcher(last.body()).results().count())
                .isEqualTo(total - (pages - 1) * TokensPageController.PAGE_SIZE);
        HttpResponse<String> beyond = browser.send(HttpRequest.newBuilder(URI.create(base() + "/settings/tokens?page="
                + pages)).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(beyond.statusCode()).isEqualTo(404);
        assertThat(beyond.body()).contains("There is no page");
        HttpResponse<String> notOne = browser.send(HttpRequest.newBuilder(URI.create(base()
                + "/settings/tokens?page=two")).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(notOne.statusCode()).isEqualTo(400);
        assertThat(notOne.body()).contains("There is no page &#39;two&#39;");
    }

    /** A refused name came back empty with the role on 'user', so the next submit made a USER token. */
    @Test
    void settingsPageKeepsTheTypedNameAndChosenRoleWhenItRefusesThem() throws Exception {
        HttpClient browser = HttpClient.newBuilder().cookieHandler(new CookieManager()).build();
        signInAsAdmin(browser);
        String page = browser.send(HttpRequest.newBuilder(URI.create(base() + "/settings/tokens")).GET().build(),
                HttpResponse.BodyHandlers.ofString()).body();
        browser.send(form("/settings/tokens", "name=bench+%22host%22&role=agent&_csrf=" + csrf(page)),
                HttpResponse.BodyHandlers.ofString());

        HttpResponse<String> refused = browser.send(form("/settings/tokens", "name=bench+%22host%22&role=agent"
                + "&_csrf=" + csrf(page)), HttpResponse.BodyHandlers.ofString());

        assertThat(refused.body()).contains("a token named &#39;bench &quot;host&quot;&#39; exists")
                .contains("value=\"bench &quot;host&quot;\"")
                .containsPattern("<option value=\"agent\" selected=\"selected\">")
                .doesNotContainPattern("<option value=\"user\" selected");
        HttpResponse<String> created = browser.send(form("/settings/tokens", "name=bench+2&role=agent&_csrf="
                + csrf(page)), HttpResponse.BodyHandlers.ofString());
        assertThat(created.body()).as("a token made: the form is blank again").contains("<code class=\"secret\">")
                .doesNotContain("value=\"bench 2\"").containsPattern("<option value=\"user\" selected");
    }

    /**
     * The page quoted a role that is none, and a page number that is none, as they were sent: an escape acted on the
     * terminal of whoever read the page's text, a right-to-left override reordered the message. They are quoted as
     * other messages quote what a user typed.
     */
    @Test
    void settingsPageQuotesARefusedRoleAndPageWithTheirHiddenCharactersEscaped() throws Exception {
        HttpClient browser = HttpClient.newBuilder().cookieHandler(new CookieManager()).build();
        signInAsAdmin(browser);
        String page = browser.send(HttpRequest.newBuilder(URI.create(base() + "/settings/tokens")).GET().build(),
                HttpResponse.BodyHandlers.ofString()).body();

        HttpResponse<String> refused = browser.send(form("/settings/tokens", "name=hidden-role"
                + "&role=%E2%80%AEnimda%1B%5B2J&_csrf=" + csrf(page)), HttpResponse.BodyHandlers.ofString());
        HttpResponse<String> notOne = browser.send(HttpRequest.newBuilder(URI.create(base()
                + "/settings/tokens?page=%E2%80%AE1")).GET().build(), HttpResponse.BodyHandlers.ofString());

        assertThat(refused.body()).contains("role: &#39;\\u202Enimda\\u001B[2J&#39; is not a token role")
                .doesNotContain("\u202E", "\u001B");
        assertThat(notOne.statusCode()).isEqualTo(400);
        assertThat(notOne.body()).contains("There is no page &#39;\\u202E1&#39;").doesNotContain("\u202E");
    }

    @Test
    void settingsPageSaysSoWhenTheTokenToRevokeDoesNotExist() throws Exception {
        HttpClient browser = HttpClient.newBuilder().cookieHandler(new CookieManager()).build();
        signInAsAdmin(browser);
        String page = browser.send(HttpRequest.newBuilder(URI.create(base() + "/settings/tokens")).GET().build(),
                HttpResponse.BodyHandlers.ofString()).body();

        HttpResponse<String> revoked = browser.send(form("/settings/tokens/999999/revoke", "_csrf=" + csrf(page)),
                HttpResponse.BodyHandlers.ofString());

        assertThat(revoked.statusCode()).isEqualTo(302);
        String location = revoked.headers().firstValue("Location").orElseThrow();
        String after = browser.send(HttpRequest.newBuilder(URI.create(location.startsWith("http") ? location
                : base() + location)).GET().build(), HttpResponse.BodyHandlers.ofString()).body();
        assertThat(after).contains("There is no API token with id 999999.").doesNotContain("is revoked");
    }

    private void signInAsAdmin(HttpClient browser) throws Exception {
        String login = browser.send(HttpRequest.newBuilder(URI.create(base() + "/login")).GET().build(),
                HttpResponse.BodyHandlers.ofString()).body();
        HttpResponse<String> signedIn = browser.send(form("/login", "username=admin&password="
                + URLEncoder.encode(adminPassword(), StandardCharsets.UTF_8) + "&_csrf=" + csrf(login)),
                HttpResponse.BodyHandlers.ofString());
        assertThat(signedIn.statusCode()).isEqualTo(302);
    }

    private HttpRequest form(String path, String body) {
        return HttpRequest.newBuilder(URI.create(base() + path))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build();
    }

    private static String csrf(String html) {
        Matcher m = Pattern.compile("name=\"_csrf\" value=\"([^\"]+)\"").matcher(html);
        if (!m.find()) {
            throw new IllegalStateException("no CSRF field in " + html);
        }
        return URLEncoder.encode(m.group(1), StandardCharsets.UTF_8);
    }
}
