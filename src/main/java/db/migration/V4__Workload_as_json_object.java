package db.migration;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import org.flywaydb.core.api.migration.BaseJavaMigration;
import org.flywaydb.core.api.migration.Context;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Stored workloads become JSON objects with the API's field names ({@code {"mode":"sync","clientThreads":16,…}})
 * instead of the list of {@code perflab bench} flags that releases before it stored
 * ({@code ["--mode","sync","--client-threads","16",…]}). Rows already in the new form are left alone, so the
 * migration may meet a database in either state.
 */
public class V4__Workload_as_json_object extends BaseJavaMigration {

    private static final Map<String, String> FIELDS = Map.ofEntries(
            Map.entry("--stack", "stack"), Map.entry("--mode", "mode"),
            Map.entry("--client-threads", "clientThreads"), Map.entry("--async-concurrency", "asyncConcurrency"),
            Map.entry("--worker-threads", "workerThreads"), Map.entry("--server-reactors", "serverReactors"),
            Map.entry("--request-bytes", "requestBytes"), Map.entry("--response-bytes", "responseBytes"),
            Map.entry("--warmup-seconds", "warmupSeconds"), Map.entry("--run-seconds", "runSeconds"));
    private static final List<String> TEXT_FIELDS = List.of("stack", "mode", "warmupSeconds");

    @Override
    public void migrate(Context context) throws Exception {
        JsonMapper json = JsonMapper.builder().build();
        try (Statement select = context.getConnection().createStatement();
             ResultSet rows = select.executeQuery("SELECT id, workload FROM experiment WHERE workload LIKE '[%'");
             PreparedStatement update = context.getConnection().prepareStatement(
                     "UPDATE experiment SET workload = ? WHERE id = ?")) {
            while (rows.next()) {
                List<String> flags = json.readerForListOf(String.class).readValue(rows.getString(2));
                update.setString(1, json.writeValueAsString(toObject(json, flags)));
                update.setLong(2, rows.getLong(1));
                update.addBatch();
            }
            update.executeBatch();
        }
    }

    /** The workload object of a flag list as releases before it stored. */
    public static ObjectNode toObject(JsonMapper json, List<String> flags) {
        ObjectNode workload = json.createObjectNode();
        workload.put("encryption", false);
        for (int i = 0; i < flags.size(); i++) {
            String flag = flags.get(i);
            if (flag.equals("--encryption")) {
                workload.put("encryption", true);
                continue;
            }
            String field = FIELDS.get(flag);
            String value = flags.get(++i);
            if (field == null) {
                continue;
            }
            if (TEXT_FIELDS.contains(field)) {
                workload.put(field, value);
            } else if (field.equals("runSeconds")) {
                workload.put(field, new java.math.BigDecimal(value));
            } else {
                workload.put(field, Integer.parseInt(value));
            }
        }
        return workload;
    }
}
