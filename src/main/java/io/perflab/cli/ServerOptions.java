package io.perflab.cli;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import picocli.CommandLine.Option;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** {@code --server} and credentials of the commands that talk to a running PerfLab (plain java.net.http). */
final class ServerOptions {

    /** Exit status when the server could not be reached or refused the request. */
    static final int EXIT_SERVER_ERROR = 3;

    @Option(names = "--server", required = true, paramLabel = "URL",
            description = "PerfLab server, e.g. http://perflab.example.com:8080")
    String server;

    @Option(names = "--token", paramLabel = "TOKEN", defaultValue = "${env:PERFLAB_TOKEN}",
            description = "API token (Authorization: Bearer); default: $PERFLAB_TOKEN")
    String token;

    @Option(names = "--user", paramLabel = "NAME", description = "sign in as this user (basic auth) instead of a token")
    String user;

    @Option(names = "--password", paramLabel = "PASSWORD", defaultValue = "${env:PERFLAB_PASSWORD}",
            description = "password of --user; default: $PERFLAB_PASSWORD")
    String password;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    static final JsonMapper JSON = JsonMapper.builder().build();

    /** A request to {@code path} (with query) carrying the credentials. */
    HttpRequest.Builder request(String pathAndQuery) {
        String base = server.endsWith("/") ? server.substring(0, server.length() - 1) : server;
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + pathAndQuery))
                .timeout(Duration.ofMinutes(2))
                .header("Accept", "application/json");
        if (user != null) {
            String credentials = user + ":" + (password == null ? "" : password);
            request.header("Authorization", "Basic "
                    + Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8)));
        } else if (token != null && !token.isBlank()) {
            request.header("Authorization", "Bearer " + token.trim());
        }
        return request;
    }

    HttpResponse<String> send(HttpRequest request) throws IOException, InterruptedException {
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }

    /** The problem detail of an error response, or its body. */
    static String detail(HttpResponse<String> response) {
        try {
            JsonNode problem = JSON.readTree(response.body());
            if (problem.has("detail")) {
                return problem.get("detail").asString();
            }
        } catch (RuntimeException e) {
            // not JSON: show the body as it is
        }
        return response.body();
    }
}
