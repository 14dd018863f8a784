package io.perflab.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.perflab.experiment.MigrationTests;
import java.nio.file.Path;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

/**
 * Uploads stored before V11 keep a row per sample; their history is read upload by upload like the packed ones'.
 * The fixture is the data directory of the release before PostgreSQL ({@link MigrationTests}): uploads 1 and 2 of
 * {@code old/parse} (one side each), and upload 3 of {@code old/both} with both sides.
 */
class HistoryOfEarlierReleasesTests {

    @Test
    void uploadsStoredAsSampleRowsHaveTheirHistoryPointEach(@TempDir Path dir) throws Exception {
        MigrationTests.unzip("/db/perflab-2dbbf68.zip", dir);
        SingleConnectionDataSource database = new SingleConnectionDataSource(
                "jdbc:h2:file:" + dir.resolve("perflab") + ";DB_CLOSE_ON_EXIT=FALSE", "sa", "", true);
        try {
            Flyway.configure().dataSource(database).load().migrate();
            JdbcClient jdbc = JdbcClient.create(database);
            HistoryService history = new HistoryService(new HistoryRepository(jdbc));

            History parse = history.history("old/parse", "parse_ns", null, 0, 200, "http://perflab");
            History both = history.history("old/both", "t_ms", null, 0, 200, "http://perflab");

            assertThat(parse.points()).extracting(HistoryPoint::experimentId).containsExactly(1L, 2L);
            // upload 2's five values (MigrationTests reads them back: 90.5, 91.25, 89.75, 90.0, 92.5)
            HistoryPoint second = parse.points().get(1);
            assertThat(second.n()).isEqualTo(5);
            assertThat(second.mean()).isCloseTo((90.5 + 91.25 + 89.75 + 90.0 + 92.5) / 5, within(1e-12));
            assertThat(parse.points().get(0).mean()).isCloseTo(100.8, within(1e-12));
            // upload 3 has both sides (three runs each, means 11 and 9): its point is the change's
            assertThat(both.points()).singleElement().satisfies(point -> {
                assertThat(point.n()).isEqualTo(3);
                assertThat(point.mean()).isCloseTo(9, within(1e-12));
            });
        } finally {
            database.destroy();
        }
    }
}
