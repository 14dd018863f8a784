package io.perflab.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import io.perflab.runner.experiment.EngineVariant;
import io.perflab.runner.experiment.ExperimentPlan;
import io.perflab.runner.rpcbench.Workload;
import io.perflab.upload.UploadServer;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** The event stream of one experiment, as an open page reads it. */
class ExperimentEventStreamTests extends UploadServer {

    @Autowired
    ExperimentRepository store;

    /**
     * An experiment that ended before its page subscribed (the page subscribes while it runs) has no event to come:
     * its stream says its status at once and ends, so that the page shows the end; it stayed open for half an hour,
     * the page showing a run that was over.
     */
    @Test
    void aFinishedExperimentsStreamSaysItsStatusAndEnds() throws Exception {
        ExperimentPlan plan = ExperimentPlan.of(EngineVariant.of(Map.of("completion", "monitor"), Workload.DEFAULTS),
                EngineVariant.of(Map.of("completion", "notification"), Workload.DEFAULTS), 2);
        long id = StoredExperiments.insert(store, new ExperimentSpec("ended before its page subscribed", null,
                ExperimentKind.ENGINE, null, plan), ExperimentStatus.COMPLETED, "tester", Instant.now());

        HttpResponse<InputStream> stream = http.send(HttpRequest.newBuilder(URI.create(base()
                        + "/api/v1/experiments/" + id + "/events")).header("Accept", "text/event-stream").GET().build(),
                HttpResponse.BodyHandlers.ofInputStream());

        assertThat(stream.statusCode()).isEqualTo(200);
        ExecutorService reader = Executors.newSingleThreadExecutor();
        try (InputStream body = stream.body()) {
            // the whole stream, read until it ends: a stream left open fails here, not by hanging the suite
            Future<String> all = reader.submit(() -> new String(body.readAllBytes(), StandardCharsets.UTF_8));
            assertThat(all.get(15, TimeUnit.SECONDS))
                    .contains("event:status", "\"status\":\"COMPLETED\"", "\"experimentId\":" + id);
        } finally {
            reader.shutdownNow();
        }
    }
}
