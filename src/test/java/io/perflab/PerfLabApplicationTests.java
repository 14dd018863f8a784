package io.perflab;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** Smoke test of the whole service on a random port with an empty database in a fresh data directory. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class PerfLabApplicationTests {

    static final String BOOTSTRAP_TOKEN = "test-bootstrap-token-0123456789";

    static Path dataDir;

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) throws IOException {
        dataDir = Files.createTempDirectory("perflab-smoke");
        registry.add("perflab.data-dir", dataDir::toString);
        registry.add("perflab.security.bootstrap-token", () -> BOOTSTRAP_TOKEN);
    }

    @LocalServerPort
    int port;

    private final HttpClient http = HttpClient.newHttpClient();

    private HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create("http://localhost:" + port + path));
    }

    @Test
    void homePageRendersLayoutAndEmptyState() throws Exception {
        HttpResponse<String> response = send(request("/").header("Accept", "text/html"));

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body())
                .contains("<header class=\"site-header\">", "<footer class=\"site-footer\">")
                .contains("No experiments yet")
                .contains(">" + io.perflab.system.PerfLabVersion.get() + "<")
                .doesNotContain("@project.version@");
        assertThat(response.headers().firstValue("Content-Security-Policy")).hasValueSatisfying(
                csp -> assertThat(csp).contains("script-src 'self'"));
    }

    @Test
    void healthIsUp() throws Exception {
        HttpResponse<String> response = send(request("/actuator/health"));

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).contains("\"status\":\"UP\"");
    }

    @Test
    void prometheusMetricsAreExposedAndOtherActuatorEndpointsAreNot() throws Exception {
        assertThat(send(request("/actuator/prometheus")).statusCode()).isEqualTo(200);
        assertThat(send(request("/actuator/env")).statusCode()).isEqualTo(404);
        assertThat(send(request("/actuator/beans")).statusCode()).isEqualTo(404);
    }

    @Test
    void unknownApiPathIsProblemJson() throws Exception {
        HttpResponse<String> response = send(request("/api/v1/no-such-thing"));

        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(response.body()).contains("\"status\":404", "/api/v1/no-such-thing");
    }

    @Test
    void unknownPageIsHtmlErrorPageForBrowsers() throws Exception {
        HttpResponse<String> response = send(request("/no-such-page").header("Accept", "text/html"));

        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(response.headers().firstValue("Content-Type").orElseThrow()).startsWith("text/html");
        assertThat(response.body()).contains("404", "Back to the home page");
    }

    @Test
    void writesWithoutCredentialsAre401ProblemJson() throws Exception {
        HttpResponse<String> response = send(request("/api/v1/experiments")
                .POST(HttpRequest.BodyPublishers.ofString("{}")).header("Content-Type", "application/json"));

        assertThat(response.statusCode()).isEqualTo(401);
        assertThat(response.headers().firstValue("Content-Type").orElseThrow()).startsWith("application/problem+json");
        assertThat(response.body()).contains("Authorization: Bearer");
    }

    @Test
    void unknownBearerTokenIs401EvenOnOpenEndpoints() throws Exception {
        HttpResponse<String> response = send(request("/api/v1/no-such-thing").header("Authorization", "Bearer nope"));

        assertThat(response.statusCode()).isEqualTo(401);
        assertThat(response.body()).contains("not valid");
    }

    @Test
    void bootstrapTokenAuthenticatesApiWrites() throws Exception {
        HttpResponse<String> response = send(request("/api/v1/no-such-thing")
                .POST(HttpRequest.BodyPublishers.ofString("{}"))
                .header("Authorization", "Bearer " + BOOTSTRAP_TOKEN));

        // Authenticated, so the request reaches the dispatcher and finds nothing there.
        assertThat(response.statusCode()).isEqualTo(404);
    }

    @Test
    void firstStartWritesTheAdminPasswordForTheOwnerOnlyAndItSignsIn() throws Exception {
        Path file = dataDir.resolve("initial-admin-password");
        assertThat(file).exists();
        assertThat(Files.getPosixFilePermissions(file))
                .containsExactlyInAnyOrder(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);
        String password = Files.readString(file).strip();
        assertThat(password).hasSizeGreaterThanOrEqualTo(20);
        assertThat(dataDir.resolve("perflab.mv.db")).exists();

        HttpClient browser = HttpClient.newBuilder().cookieHandler(new java.net.CookieManager()).build();
        String loginPage = browser.send(request("/login").build(), HttpResponse.BodyHandlers.ofString()).body();
        String csrf = loginPage.replaceAll("(?s).*name=\"_csrf\" value=\"([^\"]+)\".*", "$1");
        HttpResponse<String> signIn = browser.send(request("/login")
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("username=admin&password=" + password + "&_csrf=" + csrf))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(signIn.statusCode()).isEqualTo(302);
        assertThat(signIn.headers().firstValue("Location").orElseThrow()).doesNotContain("error");

        String home = browser.send(request("/").build(), HttpResponse.BodyHandlers.ofString()).body();
        assertThat(home).contains("Signed in as");
    }

    @Test
    void apiBodiesOverTheLimitAre413() throws Exception {
        byte[] body = new byte[16 * 1024 * 1024 + 1];
        java.util.Arrays.fill(body, (byte) ' ');
        HttpResponse<String> response = send(request("/api/v1/experiments")
                .header("Authorization", "Bearer " + BOOTSTRAP_TOKEN).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)));

        assertThat(response.statusCode()).isEqualTo(413);
        assertThat(response.body()).contains("larger than the limit");
    }

    @Test
    void openApiDocumentIsServed() throws Exception {
        HttpResponse<String> response = send(request("/v3/api-docs"));

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).contains("\"openapi\"");
    }
}
