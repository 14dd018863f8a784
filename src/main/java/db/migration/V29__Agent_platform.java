package db.migration;

import io.perflab.agent.HostPlatform;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Map;
import org.flywaydb.core.api.migration.BaseJavaMigration;
import org.flywaydb.core.api.migration.Context;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * Agents keep the platform of their host ({@link HostPlatform}: {@code os_name}, {@code os_arch}) in columns of their
 * own, by which the queue tells which hosts may run an engine option that runs on one platform only. An agent
 * registered before gets the platform its environment says ({@link HostPlatform#registered}: the {@code kernel}
 * entry every {@code perflab agent} registered), read in Java since SQL cannot take its JSON apart portably; one whose
 * environment says none keeps none.
 */
public class V29__Agent_platform extends BaseJavaMigration {

    private static final int ROWS_PER_BATCH = 1_000;

    @Override
    public void migrate(Context context) throws Exception {
        Connection connection = context.getConnection();
        try (Statement alter = connection.createStatement()) {
            alter.execute("ALTER TABLE agent ADD COLUMN os_name VARCHAR(" + HostPlatform.MAX_PART + ")");
            alter.execute("ALTER TABLE agent ADD COLUMN os_arch VARCHAR(" + HostPlatform.MAX_PART + ")");
        }
        JsonMapper json = JsonMapper.builder().build();
        try (Statement select = connection.createStatement();
             PreparedStatement update = connection.prepareStatement(
                     "UPDATE agent SET os_name = ?, os_arch = ? WHERE id = ?")) {
            select.setFetchSize(ROWS_PER_BATCH);
            try (ResultSet rows = select.executeQuery("SELECT id, environment FROM agent")) {
                int batched = 0;
                while (rows.next()) {
                    Map<String, String> environment = json.readValue(rows.getString(2),
                            new TypeReference<Map<String, String>>() { });
                    HostPlatform platform = HostPlatform.registered(environment).orElse(null);
                    if (platform == null) {
                        continue;
                    }
                    update.setString(1, platform.osName());
                    update.setString(2, platform.osArch());
                    update.setLong(3, rows.getLong(1));
                    update.addBatch();
                    if (++batched % ROWS_PER_BATCH == 0) {
                        update.executeBatch();
                    }
                }
            }
            update.executeBatch();
        }
    }
}
