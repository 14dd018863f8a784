package io.perflab.experiment;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** A small HTTP client of the PerfLab API for tests that run the real server. */
final class ApiClient {

    private final HttpClient http = HttpClient.newHttpClient();
    private final JsonMapper json = JsonMapper.builder().build();
    private final String base;
    private final String token;

    ApiClient(int port, String token) {
        this.base = "http://localhost:" + port;
        this.token = token;
    }

    HttpResponse<String> post(String path, Object body) throws Exception {
        String text = body instanceof String s ? s : json.writeValueAsString(body);
        return http.send(HttpRequest.newBuilder(URI.create(base + path))
                .header("Content-Type", "application/json")
                .header("Authorization", "Bearer " + token)
                .POST(HttpRequest.BodyPublishers.ofString(text)).build(), HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> get(String path, String accept) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(base + path)).header("Accept", accept).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    JsonNode getJson(String path) throws Exception {
        HttpResponse<String> response = get(path, "application/json");
        if (response.statusCode() != 200) {
            throw new IllegalStateException("GET " + path + " → " + response.statusCode() + ": " + response.body());
        }
        return json.readTree(response.body());
    }

    JsonNode read(String text) {
        return json.readTree(text);
    }

    /** Creates an experiment and returns its id. */
    long create(Map<String, Object> body) throws Exception {
        HttpResponse<String> response = post("/api/v1/experiments", body);
        if (response.statusCode() != 202) {
            throw new IllegalStateException("POST → " + response.statusCode() + ": " + response.body());
        }
        return json.readTree(response.body()).get("id").asLong();
    }

    String status(long id) throws Exception {
        return getJson("/api/v1/experiments/" + id).get("status").asText();
    }
}
