package io.perflab.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.perflab.runner.experiment.CommandVariant;
import io.perflab.runner.experiment.EngineVariant;
import io.perflab.runner.experiment.ExperimentPlan;
import io.perflab.runner.rpcbench.Workload;
import io.perflab.runner.trial.TrialResult;
import io.perflab.runner.trial.TrialStatus;
import io.perflab.upload.UploadServer;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/**
 * The samples export ({@code /api/v1/experiments/{id}/samples}, JSON and CSV) gives what the page analysed and says
 * which values those are: every run's samples, failed runs' too, each with its run's status, and user and system CPU
 * on the split the comparison took.
 */
class SamplesExportTests extends UploadServer {

    static final Instant T0 = Instant.parse("2024-03-05T10:00:00Z");

    @Autowired
    ExperimentRepository store;

    /**
     * A command experiment of three runs a side whose last 'with' run exited with status 1 after measuring 500 ms of
     * CPU, five times what the others measured: a failed command keeps its figures.
     */
    private long commandWithAFailedRun() {
        ExperimentPlan plan = ExperimentPlan.of(new CommandVariant("sleep 0.1"), new CommandVariant("sleep 0.09"), 3);
        long id = StoredExperiments.insert(store, new ExperimentSpec("a failed command", null, ExperimentKind.COMMAND,
                null, plan), ExperimentStatus.COMPLETED, "tester", T0);
        double[] noise = {0.5, -0.3, 0.1};
        for (int ordinal = 0; ordinal < 6; ordinal++) {
            boolean with = ordinal % 2 == 1;
            boolean failed = ordinal == 5;
            Instant start = T0.plusSeconds(10L * ordinal);
            store.saveRun(id, new TrialResult(with ? "with" : "without", ordinal,
                    failed ? TrialStatus.FAILED : TrialStatus.OK, start, start.plusSeconds(1), 100 + ordinal,
                    Map.of("cpu_ms", failed ? 500.0 : (with ? 90.0 : 100.0) + noise[ordinal / 2],
                            "wall_ms", 110.0 + noise[ordinal / 2]), Map.of(),
                    failed ? "command exited with status 1" : null));
        }
        return id;
    }

    /**
     * A fresh engine experiment of three trials a side: 'with' sampled the CPU split, 3 µs of user CPU above its tick
     * split, 'without' had the tick split only; the comparison takes every trial's tick split.
     */
    private long mixedSplit() {
        ExperimentPlan plan = ExperimentPlan.of(EngineVariant.of(Map.of("completion", "monitor"), Workload.DEFAULTS),
                EngineVariant.of(Map.of("completion", "notification"), Workload.DEFAULTS), 3);
        long id = StoredExperiments.insert(store, new ExperimentSpec("mixed split export", null, ExperimentKind.ENGINE,
                null, plan), ExperimentStatus.COMPLETED, "tester", T0);
        double[] noise = {0.1, -0.2, 0.3};
        for (int ordinal = 0; ordinal < 6; ordinal++) {
            boolean with = ordinal % 2 == 1;
            double tick = (with ? 17.0 : 18.0) + noise[ordinal / 2];
            Map<String, String> environment = new LinkedHashMap<>();
            environment.put("cpu_split_source", with ? "sampled" : "tick");
            if (with) {
                environment.put("tick_user_cpu_us_per_req", Double.toString(tick));
                environment.put("tick_sys_cpu_us_per_req", Double.toString(40.0 - noise[ordinal / 2]));
            }
            Instant start = T0.plusSeconds(60L * ordinal);
            store.saveRun(id, new TrialResult(with ? "with" : "without", ordinal, TrialStatus.OK, start,
                    start.plusSeconds(50), 1000 + ordinal, Map.of("user_cpu_us_per_req", with ? tick + 3 : tick,
                            "sys_cpu_us_per_req", 40.0 + noise[ordinal / 2], "reqs_per_sec", 50_000.0),
                    environment, null));
        }
        return id;
    }

