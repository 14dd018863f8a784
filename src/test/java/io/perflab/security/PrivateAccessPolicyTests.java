package io.perflab.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.CookieManager;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * A private instance ({@code perflab.security.anonymous-reads=false}): every test of {@link AccessPolicyTests}, which
 * checks each mapping for each caller against the policy's column for it, and what a visitor meets there. One Spring
 * context for all that a private instance needs checked: keep its checks here.
 */
@TestPropertySource(properties = "perflab.security.anonymous-reads=false")
class PrivateAccessPolicyTests extends AccessPolicyTests {

    private HttpResponse<String> get(HttpClient client, String path, String accept, String token) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base() + path)).header("Accept", accept);
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpClient browser() {
        return HttpClient.newBuilder().cookieHandler(new CookieManager()).build();
    }

    /** The sign-in page opens without a session, with its styles and scripts: no way in led back to sign-in. */
    @Test
    void theSignInPageOpensForAVisitorWithItsStylesAndScripts() throws Exception {
        HttpClient browser = HttpClient.newBuilder().cookieHandler(new CookieManager())
                .followRedirects(HttpClient.Redirect.NORMAL).build();

        HttpResponse<String> home = get(browser, "/", "text/html", null);
        HttpResponse<String> failed = get(browser, "/login?error", "text/html", null);

        assertThat(home.statusCode()).as("the visitor, sent to sign in once").isEqualTo(200);
        assertThat(home.uri().getPath()).isEqualTo("/login");
        assertThat(home.body()).contains("<h1>Sign in</h1>", "name=\"_csrf\"").doesNotContain("Signed in as");
        assertThat(failed.statusCode()).isEqualTo(200);
        assertThat(failed.body()).contains("Wrong user name or password.");
        List<String> assets = new ArrayList<>();
        Matcher linked = Pattern.compile("(?:href|src)=\"(/[^\"]+\\.(?:css|js))\"").matcher(home.body());
        while (linked.find()) {
            assets.add(linked.group(1));
        }
        assets.add("/js/form.js");
        assertThat(assets).contains("/css/perflab.css");
        for (String asset : assets) {
            HttpResponse<String> loaded = get(browser(), asset, "*/*", null);
            assertThat(loaded.statusCode()).as(asset).isEqualTo(200);
            assertThat(loaded.headers().firstValue("Content-Type").orElse("")).as(asset)
                    .contains(asset.endsWith(".css") ? "text/css" : "javascript");
        }
        assertThat(get(browser(), "/favicon.ico", "image/*", null).statusCode()).as("there is none, but it is asked "
                + "for on every page: not sent to sign in").isEqualTo(404);
    }

    /** Nothing else is open: an asset no sign-in needs, the API's pages, a path that names nothing. */
    @Test
    void anythingElseSendsAVisitorToSignIn() throws Exception {
        for (String path : List.of("/webjars/echarts/5.3.1/dist/echarts.min.js", "/swagger-ui/index.html",
                "/no-such-page")) {
            HttpResponse<String> answer = get(browser(), path, "text/html", null);

            assertThat(answer.statusCode()).as(path).isEqualTo(302);
            assertThat(answer.headers().firstValue("Location").orElse("")).as(path).endsWith("/login");
        }
    }

    /**
     * A refused read is a problem, as every refusal of the API is, and keeps no session: the request it would keep for
     * after sign-in made a session (a row of the database) for each read a visitor sent.
     */
    @Test
    void aRefusedReadIsAProblemAndMakesNoSession() throws Exception {
        String agentToken = sessions.get(Caller.AGENT_TOKEN).token();
        for (String path : List.of("/api/v1/experiments", "/api/v1/experiments/events", "/api/v1/agents",
                "/actuator/prometheus", "/v3/api-docs")) {
            HttpResponse<String> visitor = get(browser(), path, "*/*", null);
            HttpResponse<String> agent = get(browser(), path, "*/*", agentToken);

            assertThat(visitor.statusCode()).as(path).isEqualTo(401);
            assertThat(visitor.headers().firstValue("Content-Type").orElse("")).as(path)
                    .startsWith("application/problem+json");
            assertThat(read(visitor.body()).get("detail").asString()).as(path).contains("needs authentication");
            assertThat(visitor.headers().allValues("Set-Cookie")).as(path + ": a session").isEmpty();
            assertThat(agent.statusCode()).as(path).isEqualTo(403);
            assertThat(read(agent.body()).get("detail").asString()).as(path).endsWith("it needs a user (signed in, "
                    + "or a token of role user) or an administrator.");
        }
        HttpResponse<String> health = get(browser(), "/actuator/health", "application/json", null);
        assertThat(health.statusCode()).isEqualTo(200);
        assertThat(health.body()).contains("\"status\":\"UP\"");
    }

    /** A token of role user reads what a Prometheus scrapes. */
    @Test
    void aUsersTokenReadsTheMetrics() throws Exception {
        HttpResponse<String> metrics = get(http, "/actuator/prometheus", "text/plain",
                sessions.get(Caller.USER_TOKEN).token());

        assertThat(metrics.statusCode()).isEqualTo(200);
        assertThat(metrics.body()).contains("jvm_memory_used_bytes");
    }

    /** The page a visitor asked for is the one signed in to; signing out says so on the sign-in page. */
    @Test
    void signingInLeadsToThePageAskedForAndSigningOutBackToSignIn() throws Exception {
        HttpClient browser = browser();
        HttpResponse<String> asked = get(browser, "/benchmarks", "text/html", null);
        String csrf = csrf(page(browser, "/login"));

        HttpResponse<String> signedIn = browser.send(form("/login", "username=admin&password="
                + URLEncoder.encode(adminPassword(), StandardCharsets.UTF_8) + "&_csrf="
                + URLEncoder.encode(csrf, StandardCharsets.UTF_8)), HttpResponse.BodyHandlers.ofString());
        String location = signedIn.headers().firstValue("Location").orElse("");
        String benchmarks = page(browser, URI.create(location).getRawPath());
        HttpResponse<String> signedOut = browser.send(form("/logout", "_csrf="
                + URLEncoder.encode(csrf(benchmarks), StandardCharsets.UTF_8)), HttpResponse.BodyHandlers.ofString());

        assertThat(asked.statusCode()).isEqualTo(302);
        assertThat(location).contains("/benchmarks");
        assertThat(benchmarks).contains("Signed in as");
        assertThat(signedOut.statusCode()).isEqualTo(302);
        assertThat(signedOut.headers().firstValue("Location").orElse("")).endsWith("/login?logout");
        assertThat(page(browser, "/login?logout")).contains("You have signed out.");
        assertThat(get(browser, "/benchmarks", "text/html", null).statusCode()).isEqualTo(302);
    }

    /** The API document says what a private instance answers: every operation needs credentials, and may say 403. */
    @Test
    void theApiDocumentSaysEveryOperationNeedsCredentials() throws Exception {
        HttpResponse<String> answer = get(http, "/v3/api-docs", "application/json", ADMIN_TOKEN);
        JsonNode doc = read(answer.body());

        assertThat(answer.statusCode()).isEqualTo(200);
        assertThat(doc.at("/components/securitySchemes/bearer-token/description").asString())
                .endsWith("every operation needs one (or a signed-in session), GETs too");
        for (String operation : List.of("/~1api~1v1~1experiments/get", "/~1api~1v1~1experiments~1{id}~1samples/get",
                "/~1api~1v1~1analyze/post")) {
            assertThat(doc.at("/paths" + operation + "/responses").propertyNames()).as(operation)
                    .contains("401", "403");
        }
    }
}
