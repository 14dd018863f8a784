package io.perflab.report;

import io.perflab.experiment.ExperimentKind;
import io.perflab.experiment.ExperimentSpec;
import io.perflab.experiment.ExperimentStatus;
import io.perflab.experiment.ExperimentRepository;
import io.perflab.experiment.StoredExperiments;
import io.perflab.runner.experiment.EngineVariant;
import io.perflab.runner.experiment.ExperimentPlan;
import io.perflab.runner.rpcbench.Workload;
import io.perflab.runner.trial.TrialResult;
import io.perflab.runner.trial.TrialStatus;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.json.JsonMapper;

/**
 * Experiments written straight into the store with made-up samples — no trial JVMs — shaped like the seed's
 * sync-completion change: user CPU and context switches drop, system CPU stays put.
 */
final class ReportFixtures {

    static final Instant T0 = Instant.parse("2024-03-05T10:00:00Z");

    private ReportFixtures() {
    }

    /** Options and environment values for one experiment; every string may be hostile. */
    record Shape(String name, String description, Map<String, String> without, Map<String, String> with,
                 String metricName, String hostName, String failedRunError) {

        static Shape seedLike(String name) {
            return new Shape(name, "Notification instead of a monitor latch for sync calls",
                    Map.of("completion", "monitor", "allocator", "pooled"),
                    Map.of("completion", "notification", "allocator", "pooled"), null, "bench-host-1",
                    "trial JVM exited with code 137 (killed)");
        }
    }

    /**
     * Stores a completed experiment with {@code runsPerVariant} interleaved runs per variant, of which the last
     * {@code without} run failed; returns its id. The variants' stored options are the shape's as they are: the
     * API refuses unknown or malformed options, but what is stored is shown however it got there.
     */
    static long store(ExperimentRepository store, JdbcClient jdbc, Shape shape, int runsPerVariant) {
        ExperimentPlan plan = ExperimentPlan.of(EngineVariant.of(Map.of("completion", "monitor"), Workload.DEFAULTS),
                EngineVariant.of(Map.of("completion", "notification"), Workload.DEFAULTS), runsPerVariant);
        long id = StoredExperiments.insert(store, new ExperimentSpec(shape.name(), shape.description(),
                ExperimentKind.ENGINE, null, plan), ExperimentStatus.COMPLETED, "tester", T0);
        JsonMapper json = JsonMapper.builder().build();
        jdbc.sql("UPDATE variant SET options = ? WHERE experiment_id = ? AND name = 'without'")
                .params(json.writeValueAsString(shape.without()), id).update();
        jdbc.sql("UPDATE variant SET options = ? WHERE experiment_id = ? AND name = 'with'")
                .params(json.writeValueAsString(shape.with()), id).update();
        Random random = new Random(42);
        int failed = 2 * runsPerVariant - 2;
        for (int ordinal = 0; ordinal < 2 * runsPerVariant; ordinal++) {
            boolean with = ordinal % 2 == 1;
            if (ordinal == failed) {
                Instant start = T0.plusSeconds(60L * ordinal);
                store.saveRun(id, new TrialResult("without", ordinal, TrialStatus.FAILED, start, start.plusSeconds(3),
                        9999, Map.of(), Map.of("host", shape.hostName()), shape.failedRunError()));
                continue;
            }
            Map<String, Double> metrics = new LinkedHashMap<>();
            metrics.put("user_cpu_us_per_req", (with ? 16.97 : 18.15) + random.nextGaussian() * 0.9);
            metrics.put("sys_cpu_us_per_req", 41.07 + random.nextGaussian() * 1.2);
            metrics.put("ctx_switches_per_req", (with ? 3.551 : 3.621) + random.nextGaussian() * 0.03);
            metrics.put("reqs_per_sec", (with ? 52_000 : 50_000) + random.nextGaussian() * 900);
            metrics.put("latency_p99_us", 410 + random.nextGaussian() * 25);
            metrics.put("alloc_bytes_per_req", (with ? 1_480 : 1_520) + random.nextGaussian() * 30);
            if (shape.metricName() != null) {
                metrics.put(shape.metricName(), 10 + random.nextGaussian());
            }
            Map<String, String> environment = new LinkedHashMap<>();
            environment.put("jvm_version", "Eclipse Adoptium OpenJDK 64-Bit Server VM 17.0.10+7");
            environment.put("host", shape.hostName());
            environment.put("cpu_count", "2");
            environment.put("load_average", String.format(java.util.Locale.ROOT, "%.2f", 0.5 + ordinal * 0.01));
            Instant start = T0.plusSeconds(60L * ordinal);
            store.saveRun(id, new TrialResult(with ? "with" : "without", ordinal, TrialStatus.OK, start,
                    start.plusSeconds(50), 1000 + ordinal, metrics, environment, null));
        }
        return id;
    }
}
