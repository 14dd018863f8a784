package io.perflab.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import io.perflab.upload.UploadServer;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Lists show each row's results from its digest: the home page's regressions say how many metrics regressed, a
 * digest is stored when an upload is compared, and one stored for the data version is what a list shows when the
 * comparisons are not cached (a restart, or the cache forgot them).
 */
class ResultsDigestPagesTests extends UploadServer {

    @Autowired
    ExperimentRepository store;

    @Autowired
    ResultsDigestRepository digests;

    private String page(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(base() + path)).header("Accept", "text/html").build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }

    @Test
    void homePageSaysHowManyMetricsRegressedAndListsReadTheStoredDigest() throws Exception {
        HttpResponse<String> response = post("/api/v1/uploads", ADMIN_TOKEN, "application/json", """
                {"benchmark": "digest-upload",
                 "without": {"metrics": {
                     "latency_us": {"unit": "us", "direction": "lower", "values": [10, 10.1, 9.9, 10, 10.2, 9.8]},
                     "throughput": {"direction": "higher", "values": [50, 51, 49, 50, 52, 48]}}},
                 "with": {"metrics": {
                     "latency_us": {"unit": "us", "direction": "lower", "values": [12, 12.1, 11.9, 12, 12.2, 11.8]},
                     "throughput": {"direction": "higher", "values": [50, 49, 51, 50, 48, 52]}}}}""");
        assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
        long id = read(response.body()).get("experimentId").asLong();
        ExperimentRecord record = store.find(id).orElseThrow();

        ResultsDigest digest = digests.find(id, record.dataVersion()).orElseThrow();
        assertThat(digest.compared()).isEqualTo(2);
        assertThat(digest.regressed()).isEqualTo(1);
        assertThat(digest.headlineRegressions()).extracting(ResultsDigest.Badge::metric).containsExactly("latency_us");

        String home = page("/");
        assertThat(home).contains("Recent regressions from uploads", "digest-upload", "1 of 2 metrics regressed");

        // a digest stored for the data version is what a list shows when the comparisons are not in memory
        digests.store(id, record.dataVersion(), new ResultsDigest(digest.headline(), 2, 2));
        ExperimentResults afterRestart = new ExperimentResults(store, digests);
        assertThat(afterRestart.digest(record).regressed()).isEqualTo(2);
    }
}
