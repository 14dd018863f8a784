package io.perflab.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The load benchmark, each scenario on a tiny bound: it runs, errs nowhere, and measures something. */
class ServiceLoadTests {

    @Test
    void everyScenarioRunsWithoutErrorsOnATinyBound(@TempDir Path dir) throws Exception {
        ServiceLoad load = new ServiceLoad();
        Path json = dir.resolve("load.json");
        new CommandLine(load).parseArgs("--warmup-seconds=0", "--uploaders=2", "--upload-seconds=1",
                "--max-uploads=20", "--upload-values=5", "--experiments=8", "--runs-per-variant=4",
                "--page-warmup=2", "--page-clients=2", "--page-seconds=1", "--max-page-views=10",
                "--analyze-clients=2", "--analyze-seconds=1", "--max-analyses=50", "--large-benchmarks=20",
                "--large-runs=10", "--large-views=2", "--json=" + json);
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();

        List<ServiceLoad.Row> rows = load.run(new PrintStream(buffer, true, StandardCharsets.UTF_8));

        assertThat(rows).extracting(ServiceLoad.Row::scenario).hasSize(7 + 5)
                .anySatisfy(s -> assertThat(s).startsWith("uploads"))
                .anySatisfy(s -> assertThat(s).startsWith("page cold"))
                .anySatisfy(s -> assertThat(s).startsWith("page warm"))
                .anySatisfy(s -> assertThat(s).startsWith("analyze"))
                .anySatisfy(s -> assertThat(s).startsWith("large upload: report.html"));
        assertThat(rows).allSatisfy(row -> {
            assertThat(row.errors()).as(row.scenario()).isZero();
            assertThat(row.operations()).as(row.scenario()).isPositive();
            assertThat(row.p95Millis()).as(row.scenario()).isPositive();
        });
        assertThat(rows.get(0).samplesPerSecond()).isPositive();
        String table = buffer.toString(StandardCharsets.UTF_8);
        assertThat(table).contains("scenario", "p95 ms", "target", "met?");
        assertThat(Files.readString(json)).contains("\"rows\"", "\"loadAverageBefore\"");
    }

    @Test
    void uploadsRunOnPostgresTooAndAnUnknownDatabaseIsRefusedByName() throws Exception {
        ServiceLoad load = new ServiceLoad();
        new CommandLine(load).parseArgs("--databases=postgres", "--scenarios=uploads", "--warmup-seconds=0",
                "--uploaders=2", "--upload-seconds=1", "--max-uploads=10", "--upload-values=5");
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();

        List<ServiceLoad.Row> rows = load.run(new PrintStream(buffer, true, StandardCharsets.UTF_8));

        assertThat(rows).singleElement().satisfies(row -> {
            assertThat(row.database()).isEqualTo("postgres");
            assertThat(row.errors()).isZero();
            assertThat(row.samplesPerSecond()).isPositive();
        });
        assertThat(buffer.toString(StandardCharsets.UTF_8)).contains("reWriteBatchedInserts=true");

        ServiceLoad unknown = new ServiceLoad();
        new CommandLine(unknown).parseArgs("--databases=h2,oracle");
        assertThatThrownBy(() -> unknown.run(new PrintStream(new ByteArrayOutputStream(), true,
                StandardCharsets.UTF_8))).hasMessageContaining("--databases: 'oracle'");
    }
}
