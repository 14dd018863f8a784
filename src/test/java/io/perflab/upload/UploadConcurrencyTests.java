package io.perflab.upload;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Acceptance 4: 8 parallel clients × 250 uploads each → exactly 2,000 experiments and every sample. */
class UploadConcurrencyTests extends UploadServer {

    private static final Logger log = LoggerFactory.getLogger(UploadConcurrencyTests.class);

    static final int CLIENTS = 8;
    static final int UPLOADS_PER_CLIENT = 250;
    /** Per upload: 2 sides × 2 metrics × 5 values. */
    static final int SAMPLES_PER_UPLOAD = 20;

    @Test
    void eightClientsTimesTwoHundredFiftyUploadsStoreExactlyTwoThousandExperiments() throws Exception {
        String token = newToken("concurrency");
        Map<String, Long> before = rowCounts();
        long samplesBefore = storedSamples();
        ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
        long start = System.nanoTime();
        List<Future<Integer>> results = new ArrayList<>();
        for (int c = 0; c < CLIENTS; c++) {
            int client = c;
            results.add(clients.submit(() -> {
                int created = 0;
                for (int i = 0; i < UPLOADS_PER_CLIENT; i++) {
                    String body = String.format(Locale.ROOT, """
                            {"benchmark": "load-%d", "without": {"metrics": {
                               "a": {"values": [10, 11, 12, 13, %d]}, "b": {"values": [1, 2, 3, 4, 5]}}},
                             "with": {"metrics": {
                               "a": {"values": [9, 10, 11, 12, 13]}, "b": {"values": [2, 3, 4, 5, %d]}}},
                             "git": {"branch": "main", "commit": "c%d-%d"}}""", client, 14 + i % 3, 6 + i % 2,
                            client, i);
                    HttpResponse<String> response = post("/api/v1/uploads", token, "application/json", body);
                    if (response.statusCode() != 201) {
                        throw new IllegalStateException(response.statusCode() + ": " + response.body());
                    }
                    created++;
                }
                return created;
            }));
        }
        int created = 0;
        for (Future<Integer> result : results) {
            created += result.get();
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        clients.shutdown();

        Map<String, Long> after = rowCounts();
        int uploads = CLIENTS * UPLOADS_PER_CLIENT;
        assertThat(created).isEqualTo(uploads);
        assertThat(after.get("experiment") - before.get("experiment")).isEqualTo(2_000);
        assertThat(storedSamples() - samplesBefore).isEqualTo((long) uploads * SAMPLES_PER_UPLOAD);
        // per upload a series per side and metric, whose positions are its runs: no trial_run rows (V11)
        assertThat(after.get("sample_series") - before.get("sample_series")).isEqualTo((long) uploads * 4);
        assertThat(after.get("trial_run") - before.get("trial_run")).isZero();
        for (int c = 0; c < CLIENTS; c++) {
            assertThat(jdbc.sql("SELECT COUNT(*) FROM experiment WHERE benchmark = ?").param("load-" + c)
                    .query(Long.class).single()).isEqualTo(UPLOADS_PER_CLIENT);
        }
        log.info(String.format(Locale.ROOT, "%d uploads (%d samples) by %d clients in %.1f s: %.0f uploads/s, "
                + "%.0f samples/s", uploads, uploads * SAMPLES_PER_UPLOAD, CLIENTS, seconds, uploads / seconds,
                uploads * SAMPLES_PER_UPLOAD / seconds));
        System.out.printf(Locale.ROOT, "THROUGHPUT uploads=%d seconds=%.2f uploads/s=%.0f samples/s=%.0f%n", uploads,
                seconds, uploads / seconds, uploads * SAMPLES_PER_UPLOAD / seconds);
    }
}
