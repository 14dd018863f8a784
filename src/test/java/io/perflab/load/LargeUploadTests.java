package io.perflab.load;

import static org.assertj.core.api.Assertions.assertThat;
import static io.perflab.Occurrences.count;

import io.perflab.upload.UploadServer;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Pages and reports stay small as data grows (issue 17): the experiment page and the exported reports of one
 * 16 MB Go upload of 1,000 benchmarks × 200 runs × 3 metrics (600,000 samples, 3,000 metrics) are bounded in
 * size, whatever the upload holds; the samples are one link away. Sizes are deterministic; times are measured by
 * {@link ServiceLoad}'s {@code large-upload} scenario, not here.
 */
class LargeUploadTests extends UploadServer {

    static final int BENCHMARKS = 1000;
    static final int RUNS = 200;

    @Test
    void pageAndReportsOfA600000SampleUploadStaySmall() throws Exception {
        String file = GoBenchFile.generate(BENCHMARKS, RUNS, 17);
        assertThat(file.length()).isBetween(15_000_000, 16 * 1024 * 1024);
        HttpResponse<String> uploaded = post("/api/v1/uploads?format=gobench", ADMIN_TOKEN, "text/plain", file);
        assertThat(uploaded.statusCode()).as(uploaded.body()).isEqualTo(201);
        long id = read(uploaded.body()).get("experimentId").asLong();
        try {
            String page = html("/experiments/" + id);
            assertThat(bytes(page)).as("experiment page bytes").isLessThan(1_000_000);
            assertThat(page).contains("Showing 25 of the 3,000 metrics that match (page 1 of 120)")
                    .contains("/api/v1/experiments/" + id + "/samples");
            assertThat(count(page, "<svg ")).isEqualTo(1 + 2 * 25);
            // one side was uploaded: every metric says so, once for all of them
            assertThat(count(page, "not enough &#39;without&#39; observations")).isEqualTo(1);
            assertThat(page).contains("— all 3,000 metrics");

            String last = html("/experiments/" + id + "?page=119");
            assertThat(last).contains("data-metric=\"Codec/Op0999:ns/op\"", "Page 120 of 120");
            String one = html("/experiments/" + id + "?metric=Op0500");
            assertThat(count(one, "<tbody class=\"metric\"")).isEqualTo(3);

            String report = html("/api/v1/experiments/" + id + "/report.html");
            assertThat(bytes(report)).as("report.html bytes").isLessThan(5_000_000);
            assertThat(report).contains("This report lists 100 of the 3,000 metrics")
                    .contains("/api/v1/experiments/" + id + "/samples");
            assertThat(count(report, "<svg ")).isEqualTo(1 + 2 * 20);
            assertThat(count(report, "<tbody class=\"metric\"")).isEqualTo(100);
            assertThat(bytes(html("/api/v1/experiments/" + id + "/report.md"))).isLessThan(100_000);
            assertThat(bytes(html("/api/v1/experiments/" + id + "/report.txt"))).isLessThan(100_000);
        } finally {
            http.send(HttpRequest.newBuilder(URI.create(base() + "/api/v1/experiments/" + id))
                    .header("Authorization", "Bearer " + ADMIN_TOKEN).DELETE().build(),
                    HttpResponse.BodyHandlers.discarding());
        }
    }

    private String html(String path) throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(base() + path))
                .header("Accept", "text/html").GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(path).isEqualTo(200);
        return response.body();
    }

    private static int bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8).length;
    }
}
