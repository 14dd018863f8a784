package io.perflab.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.perflab.upload.UploadServer;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.databind.JsonNode;

/**
 * The experiments API end to end: real trial JVMs, on the server the upload tests share ({@link UploadServer}: one
 * Spring context for every class that needs the whole server).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ExperimentApiTests extends UploadServer {

    /** Short trials: the point here is the service, not the measurement. */
    static final Map<String, Object> SHORT_WORKLOAD = Map.of("warmupSeconds", 0.3, "runSeconds", 0.5,
            "clientThreads", 4);

    static final List<String> DESIGN_METRICS = List.of("reqs_per_sec", "user_cpu_us_per_req", "sys_cpu_us_per_req",
            "cpu_us_per_req", "ctx_switches_per_req", "voluntary_ctx_switches_per_req",
            "involuntary_ctx_switches_per_req", "alloc_bytes_per_req", "latency_p50_us", "latency_p99_us",
            "latency_p999_us", "gc_count", "gc_pause_ms");

    ApiClient api;

    @BeforeEach
    void client() {
        api = new ApiClient(port, ADMIN_TOKEN);
    }

    static Map<String, Object> presetRequest(String name, int runs) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("name", name);
        body.put("preset", "sync-completion");
        body.put("runsPerVariant", runs);
        body.put("workload", SHORT_WORKLOAD);
        return body;
    }

    private JsonNode awaitFinished(long id, Duration atMost) {
        await().atMost(atMost).pollInterval(Duration.ofMillis(500))
                .until(() -> Set.of("COMPLETED", "FAILED", "CANCELLED").contains(api.status(id)));
        try {
            return api.getJson("/api/v1/experiments/" + id);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The preset experiment and a second one submitted right behind it, once for the class: the preset test checks
     * the first, the queue test both. Every trial is a JVM start, so the two tests share these ten trials rather
     * than run fourteen of their own.
     */
    private Submitted submitted;

    private record Submitted(long preset, long queued, JsonNode queuedAtSubmission) {
    }

    private Submitted submittedTogether() throws Exception {
        if (submitted == null) {
            Map<String, Object> request = presetRequest("sync completion", 3);
            // flags of the allow-list reach the trial JVM of their variant only (JvmFlagRuleTests: the others never do)
            request.put("withJvmArgs", List.of("-XX:+UseCompressedOops", "-Dio.netty.leakDetection.level=disabled"));
            HttpResponse<String> created = api.post("/api/v1/experiments", request);
            assertThat(created.statusCode()).isEqualTo(202);
            assertThat(created.headers().firstValue("Location")).hasValueSatisfying(l -> assertThat(l)
                    .matches("http://localhost:\\d+/api/v1/experiments/\\d+"));
            long preset = api.read(created.body()).get("id").asLong();
            long queued = api.create(presetRequest("queue second", 2));
            submitted = new Submitted(preset, queued, api.getJson("/api/v1/experiments/" + queued));
        }
        return submitted;
    }

    /** Leaves the shared server idle for the next class, even when a test stopped before its experiments ended. */
    @AfterAll
    void awaitSubmittedExperiments() {
        if (submitted != null) {
            awaitFinished(submitted.preset(), Duration.ofMinutes(3));
            awaitFinished(submitted.queued(), Duration.ofMinutes(3));
        }
    }

    @Test
    void presetExperimentRunsToCompletionAndComparesEveryMetric() throws Exception {
        long id = submittedTogether().preset();

        JsonNode experiment = awaitFinished(id, Duration.ofMinutes(3));

        assertThat(experiment.get("status").asText()).as(experiment.toString()).isEqualTo("COMPLETED");
        assertThat(experiment.get("progress").get("completedRuns").asInt()).isEqualTo(6);
        assertThat(experiment.get("progress").get("failedRuns").asInt()).isZero();
        assertThat(experiment.get("optionDiff").get("completion").get("without").asText()).isEqualTo("condvar");
        assertThat(experiment.get("optionDiff").get("completion").get("with").asText()).isEqualTo("futex");
        Set<String> compared = new HashSet<>();
        for (JsonNode metric : experiment.get("results")) {
            compared.add(metric.get("metric").asText());
            assertThat(metric.get("nWith").asInt()).isEqualTo(3);
            assertThat(metric.get("nWithout").asInt()).isEqualTo(3);
            assertThat(metric.get("verdict").asText()).isIn("improved", "regressed", "unchanged", "inconclusive");
        }
        assertThat(compared).containsAll(DESIGN_METRICS);
        JsonNode cpu = experiment.get("results").get(0);
        assertThat(cpu.get("metric").asText()).isEqualTo("user_cpu_us_per_req");
        assertThat(cpu.get("pValue").isNumber()).isTrue();
        assertThat(cpu.get("holmPValue").asDouble()).isGreaterThanOrEqualTo(cpu.get("pValue").asDouble());

        JsonNode samples = api.getJson("/api/v1/experiments/" + id + "/samples");
        Set<Integer> ordinals = new HashSet<>();
        Map<Integer, String> variantOf = new LinkedHashMap<>();
        for (JsonNode s : samples) {
            ordinals.add(s.get("ordinal").asInt());
            variantOf.put(s.get("ordinal").asInt(), s.get("variant").asText());
        }
        assertThat(ordinals).containsExactlyInAnyOrder(0, 1, 2, 3, 4, 5);
        // interleaved: without, with, without, …
        assertThat(variantOf.get(0)).isEqualTo("without");
        assertThat(variantOf.get(1)).isEqualTo("with");
        assertThat(samples.size()).isGreaterThanOrEqualTo(6 * DESIGN_METRICS.size());

        HttpResponse<String> csv = api.get("/api/v1/experiments/" + id + "/samples", "text/csv");
        assertThat(csv.statusCode()).isEqualTo(200);
        List<String> lines = csv.body().lines().toList();
        assertThat(lines.get(0)).isEqualTo("experiment,variant,run,metric,value,unit,status,cpu_split");
        assertThat(lines).hasSize(samples.size() + 1);
        assertThat(lines).anySatisfy(l -> assertThat(l).startsWith(id + ",with,").contains(",user_cpu_us_per_req,"));

        Set<Long> pids = new HashSet<>(jdbc.sql("SELECT pid FROM trial_run WHERE experiment_id = ?").param(id)
                .query(Long.class).list());
        assertThat(pids).as("each trial in its own JVM").hasSize(6);
        assertThat(jdbc.sql("SELECT environment FROM trial_run WHERE experiment_id = ? AND variant = 'with'")
                .param(id).query(String.class).list()).hasSize(3).allSatisfy(env -> assertThat(env)
                        .contains("-XX:+UseCompressedOops").contains("-Dio.netty.leakDetection.level=disabled"));
        assertThat(jdbc.sql("SELECT environment FROM trial_run WHERE experiment_id = ? AND variant = 'without'")
                .param(id).query(String.class).list()).noneSatisfy(env -> assertThat(env)
                        .contains("UseCompressedOops"));
        // the operator's fixed flags (perflab.trials.jvm-args, set light for the test suite) replace the defaults
        assertThat(jdbc.sql("SELECT environment FROM trial_run WHERE experiment_id = ?").param(id)
                .query(String.class).list()).hasSize(6).allSatisfy(env -> assertThat(env)
                        .contains("-XX:TieredStopAtLevel=1").doesNotContain("-Xbatch")
                        .doesNotContain("AlwaysPreTouch"));
    }

    @Test
    void experimentsSubmittedTogetherRunOneAfterAnother() throws Exception {
        long first = submittedTogether().preset();
        long second = submittedTogether().queued();

        JsonNode queued = submittedTogether().queuedAtSubmission();
        if (queued.get("status").asText().equals("QUEUED")) {
            assertThat(queued.get("queuePosition").asLong()).isGreaterThanOrEqualTo(1);
        }
        awaitFinished(first, Duration.ofMinutes(3));
        awaitFinished(second, Duration.ofMinutes(3));

        List<Instant[]> firstRanges = ranges(first);
        List<Instant[]> secondRanges = ranges(second);
        assertThat(firstRanges).hasSize(6);
        assertThat(secondRanges).hasSize(4);
        Instant firstEnd = firstRanges.stream().map(r -> r[1]).max(Instant::compareTo).orElseThrow();
        Instant secondStart = secondRanges.stream().map(r -> r[0]).min(Instant::compareTo).orElseThrow();
        assertThat(secondStart).as("the second experiment starts after the first one's last trial")
                .isAfterOrEqualTo(firstEnd);
        for (List<Instant[]> ranges : List.of(firstRanges, secondRanges)) {
            for (int i = 1; i < ranges.size(); i++) {
                assertThat(ranges.get(i)[0]).isAfterOrEqualTo(ranges.get(i - 1)[1]);
            }
        }
    }

    private List<Instant[]> ranges(long experimentId) {
        return jdbc.sql("SELECT started_at, finished_at FROM trial_run WHERE experiment_id = ? ORDER BY started_at")
                .param(experimentId)
                .query((rs, n) -> new Instant[] {ExperimentRepository.instant(rs, "started_at"),
                        ExperimentRepository.instant(rs, "finished_at")})
                .list();
    }

    @Test
    void badInputIsRejectedNamingTheFieldAndNothingIsQueued() throws Exception {
        long before = experimentCount();
        Map<String, String> cases = new LinkedHashMap<>();
        cases.put("{\"name\":\"x\",\"preset\":\"sync-completion\",\"runsPerVariant\":1}", "runsPerVariant");
        cases.put("{\"name\":\"x\",\"preset\":\"sync-completion\",\"runsPerVariant\":5000}", "runsPerVariant");
        cases.put("{\"name\":\"x\",\"preset\":\"sync-completion\",\"workload\":{\"runSeconds\":-2}}",
                "workload.runSeconds");
        cases.put("{\"name\":\"x\",\"preset\":\"sync-completion\",\"workload\":{\"runSeconds\":0.0001}}",
                "workload.runSeconds: must be greater than or equal to 0.1, got 0.0001");
        cases.put("{\"name\":\"x\",\"preset\":\"nope\"}", "preset");
        cases.put("{\"name\":\"x\",\"without\":{\"completion\":\"monitor\"},\"with\":{\"colour\":\"red\"}}",
                "with: unknown engine option 'colour'");
        cases.put("{\"name\":\"x\",\"without\":{\"completion\":\"monitor\"},\"with\":{\"completion\":\"soon\"}}",
                "with:");
        cases.put("{\"name\":\"x\",\"without\":{\"allocator\":\"pooled\"},\"with\":{\"allocator\":\"pooled\"}}",
                "identical");
        cases.put("{\"name\":\"x\",\"preset\":\"sync-completion\",\"order\":\"zigzag\"}", "order");
        cases.put("{\"preset\":\"sync-completion\"}", "name");
        cases.put("{\"name\":\"x\",\"preset\":\"sync-completion\",", "line 1, column");
        for (Map.Entry<String, String> c : cases.entrySet()) {
            HttpResponse<String> response = api.post("/api/v1/experiments", c.getKey());
            assertThat(response.statusCode()).as(c.getKey()).isEqualTo(400);
            assertThat(response.headers().firstValue("Content-Type").orElseThrow())
                    .startsWith("application/problem+json");
            assertThat(api.read(response.body()).get("detail").asText()).as(c.getKey()).contains(c.getValue());
        }
        HttpResponse<String> command = api.post("/api/v1/experiments", Map.of("name", "c", "kind", "command",
                "withoutCommand", "true", "withCommand", "false"));
        assertThat(command.statusCode()).isEqualTo(403);
        assertThat(command.body()).contains("perflab.commands.enabled");
        assertThat(jdbc.sql("SELECT runs_commands FROM agent WHERE built_in").query(Boolean.class).list())
                .as("where commands are off, the built-in agent claims no command experiment queued before")
                .containsOnly(false);

        assertThat(experimentCount()).isEqualTo(before);
    }

    @Test
    void unknownExperimentIs404AndFinishedOnesCannotBeCancelled() throws Exception {
        HttpResponse<String> missing = api.get("/api/v1/experiments/999999", "application/json");
        assertThat(missing.statusCode()).isEqualTo(404);
        assertThat(missing.body()).contains("no experiment with id 999999");

        HttpResponse<String> cancel = api.post("/api/v1/experiments/999999/cancel", "");
        assertThat(cancel.statusCode()).isEqualTo(404);
    }

    @Test
    void listFiltersAndPages() throws Exception {
        HttpResponse<String> badStatus = api.get("/api/v1/experiments?status=sleeping", "application/json");
        assertThat(badStatus.statusCode()).isEqualTo(400);
        assertThat(badStatus.body()).contains("status", "completed");
        HttpResponse<String> badSize = api.get("/api/v1/experiments?size=100000", "application/json");
        assertThat(badSize.statusCode()).isEqualTo(400);

        JsonNode page = api.getJson("/api/v1/experiments?size=5&name=no-such-name-at-all");
        assertThat(page.get("total").asLong()).isZero();
        assertThat(page.get("items").size()).isZero();
    }

    private long experimentCount() {
        return jdbc.sql("SELECT COUNT(*) FROM experiment").query(Long.class).single();
    }
}
