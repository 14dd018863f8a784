package io.perflab.load;

import io.perflab.experiment.ExperimentKind;
import io.perflab.experiment.ExperimentSpec;
import io.perflab.experiment.ExperimentStatus;
import io.perflab.experiment.ExperimentRepository;
import io.perflab.experiment.StoredExperiments;
import io.perflab.runner.experiment.EngineVariant;
import io.perflab.runner.experiment.ExperimentPlan;
import io.perflab.runner.rpcbench.Workload;
import java.sql.ResultSet;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.springframework.context.ApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Fills the database with finished engine experiments as the runner would leave them, without running trials:
 * the experiment and its variants through {@link ExperimentRepository#insert}, then its runs (interleaved
 * without/with) and their samples in two batches. Several experiments share a transaction, so seeding 1,000
 * experiments of 80 runs × 12 metrics takes seconds, not the 80,000 commits that {@code saveRun} would make.
 */
final class ExperimentSeeder {

    /** The twelve metrics of every seeded run: the headline ones first, as a real trial reports them. */
    static final List<String> METRICS = List.of("user_cpu_us_per_req", "sys_cpu_us_per_req", "ctx_switches_per_req",
            "reqs_per_sec", "cpu_us_per_req", "voluntary_ctx_switches_per_req", "involuntary_ctx_switches_per_req",
            "latency_p50_us", "latency_p99_us", "latency_p999_us", "alloc_bytes_per_req", "gc_count");

    private static final int EXPERIMENTS_PER_TRANSACTION = 10;

    private final ExperimentRepository store;
    private final JdbcTemplate jdbc;
    private final TransactionTemplate transactions;

    ExperimentSeeder(ApplicationContext context) {
        this.store = context.getBean(ExperimentRepository.class);
        this.jdbc = context.getBean(JdbcTemplate.class);
        this.transactions = new TransactionTemplate(context.getBean(PlatformTransactionManager.class));
    }

    /** Stores {@code count} completed experiments of {@code runsPerVariant} × 2 runs; returns their ids. */
    List<Long> seed(int count, int runsPerVariant, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        List<Long> ids = new ArrayList<>();
        for (int done = 0; done < count; done += EXPERIMENTS_PER_TRANSACTION) {
            int batch = Math.min(EXPERIMENTS_PER_TRANSACTION, count - done);
            int first = done;
            transactions.executeWithoutResult(status -> {
                for (int i = 0; i < batch; i++) {
                    ids.add(seedOne(first + i, runsPerVariant, random.split()));
                }
            });
        }
        // as after any bulk load (PostgreSQL's manual, "Populating a Database"): without fresh statistics the planner
        // joins a million sample rows by scanning them until autovacuum gets round to the tables, minutes later
        if (postgres()) {
            jdbc.execute("ANALYZE");
        }
        return ids;
    }

    private boolean postgres() {
        return Boolean.TRUE.equals(jdbc.execute((java.sql.Connection c) ->
                c.getMetaData().getDatabaseProductName().equalsIgnoreCase("PostgreSQL")));
    }

    private long seedOne(int index, int runsPerVariant, SplittableRandom random) {
        Instant created = Instant.parse("2025-01-01T00:00:00Z").plusSeconds(3600L * index);
        EngineVariant without = EngineVariant.of(Map.of("completion", "monitor"), Workload.DEFAULTS);
        EngineVariant with = EngineVariant.of(Map.of("completion", "notification"), Workload.DEFAULTS);
        ExperimentPlan plan = ExperimentPlan.of(without, with, runsPerVariant);
        long id = StoredExperiments.insert(store, new ExperimentSpec("seeded experiment " + index,
                "load benchmark data", ExperimentKind.ENGINE, null, plan), ExperimentStatus.COMPLETED, "load", created);

        int runs = 2 * runsPerVariant;
        List<Object[]> runRows = new ArrayList<>(runs);
        String environment = "{\"engine_options\":\"completion=monitor\",\"workload\":\"mode=sync clientThreads=16\","
                + "\"warmup_seconds\":\"5.0\",\"java_version\":\"17.0.12\",\"os\":\"Linux 6.8 amd64\","
                + "\"cpus\":\"2\",\"heap\":\"-Xms512m -Xmx512m\"}";
        for (int ordinal = 0; ordinal < runs; ordinal++) {
            Instant start = created.plusSeconds(10L * ordinal);
            runRows.add(new Object[] {id, ordinal % 2 == 0 ? "without" : "with", ordinal,
                    start.atOffset(ZoneOffset.UTC), start.plusSeconds(9).atOffset(ZoneOffset.UTC),
                    10_000L + ordinal, environment});
        }
        jdbc.batchUpdate("""
                INSERT INTO trial_run (experiment_id, variant, ordinal, status, started_at, finished_at, pid,
                    environment)
                VALUES (?, ?, ?, 'OK', ?, ?, ?, ?)""", runRows);
        Map<Integer, Long> runIds = new HashMap<>();
        jdbc.query("SELECT ordinal, id FROM trial_run WHERE experiment_id = ?",
                (ResultSet rs) -> {
                    runIds.put(rs.getInt(1), rs.getLong(2));
                }, id);
        List<Object[]> sampleRows = new ArrayList<>(runs * METRICS.size());
        for (int ordinal = 0; ordinal < runs; ordinal++) {
            boolean isWith = ordinal % 2 == 1;
            for (int m = 0; m < METRICS.size(); m++) {
                double base = 10.0 * (m + 1);
                double shift = isWith ? -0.02 * base * (index % 3) : 0;
                double value = base + shift + base * 0.01 * gaussian(random);
                if (METRICS.get(m).equals("gc_count")) {
                    value = Math.max(0, Math.round(value / 10));
                }
                sampleRows.add(new Object[] {runIds.get(ordinal), METRICS.get(m), value});
            }
        }
        jdbc.batchUpdate("INSERT INTO sample (run_id, metric_key, metric_value) VALUES (?, ?, ?)", sampleRows);
        Instant finished = created.plusSeconds(10L * runs);
        jdbc.update("UPDATE experiment SET started_at = ?, finished_at = ?, data_version = ? WHERE id = ?",
                created.atOffset(ZoneOffset.UTC), finished.atOffset(ZoneOffset.UTC), runs, id);
        return id;
    }

    private static double gaussian(SplittableRandom random) {
        return Math.sqrt(-2 * Math.log(1 - random.nextDouble())) * Math.cos(2 * Math.PI * random.nextDouble());
    }
}
