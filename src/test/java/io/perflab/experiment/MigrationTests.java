package io.perflab.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import io.perflab.runner.experiment.EngineVariant;
import io.perflab.runner.rpcbench.CallMode;
import io.perflab.runner.rpcbench.Warmup;
import io.perflab.runner.rpcbench.Workload;
import java.time.Duration;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationVersion;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;
import tools.jackson.databind.json.JsonMapper;

/** A database made by the release before the typed workload opens with this one: migrations only add. */
class MigrationTests {

    @Test
    void anH2DatabaseOfThePreviousReleaseMigratesAndItsExperimentsStillRun() {
        SingleConnectionDataSource database = new SingleConnectionDataSource(
                "jdbc:h2:mem:previous-release;DB_CLOSE_DELAY=-1", "sa", "", true);
        Flyway.configure().dataSource(database).target(MigrationVersion.fromVersion("3")).load().migrate();
        JdbcClient jdbc = JdbcClient.create(database);
        // an experiment as the previous release stored it: its workload as the list of perflab bench flags
        jdbc.sql("""
                INSERT INTO experiment (id, name, kind, status, runs_per_variant, run_order, seed,
                    trial_timeout_seconds, max_failures, workload, created_at, data_version)
                VALUES (1, 'old', 'ENGINE', 'INTERRUPTED', 2, 'interleaved', 1, 120, 3, ?, CURRENT_TIMESTAMP, 0)""")
                .param("[\"--stack\",\"perflab\",\"--mode\",\"async\",\"--client-threads\",\"3\","
                        + "\"--async-concurrency\",\"60\",\"--worker-threads\",\"1\",\"--server-reactors\",\"4\","
                        + "\"--request-bytes\",\"0\",\"--response-bytes\",\"0\",\"--warmup-seconds\",\"auto:12\","
                        + "\"--run-seconds\",\"1.5\"]")
                .update();
        insertVariants(jdbc);

        Flyway.configure().dataSource(database).load().migrate();

        ExperimentRepository repository = new ExperimentRepository(jdbc, new JdbcTemplate(database),
                JsonMapper.builder().build());
        EngineVariant with = (EngineVariant) repository.plan(repository.find(1).orElseThrow()).with();
        assertThat(with.workload()).isEqualTo(Workload.DEFAULTS.withMode(CallMode.ASYNC).withClientThreads(3)
                .withWarmup(Warmup.auto(Duration.ofSeconds(12))).withRun(Duration.ofMillis(1500)));
        assertThat(with.engineOptions().completion().name()).isEqualTo("NOTIFICATION");
        assertThat(jdbc.sql("SELECT COUNT(*) FROM metric_definition WHERE metric_key = 'syscalls_per_req'")
                .query(Long.class).single()).isOne();
    }

    @Test
    void experimentsAndRunsStoredBeforeThePairedDesignsReadBackAsFreshOnes() {
        SingleConnectionDataSource database = new SingleConnectionDataSource(
                "jdbc:h2:mem:before-paired-designs;DB_CLOSE_DELAY=-1", "sa", "", true);
        Flyway.configure().dataSource(database).target(MigrationVersion.fromVersion("6")).load().migrate();
        JdbcClient jdbc = JdbcClient.create(database);
        jdbc.sql("""
                INSERT INTO experiment (id, name, kind, status, runs_per_variant, run_order, seed,
                    trial_timeout_seconds, max_failures, workload, created_at, data_version)
                VALUES (1, 'old', 'ENGINE', 'COMPLETED', 2, 'interleaved', 1, 120, 3, NULL, CURRENT_TIMESTAMP, 1)""")
                .update();
        insertVariants(jdbc);
        jdbc.sql("""
                INSERT INTO trial_run (id, experiment_id, variant, ordinal, status, environment)
                VALUES (1, 1, 'without', 0, 'OK', '{}')""").update();
        jdbc.sql("INSERT INTO sample (run_id, metric_key, metric_value) VALUES (1, 'cpu_us_per_req', 30.5)").update();

        Flyway.configure().dataSource(database).load().migrate();

        ExperimentRepository repository = new ExperimentRepository(jdbc, new JdbcTemplate(database),
                JsonMapper.builder().build());
        ExperimentRecord old = repository.find(1).orElseThrow();
        assertThat(old.design()).isEqualTo(io.perflab.runner.experiment.ExperimentDesign.FRESH);
        assertThat(old.windowsPerPair()).isEqualTo(1);
        assertThat(old.stopping()).isEqualTo(PairedStopping.NONE);
        assertThat(old.totalRuns()).isEqualTo(4);
        assertThat(repository.plan(old).design()).isEqualTo(io.perflab.runner.experiment.ExperimentDesign.FRESH);
        assertThat(repository.runs(1)).singleElement().satisfies(run -> {
            assertThat(run.pair()).isNull();
            assertThat(run.metrics()).containsEntry("cpu_us_per_req", 30.5);
        });
        assertThat(repository.storedPairs(1)).isEmpty();
    }

    /** Experiment 1's variants as every release stored them: monitor against notification completion. */
    private static void insertVariants(JdbcClient jdbc) {
        for (String side : new String[] {"without", "with"}) {
            jdbc.sql("INSERT INTO variant (experiment_id, name, options, jvm_args) VALUES (1, ?, ?, '[]')")
                    .params(side, side.equals("with") ? "{\"completion\":\"notification\"}"
                            : "{\"completion\":\"monitor\"}")
                    .update();
        }
    }
}
