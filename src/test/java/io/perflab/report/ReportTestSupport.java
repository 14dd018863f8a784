package io.perflab.report;

import io.perflab.experiment.ExperimentRepository;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The whole service on a random port over an empty database in a fresh data directory; report tests store their
 * experiments directly and read the reports over HTTP. Subclasses share one application context.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
abstract class ReportTestSupport {

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) throws IOException {
        String dir = Files.createTempDirectory("perflab-reports").toString();
        registry.add("perflab.data-dir", () -> dir);
    }

    @LocalServerPort
    int port;

    @Autowired
    ExperimentRepository store;

    @Autowired
    JdbcClient jdbc;

    private final HttpClient http = HttpClient.newHttpClient();

    HttpResponse<String> get(String path, String accept) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + path));
        if (accept != null) {
            request.header("Accept", accept);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return get(path, null);
    }
}
