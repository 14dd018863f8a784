package db.migration;

import io.perflab.system.SqlPatterns;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import org.flywaydb.core.api.migration.BaseJavaMigration;
import org.flywaydb.core.api.migration.Context;

/**
 * Experiments keep their name and benchmark case-folded ({@link SqlPatterns#caseFolded}) beside them, in
 * {@code name_folded} and {@code benchmark_folded}, which the name filters compare with the folded text typed. The
 * filters compared {@code LOWER(name)} with {@code LOWER(?)}, and a PostgreSQL database created in the C locale
 * lower-cases ASCII letters only: 'öl' did not find "Ölfass" there. The folding is Java's, so SQL cannot fill the
 * columns; this fills them for the rows stored before. A folded name is at most three times as long as the name.
 */
public class V22__Case_folded_names extends BaseJavaMigration {

    private static final int ROWS_PER_BATCH = 1_000;

    @Override
    public void migrate(Context context) throws Exception {
        Connection connection = context.getConnection();
        try (Statement alter = connection.createStatement()) {
            alter.execute("ALTER TABLE experiment ADD COLUMN name_folded VARCHAR(600)");
            alter.execute("ALTER TABLE experiment ADD COLUMN benchmark_folded VARCHAR(600)");
        }
        try (Statement select = connection.createStatement();
             PreparedStatement update = connection.prepareStatement(
                     "UPDATE experiment SET name_folded = ?, benchmark_folded = ? WHERE id = ?")) {
            select.setFetchSize(ROWS_PER_BATCH);
            try (ResultSet rows = select.executeQuery("SELECT id, name, benchmark FROM experiment")) {
                int batched = 0;
                while (rows.next()) {
                    update.setString(1, SqlPatterns.caseFolded(rows.getString(2)));
                    update.setString(2, SqlPatterns.caseFolded(rows.getString(3)));
                    update.setLong(3, rows.getLong(1));
                    update.addBatch();
                    if (++batched % ROWS_PER_BATCH == 0) {
                        update.executeBatch();
                    }
                }
            }
            update.executeBatch();
        }
        try (Statement alter = connection.createStatement()) {
            alter.execute("ALTER TABLE experiment ALTER COLUMN name_folded SET NOT NULL");
        }
    }
}
