package io.perflab.history;

import static org.assertj.core.api.Assertions.assertThat;

import io.perflab.experiment.ExperimentFilter;
import io.perflab.experiment.ExperimentKind;
import io.perflab.experiment.ExperimentRecord;
import io.perflab.experiment.ExperimentRepository;
import io.perflab.experiment.ExperimentSpec;
import io.perflab.experiment.ExperimentStatus;
import io.perflab.experiment.MetricDefinition;
import io.perflab.experiment.RecordedExperiment;
import io.perflab.experiment.SourceRevision;
import io.perflab.experiment.StoredExperiments;
import io.perflab.rpc.EngineOptions;
import io.perflab.runner.experiment.EngineVariant;
import io.perflab.runner.experiment.ExperimentPlan;
import io.perflab.runner.experiment.VariantName;
import io.perflab.runner.rpcbench.Workload;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.data.jdbc.test.autoconfigure.DataJdbcTest;
import org.springframework.boot.jdbc.test.autoconfigure.AutoConfigureTestDatabase;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import tools.jackson.databind.json.JsonMapper;

/**
 * The name filters of the experiments list and of the benchmarks list find a name typed in any case of its letters,
 * on the embedded H2 (this class), on PostgreSQL ({@link NameFilterPostgresTests}) and on a PostgreSQL database in
 * the C locale ({@link NameFilterCLocalePostgresTests}), whose {@code LOWER} knows the case of ASCII letters only.
 */
@DataJdbcTest(properties = "spring.datasource.url=jdbc:h2:mem:name-filter-tests;DB_CLOSE_DELAY=-1")
@AutoConfigureTestDatabase(replace = AutoConfigureTestDatabase.Replace.NONE)
@Import({ExperimentRepository.class, HistoryRepository.class, NameFilterTests.Json.class})
class NameFilterTests {

    @TestConfiguration
    static class Json {
        @Bean
        JsonMapper jsonMapper() {
            return JsonMapper.builder().build();
        }
    }

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    @Autowired
    ExperimentRepository experiments;

    @Autowired
    HistoryRepository history;

    @BeforeEach
    void storeNamesWithLettersBeyondAscii() {
        upload("Ölfass-Straße 100%");
        upload("Olfass-Strasse 100x");
        Workload workload = Workload.DEFAULTS.withRun(Duration.ofMillis(300));
        ExperimentPlan plan = ExperimentPlan.of(EngineVariant.of(EngineOptions.defaults(), workload),
                EngineVariant.of(EngineOptions.defaults().withOption("completion", "monitor"), workload), 2);
        StoredExperiments.insert(experiments, new ExperimentSpec("Ölfass-İzmir run", null, ExperimentKind.ENGINE, null,
                plan), ExperimentStatus.COMPLETED, "tester", T0);
    }

    private void upload(String benchmark) {
        experiments.insert(new RecordedExperiment(benchmark + " @ abc", benchmark, "ci", T0,
                new SourceRevision(null, "main", "abc", null, null, T0), Map.of(), List.of(), Map.of(),
                Map.of("t", new MetricDefinition("t", "ns", false, 0, "")),
                List.of(new RecordedExperiment.Run(VariantName.WITH, 0, Map.of("t", 1.0)))));
    }

    @Test
    void aNameIsFoundByItsLettersInEitherCase() {
        // 'ö' typed for 'Ö': a database in the C locale lower-cased neither, and found nothing
        assertThat(experimentNames("ölfass")).containsExactlyInAnyOrder("Ölfass-Straße 100% @ abc",
                "Ölfass-İzmir run");
        assertThat(benchmarkNames("ölfass")).containsExactly("Ölfass-Straße 100%");
        assertThat(experimentNames("ÖLFASS-İZMIR")).containsExactly("Ölfass-İzmir run");
        assertThat(experimentNames("OLFASS")).containsExactly("Olfass-Strasse 100x @ abc");
        assertThat(benchmarkNames("OLFASS")).containsExactly("Olfass-Strasse 100x");
    }

    @Test
    void aSharpSIsFoundAsTheDoubleSOfItsCapitals() {
        // 'ß' has no capital of its own: STRASSE is its upper case, so "STRASSE" finds "Straße" and "strasse"
        assertThat(experimentNames("STRASSE 100")).containsExactlyInAnyOrder("Ölfass-Straße 100% @ abc",
                "Olfass-Strasse 100x @ abc");
        assertThat(benchmarkNames("straße")).containsExactlyInAnyOrder("Ölfass-Straße 100%", "Olfass-Strasse 100x");
    }

    @Test
    void percentAndUnderscoreTypedAreTheCharactersNotWildcards() {
        assertThat(experimentNames("strasse 100%")).containsExactly("Ölfass-Straße 100% @ abc");
        assertThat(benchmarkNames("STRASSE 100%")).containsExactly("Ölfass-Straße 100%");
        assertThat(experimentNames("100_")).isEmpty();
        assertThat(benchmarkNames("strasse_100")).isEmpty();
    }

    private List<String> experimentNames(String typed) {
        ExperimentFilter filter = new ExperimentFilter(null, typed, null, null, false);
        List<String> names = experiments.list(filter, 0, 50).stream().map(ExperimentRecord::name).toList();
        assertThat(experiments.count(filter)).as(typed).isEqualTo(names.size());
        return names;
    }

    private List<String> benchmarkNames(String typed) {
        List<String> names = history.benchmarks(typed, 0, 50).stream().map(BenchmarkSummary::name).toList();
        assertThat(history.countBenchmarks(typed)).as(typed).isEqualTo(names.size());
        return names;
    }
}
