package io.perflab.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.perflab.upload.UploadServer;
import java.net.CookieManager;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** Repeated wrong passwords slow sign-in down and then lock it, on the form and on HTTP Basic alike. */
class SignInThrottleHttpTests extends UploadServer {

    @Autowired
    SignInThrottle throttle;

    @AfterEach
    void unlock() {
        throttle.forget();
    }

    /** After 3 wrong passwords, as README says: the fourth was checked too, and only the fifth waited. */
    @Test
    void wrongPasswordsOnTheFormLockSignInAndSayForHowLong() throws Exception {
        HttpClient browser = HttpClient.newBuilder().cookieHandler(new CookieManager()).build();
        for (int i = 1; i <= 3; i++) {
            assertThat(signIn(browser, "mallory", "guess-" + i)).as("try %d", i)
                    .contains("Wrong user name or password.").doesNotContain("try again in");
        }

        String page = signIn(browser, "mallory", "guess-4");

        assertThat(page).contains("Too many failed sign-ins for this user or from this address: try again in");
        assertThat(signIn(browser, "mallory", "guess-again")).contains("try again in");
    }

    /** Tries 1 to 3 are answered as wrong credentials, the fourth as too many: it was the fifth. */
    @Test
    void wrongBasicCredentialsOnTheApiAreThrottledToo() throws Exception {
        List<String> details = new ArrayList<>();
        for (int i = 1; i <= 5; i++) {
            HttpResponse<String> answer = http.send(basic("/api/v1/tokens", "ghost4", "wrong" + i),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(answer.statusCode()).isEqualTo(401);
            details.add(read(answer.body()).get("detail").asString());
        }
        assertThat(details.subList(0, 3)).allSatisfy(detail -> assertThat(detail)
                .doesNotContain("Too many failed sign-ins"));
        assertThat(details.subList(3, 5)).allSatisfy(detail -> assertThat(detail)
                .contains("Too many failed sign-ins"));
    }

    /**
     * Wrong passwords sent at once on HTTP Basic: each is counted before its (slow) password check, so no more are
     * checked than the throttle lets through. Counted after the check, 34 of 40 were checked and 6 refused. A right
     * password then signs in, again and again: a success clears the count its own attempt added.
     */
    @Test
    void wrongBasicCredentialsSentAtOnceAreCheckedNoMoreOftenThanTheThrottleAllows() throws Exception {
        throttle.forget();
        int guesses = 40;
        List<CompletableFuture<HttpResponse<String>>> sent = new ArrayList<>();
        for (int i = 0; i < guesses; i++) {
            sent.add(http.sendAsync(basic("/api/v1/tokens", "eve", "wrong" + i), HttpResponse.BodyHandlers.ofString()));
        }
        int passwordChecks = 0;
        for (CompletableFuture<HttpResponse<String>> response : sent) {
            HttpResponse<String> answer = response.get(60, TimeUnit.SECONDS);
            assertThat(answer.statusCode()).isEqualTo(401);
            passwordChecks += read(answer.body()).get("detail").asString().contains("Too many failed sign-ins") ? 0 : 1;
        }
        // 3 when all come within a second of each other; the waits double after that, and the lock comes after 10
        assertThat(passwordChecks).as("passwords checked of %d sent at once", guesses)
                .isBetween(SignInThrottle.FREE_FAILURES, SignInThrottle.LOCK_AFTER);

        throttle.forget();
        String password = Files.readString(dataDir.resolve("initial-admin-password")).strip();
        for (int i = 0; i <= SignInThrottle.LOCK_AFTER; i++) {
            HttpResponse<String> signedIn = http.send(basic("/api/v1/tokens", "admin", password),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(signedIn.statusCode()).as("sign-in %d: %s", i, signedIn.body()).isEqualTo(200);
        }
    }

    /**
     * Behind a load balancer every request comes from its address: counted by that address, one guesser would lock
     * everyone out. The service takes the client's address from {@code X-Forwarded-For} when a proxy on a loopback or
     * private address (as this test's client is) sends it, so only the guesser's own address is throttled.
     */
    @Test
    void behindAProxyOnlyTheGuessersOwnAddressIsThrottled() throws Exception {
        throttle.forget();
        HttpResponse<String> last = null;
        for (int i = 0; i < SignInThrottle.FREE_FAILURES + 2; i++) {
            // a new user name each time: only the address's count grows
            last = http.send(forwardedFor("203.0.113.7", basic("/api/v1/tokens", "guess-" + i, "wrong")),
                    HttpResponse.BodyHandlers.ofString());
        }
        assertThat(read(last.body()).get("detail").asString()).contains("Too many failed sign-ins");

        String password = Files.readString(dataDir.resolve("initial-admin-password")).strip();
        HttpResponse<String> neighbour = http.send(forwardedFor("203.0.113.8", basic("/api/v1/tokens", "admin",
                password)), HttpResponse.BodyHandlers.ofString());
        assertThat(neighbour.statusCode()).as(neighbour.body()).isEqualTo(200);
        HttpResponse<String> guesser = http.send(forwardedFor("203.0.113.7", basic("/api/v1/tokens", "admin",
                password)), HttpResponse.BodyHandlers.ofString());
        assertThat(guesser.statusCode()).isEqualTo(401);
        assertThat(read(guesser.body()).get("detail").asString()).contains("Too many failed sign-ins");
    }

    private static HttpRequest forwardedFor(String client, HttpRequest request) {
        return HttpRequest.newBuilder(request, (name, value) -> true).header("X-Forwarded-For", client).build();
    }

    private HttpRequest basic(String path, String user, String password) {
        return HttpRequest.newBuilder(URI.create(base() + path)).header("Authorization", "Basic "
                + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8)))
                .GET().build();
    }

    private String signIn(HttpClient browser, String user, String password) throws Exception {
        String form = browser.send(HttpRequest.newBuilder(URI.create(base() + "/login")).GET().build(),
                HttpResponse.BodyHandlers.ofString()).body();
        Matcher csrf = Pattern.compile("name=\"_csrf\" value=\"([^\"]+)\"").matcher(form);
        assertThat(csrf.find()).isTrue();
        HttpResponse<String> posted = browser.send(HttpRequest.newBuilder(URI.create(base() + "/login"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("username=" + user + "&password=" + password + "&_csrf="
                        + csrf.group(1))).build(), HttpResponse.BodyHandlers.ofString());
        String location = posted.headers().firstValue("Location").orElseThrow();
        return browser.send(HttpRequest.newBuilder(URI.create(location.startsWith("http") ? location
                : base() + location)).GET().build(), HttpResponse.BodyHandlers.ofString()).body();
    }
}
