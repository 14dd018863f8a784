package io.perflab.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import io.perflab.upload.UploadServer;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/**
 * The analyze API through the whole service and its security chain: anonymous, no CSRF token, body limit (in the
 * context that the server tests share).
 */
class AnalyzeAnonymousAccessTests extends UploadServer {

    private HttpResponse<String> analyze(String body, String accept) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(base() + "/api/v1/analyze"))
                .header("Content-Type", "application/json").header("Accept", accept)
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void anonymousCallersGetJsonAndText() throws Exception {
        HttpResponse<String> json = analyze(AnalyzeControllerTests.body("n2_vs_3", ""), "application/json");
        assertThat(json.statusCode()).isEqualTo(200);
        assertThat(json.body()).contains("\"welch\":{");
        HttpResponse<String> text = analyze(AnalyzeControllerTests.body("n2_vs_3", ""), "text/plain");
        assertThat(text.statusCode()).isEqualTo(200);
        assertThat(text.body()).startsWith("\n\tWelch Two Sample t-test\n\ndata:  with and without\n");
    }

    @Test
    void badInputIsProblemJson() throws Exception {
        HttpResponse<String> response = analyze("{\"with\":[1],\"without\":[1,2]}", "application/json");
        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(response.body()).contains("'with' has 1 value");
    }

    @Test
    void bodiesOver16MiBAreRefused() throws Exception {
        // The server answers as soon as it sees the length, so the client must not insist on sending it all first.
        try (java.net.Socket socket = new java.net.Socket("localhost", port)) {
            String head = "POST /api/v1/analyze HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                    + "Accept: application/json\r\nContent-Length: " + (16 * 1024 * 1024 + 1) + "\r\n\r\n{\"with\":[";
            socket.getOutputStream().write(head.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            String status = new java.io.BufferedReader(new java.io.InputStreamReader(socket.getInputStream(),
                    java.nio.charset.StandardCharsets.US_ASCII)).readLine();
            assertThat(status).isEqualTo("HTTP/1.1 413 ");
        }
    }
}
