package io.perflab.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import io.perflab.upload.UploadServer;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/**
 * Lists show each row's results from its digest: the home page's regressions say how many metrics regressed, a
 * digest is stored when an upload is compared, and one stored for the data version is what a list shows when the
 * comparisons are not cached (a restart, or the cache forgot them). An upload of one side compared with a base is
 * listed with that comparison, marked as against its base, until the base is deleted.
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

    /** Uploads one side of benchmark {@code benchmark} with git fields {@code git}; returns the experiment's id. */
    private long uploadOneSide(String benchmark, String git, double latency) throws Exception {
        HttpResponse<String> response = post("/api/v1/uploads", ADMIN_TOKEN, "application/json", """
                {"benchmark": "%s", "git": %s,
                 "metrics": {
                     "latency_us": {"unit": "us", "direction": "lower", "values": [%s, %s, %s, %s, %s, %s]},
                     "throughput": {"direction": "higher", "values": [50, 51, 49, 50, 52, 48]}}}"""
                .formatted(benchmark, git, latency, latency + 0.1, latency - 0.1, latency, latency + 0.2,
                        latency - 0.2));
        assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
        return read(response.body()).get("experimentId").asLong();
    }

    /** The entry of experiment {@code id} in the API's list of benchmark {@code benchmark}'s experiments. */
    private JsonNode listed(String benchmark, long id) throws Exception {
        HttpResponse<String> list = get("/api/v1/experiments?benchmark=" + benchmark);
        assertThat(list.statusCode()).as(list.body()).isEqualTo(200);
        for (JsonNode item : read(list.body()).get("items")) {
            if (item.get("id").asLong() == id) {
                return item;
            }
        }
        throw new AssertionError("experiment " + id + " is not listed: " + list.body());
    }

    @Test
    void aOneSidedUploadIsListedWithItsComparisonWithItsBaseUntilTheBaseIsDeleted() throws Exception {
        long baseId = uploadOneSide("digest-vs-base", "{\"branch\": \"main\", \"commit\": \"base-1\"}", 10);
        long id = uploadOneSide("digest-vs-base",
                "{\"branch\": \"topic\", \"commit\": \"topic-1\", \"baseCommit\": \"base-1\"}", 12);
        ExperimentRecord record = store.find(id).orElseThrow();
        assertThat(record.baseExperimentId()).isEqualTo(baseId);

        // kept when it came in: no list compares it again
        ResultsDigest stored = digests.find(id, record.dataVersion()).orElseThrow();
        assertThat(stored.baseExperimentId()).isEqualTo(baseId);
        assertThat(stored.baseCommit()).isEqualTo("base-1");
        assertThat(stored.compared()).isEqualTo(2);
        assertThat(stored.regressed()).isEqualTo(1);
        assertThat(stored.headlineRegressions()).extracting(ResultsDigest.Badge::metric)
                .containsExactly("latency_us");
        assertThat(stored.headline()).extracting(ResultsDigest.Badge::metric)
                .containsExactlyInAnyOrder("latency_us", "throughput");

        JsonNode summary = listed("digest-vs-base", id).get("summary");
        assertThat(summary.get("baseExperimentId").asLong()).isEqualTo(baseId);
        assertThat(summary.get("baseCommit").asString()).isEqualTo("base-1");
        assertThat(summary.get("compared").asInt()).isEqualTo(2);
        assertThat(summary.get("regressed").asInt()).isEqualTo(1);
        assertThat(summary.get("headline")).hasSize(2).anySatisfy(badge -> {
            assertThat(badge.get("metric").asString()).isEqualTo("latency_us");
            assertThat(badge.get("verdict").asString()).isEqualTo("regressed");
            assertThat(badge.get("percent").asDouble()).isCloseTo(20.0, offset(0.5));
        });
        // the base itself has one side and no base of its own: nothing compared, no verdicts
        JsonNode baseSummary = listed("digest-vs-base", baseId).get("summary");
        assertThat(baseSummary.get("baseExperimentId").isNull()).as(baseSummary.toString()).isTrue();
        assertThat(baseSummary.get("headline")).isEmpty();
        assertThat(baseSummary.get("compared").asInt()).isZero();
        // one experiment's JSON has its results, not a list's summary of them
        assertThat(read(get("/api/v1/experiments/" + id).body()).has("summary")).isFalse();

        String list = page("/experiments?benchmark=digest-vs-base");
        assertThat(list).contains("vs base", "href=\"/experiments/" + baseId + "\">#" + baseId + "</a>",
                "Compared with its base, upload " + baseId + " (commit base-1)", "verdict-regressed");
        assertThat(page("/")).contains("1 of 2 metrics regressed", "#" + baseId + "</a>");

        // what lists show is the digest stored for the data version, not a comparison made again for each of them
        digests.store(id, record.dataVersion(), new ResultsDigest(stored.headline(), 2, 2, baseId, "base-1"));
        assertThat(listed("digest-vs-base", id).get("summary").get("regressed").asInt()).isEqualTo(2);

        // a digest of the form before bases counted (no base, no verdicts) is computed again, against the base
        jdbc.sql("UPDATE results_digest SET digest_format = ?, digest = ? WHERE experiment_id = ?")
                .params(ResultsDigest.FORMAT - 1, "{\"headline\": [], \"compared\": 0, \"regressed\": 0}", id)
                .update();
        assertThat(listed("digest-vs-base", id).get("summary").get("regressed").asInt()).isEqualTo(1);
        assertThat(digests.find(id, record.dataVersion()).orElseThrow()).isEqualTo(stored);

        // the base deleted: the upload has nothing it is compared with, and its row no verdicts, as any one side
        HttpResponse<String> deleted = http.send(HttpRequest.newBuilder(URI.create(base() + "/api/v1/experiments/"
                + baseId)).header("Authorization", "Bearer " + ADMIN_TOKEN).DELETE().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(deleted.statusCode()).as(deleted.body()).isEqualTo(204);
        JsonNode orphan = listed("digest-vs-base", id).get("summary");
        assertThat(orphan.get("baseExperimentId").isNull()).as(orphan.toString()).isTrue();
        assertThat(orphan.get("headline")).isEmpty();
        assertThat(orphan.get("compared").asInt()).isZero();
        assertThat(orphan.get("regressed").asInt()).isZero();
        assertThat(page("/experiments?benchmark=digest-vs-base")).doesNotContain("vs base", "verdict-regressed");
        assertThat(page("/")).doesNotContain("#" + baseId + "</a>");
        // after a restart (nothing cached) the digest stored against the base that is gone does not count either
        assertThat(new ExperimentResults(store, digests).digest(store.find(id).orElseThrow()).headline()).isEmpty();
        assertThat(digests.find(id, record.dataVersion()).orElseThrow().baseExperimentId()).isNull();
    }
}