    @Test
    void aFailedRunsSamplesCarryItsStatusAndTheOkRunsGiveThePagesMeans() throws Exception {
        long id = commandWithAFailedRun();

        JsonNode rows = json.readTree(get("/api/v1/experiments/" + id + "/samples").body());
        List<JsonNode> failed = new ArrayList<>();
        List<Double> okWith = new ArrayList<>();
        for (JsonNode row : rows) {
            if (row.get("ordinal").asInt() == 5) {
                failed.add(row);
            } else if (row.get("metric").asString().equals("cpu_ms") && row.get("variant").asString().equals("with")) {
                assertThat(row.get("status").asString()).isEqualTo("OK");
                okWith.add(row.get("value").asDouble());
            }
        }
        assertThat(failed).as("the failed run's samples are exported").hasSize(2)
                .allSatisfy(row -> assertThat(row.get("status").asString()).isEqualTo("FAILED"));
        JsonNode cpu = result(id, "cpu_ms");
        assertThat(cpu.get("nWith").asInt()).isEqualTo(2);
        assertThat(okWith.stream().mapToDouble(Double::doubleValue).average().orElseThrow())
                .isCloseTo(cpu.get("meanWith").asDouble(), within(1e-9));

        List<String> csv = csv(id);
        assertThat(csv.get(0)).isEqualTo("experiment,variant,run,metric,value,unit,status,cpu_split");
        assertThat(csv).hasSize(rows.size() + 1)
                .anySatisfy(line -> assertThat(line).startsWith(id + ",with,5,cpu_ms,500.0,").endsWith(",FAILED,"))
                .anySatisfy(line -> assertThat(line).startsWith(id + ",without,0,cpu_ms,100.5,").endsWith(",OK,"));
    }

    @Test
    void userAndSystemCpuAreExportedOnTheSplitTheComparisonTook() throws Exception {
        long id = mixedSplit();

        Map<String, List<Double>> userCpu = new LinkedHashMap<>();
        for (JsonNode row : json.readTree(get("/api/v1/experiments/" + id + "/samples").body())) {
            String metric = row.get("metric").asString();
            if (metric.equals("reqs_per_sec")) {
                assertThat(row.has("cpuSplit")).as("only user and system CPU have a split").isFalse();
                continue;
            }
            assertThat(row.get("cpuSplit").asString()).as(metric + " of run " + row.get("ordinal")).isEqualTo("tick");
            if (metric.equals("user_cpu_us_per_req")) {
                userCpu.computeIfAbsent(row.get("variant").asString(), v -> new ArrayList<>())
                        .add(row.get("value").asDouble());
            }
        }
        assertThat(userCpu.get("with")).as("the tick split").containsExactly(17.0 + 0.1, 17.0 - 0.2, 17.0 + 0.3);
        JsonNode user = result(id, "user_cpu_us_per_req");
        assertThat(userCpu.get("with").stream().mapToDouble(Double::doubleValue).average().orElseThrow())
                .isCloseTo(user.get("meanWith").asDouble(), within(1e-9));

        assertThat(csv(id)).contains(id + ",with,1,user_cpu_us_per_req," + (17.0 + 0.1) + ",us,OK,tick",
                id + ",with,1,sys_cpu_us_per_req," + (40.0 - 0.1) + ",us,OK,tick",
                id + ",without,0,reqs_per_sec,50000.0,req/s,OK,");
    }

    /** The comparison of {@code metric} as the API gives it. */
    private JsonNode result(long id, String metric) throws Exception {
        for (JsonNode c : json.readTree(get("/api/v1/experiments/" + id).body()).get("results")) {
            if (c.get("metric").asString().equals(metric)) {
                return c;
            }
        }
        throw new AssertionError("no result for " + metric);
    }

    private List<String> csv(long id) throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(base() + "/api/v1/experiments/"
                + id + "/samples")).header("Accept", "text/csv").GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        return response.body().lines().toList();
    }
}
