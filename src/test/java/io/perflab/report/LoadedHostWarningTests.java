package io.perflab.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.JsonNode;

/**
 * The warning of a loaded host, from the load the experiment's first trial read before its own threads ran, where the
 * experiment's other warnings go: its page, the API and the three reports.
 */
class LoadedHostWarningTests extends ReportTestSupport {

    private static final String WARNING = "load average 3.52 on 2 CPUs as the experiment's first trial started, "
            + "before its benchmark threads ran: other work competes with the benchmark, expect noisy figures";
    private static final String WARNING_IN_HTML = WARNING.replace("'", "&#39;");

    @Test
    void anExperimentWhoseFirstTrialReadAHighLoadWarnsOnItsPageInTheApiAndInEveryReport() throws Exception {
        long id = ReportFixtures.store(store, jdbc, ReportFixtures.Shape.seedLike("on a busy host"), 6);
        firstTrialLoad(id, "3.52 3.10 2.80 (5 runnable)");

        // said once, for all the metrics, where a note that several metrics share goes
        assertThat(get("/experiments/" + id, "text/html").body()).containsOnlyOnce(WARNING_IN_HTML);
        JsonNode results = json.readTree(get("/api/v1/experiments/" + id).body()).get("results");
        assertThat(results.size()).isPositive();
        results.forEach(r -> assertThat(r.get("warnings").toString()).contains(WARNING));
        assertThat(get("/api/v1/experiments/" + id + "/report.html").body()).contains(WARNING_IN_HTML);
        assertThat(get("/api/v1/experiments/" + id + "/report.md").body()).contains(WARNING);
        assertThat(get("/api/v1/experiments/" + id + "/report.txt").body()).contains(WARNING);
    }

    /** Later trials read the earlier trials' threads in the load (0.51 to 0.89 here): they are not judged. */
    @Test
    void anExperimentWhoseFirstTrialReadALowLoadDoesNotWarn() throws Exception {
        long id = ReportFixtures.store(store, jdbc, ReportFixtures.Shape.seedLike("on a quiet host"), 6);

        assertThat(get("/experiments/" + id, "text/html").body()).doesNotContain("load average");
        assertThat(get("/api/v1/experiments/" + id).body()).doesNotContain("load average");
        for (String report : new String[] {"html", "md", "txt"}) {
            assertThat(get("/api/v1/experiments/" + id + "/report." + report).body())
                    .doesNotContain("other work competes");
        }
    }

    private void firstTrialLoad(long id, String load) {
        String stored = jdbc.sql("SELECT environment FROM trial_run WHERE experiment_id = ? AND ordinal = 0")
                .param(id).query(String.class).single();
        Map<String, String> environment = new LinkedHashMap<>(json.readValue(stored,
                new TypeReference<Map<String, String>>() { }));
        environment.put("load_average", load);
        jdbc.sql("UPDATE trial_run SET environment = ? WHERE experiment_id = ? AND ordinal = 0")
                .params(json.writeValueAsString(environment), id).update();
    }
}
