package io.perflab.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import db.migration.V4__Workload_as_json_object;
import io.perflab.rpc.EngineOptions;
import io.perflab.runner.experiment.EngineVariant;
import io.perflab.runner.experiment.ExperimentPlan;
import io.perflab.runner.experiment.TrialOrder;
import io.perflab.runner.experiment.VariantName;
import io.perflab.runner.json.RunnerJson;
import io.perflab.runner.rpcbench.CallMode;
import io.perflab.runner.rpcbench.Warmup;
import io.perflab.runner.rpcbench.Workload;
import io.perflab.runner.rpcbench.WorkloadSettings;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.data.jdbc.test.autoconfigure.DataJdbcTest;
import org.springframework.boot.jdbc.test.autoconfigure.AutoConfigureTestDatabase;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.json.JsonMapper;

/**
 * The experiment aggregate against the real schema, without the web layer: Flyway's migrations on the embedded H2
 * (this class) and on a real PostgreSQL ({@link ExperimentRepositoryPostgresTests}).
 */
@DataJdbcTest(properties = "spring.datasource.url=jdbc:h2:mem:repository-tests;DB_CLOSE_DELAY=-1")
@AutoConfigureTestDatabase(replace = AutoConfigureTestDatabase.Replace.NONE)
@Import({ExperimentRepository.class, ExperimentRepositoryTests.Json.class})
class ExperimentRepositoryTests {

    @TestConfiguration
    static class Json {
        @Bean
        JsonMapper jsonMapper() {
            return JsonMapper.builder().build();
        }
    }

    @Autowired
    ExperimentRepository repository;

    @Autowired
    JdbcClient jdbc;

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    @Test
    void anEngineExperimentsPlanReadsBackAsItWasQueued() {
        Workload workload = Workload.DEFAULTS.withMode(CallMode.ASYNC).withClientThreads(3)
                .withWarmup(Warmup.auto(Duration.ofSeconds(12))).withRun(Duration.ofMillis(1500)).withPayload(0, 2048);
        ExperimentPlan plan = ExperimentPlan.of(
                        EngineVariant.of(EngineOptions.defaults().withOption("completion", "monitor"), workload),
                        EngineVariant.of(EngineOptions.defaults(), workload).withJvmArgs(List.of("-Xbatch")), 4)
                .withOrder(TrialOrder.RANDOMIZED).withSeed(7);
        long id = repository.insert(new ExperimentSpec("round trip", null, ExperimentKind.ENGINE, null, plan),
                ExperimentStatus.QUEUED, "tester", T0);

        ExperimentPlan read = repository.plan(repository.find(id).orElseThrow());

        assertThat(read.without()).isEqualTo(plan.without());
        assertThat(read.with()).isEqualTo(plan.with());
        assertThat(read.order()).isEqualTo(TrialOrder.RANDOMIZED);
        assertThat(read.seed()).isEqualTo(7);
        assertThat(repository.nextQueued()).contains(id);
    }

    @Test
    void aRecordedExperimentIsStoredWholeWithItsRunsAndUnits() {
        RecordedExperiment upload = new RecordedExperiment("parser @ abc", "parser", "ci", T0,
                new SourceRevision("repo", "main", "abc", null, null, T0), Map.of("goos", "linux"), List.of("nightly"),
                Map.of(VariantName.WITH, "feature"), Map.of("ns_per_op",
                        new MetricDefinition("ns_per_op", "ns", false, 0, "")),
                List.of(new RecordedExperiment.Run(VariantName.WITHOUT, 0, Map.of("ns_per_op", 12.0)),
                        new RecordedExperiment.Run(VariantName.WITH, 1, Map.of("ns_per_op", 11.0)),
                        new RecordedExperiment.Run(VariantName.WITH, 2, Map.of("ns_per_op", 11.5))));

        ExperimentRepository.Recorded stored = repository.insert(upload);

        ExperimentRecord record = repository.find(stored.id()).orElseThrow();
        assertThat(record.kind()).isEqualTo(ExperimentKind.UPLOAD);
        assertThat(record.status()).isEqualTo(ExperimentStatus.COMPLETED);
        assertThat(record.runsPerVariant()).isEqualTo(2);
        assertThat(repository.runs(stored.id())).extracting(RunRecord::variant, r -> r.metrics().get("ns_per_op"))
                .containsExactly(org.assertj.core.groups.Tuple.tuple("without", 12.0),
                        org.assertj.core.groups.Tuple.tuple("with", 11.0),
                        org.assertj.core.groups.Tuple.tuple("with", 11.5));
        assertThat(repository.variants(stored.id()).get("with").label()).isEqualTo("feature");
        assertThat(repository.metricDefinitions(stored.id()).get("ns_per_op").unit()).isEqualTo("ns");
        assertThat(stored.runs()).hasSize(3);
    }

    @Test
    void aWorkloadStoredAsFlagsByEarlierReleasesReadsBackTheSame() {
        // what releases before the typed workload stored: Workload.toArguments() of that time
        List<String> legacy = List.of("--stack", "perflab", "--mode", "async", "--client-threads", "3",
                "--async-concurrency", "60", "--worker-threads", "1", "--server-reactors", "4", "--request-bytes",
                "0", "--response-bytes", "2048", "--warmup-seconds", "auto:12", "--run-seconds", "1.5",
                "--encryption");

        String converted = JsonMapper.builder().build().writeValueAsString(
                V4__Workload_as_json_object.toObject(JsonMapper.builder().build(), legacy));
        Workload read = RunnerJson.mapper().readValue(converted, WorkloadSettings.class).applyTo(Workload.DEFAULTS);

        assertThat(read).isEqualTo(Workload.DEFAULTS.withMode(CallMode.ASYNC).withClientThreads(3)
                .withPayload(0, 2048).withWarmup(Warmup.auto(Duration.ofSeconds(12))).withRun(Duration.ofMillis(1500))
                .withEncryption(true));
    }
}
