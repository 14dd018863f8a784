package io.perflab.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.perflab.upload.UploadServer;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Paired designs through the whole server: the new fields of {@code POST /api/v1/experiments} refused naming the
 * field, and a short real alternating experiment (two pairs of real trial JVMs, 0.3 s windows) whose API view,
 * samples, page and reports show its pairs.
 */
class PairedExperimentApiTests extends UploadServer {

    private static Map<String, Object> alternating(String name, int pairs) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("name", name);
        body.put("preset", "sync-completion");
        body.put("design", "alternating");
        body.put("pairs", pairs);
        body.put("windowsPerPair", 2);
        body.put("workload", Map.of("warmupSeconds", 0.3, "runSeconds", 0.3, "clientThreads", 2));
        return body;
    }

    private HttpResponse<String> create(Object body) throws Exception {
        return post("/api/v1/experiments", ADMIN_TOKEN, "application/json",
                body instanceof String text ? text : json.writeValueAsString(body));
    }

    private HttpResponse<String> get(String path, String accept) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(base() + path)).header("Accept", accept).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void pairedFieldsAreCheckedAndAMistakeNamesItsField() throws Exception {
        Map<String, Long> before = rowCounts();
        Map<String, String> cases = new LinkedHashMap<>();
        String base = "{\"name\":\"x\",\"preset\":\"sync-completion\",";
        cases.put(base + "\"design\":\"trio\",\"pairs\":4}", "design: unknown design 'trio'");
        cases.put(base + "\"design\":\"duet\",\"pairs\":1}", "pairs");
        cases.put(base + "\"design\":\"duet\",\"pairs\":2.5}", "pairs");
        cases.put(base + "\"design\":\"duet\",\"pairs\":4,\"windowsPerPair\":0}", "windowsPerPair");
        cases.put(base + "\"design\":\"duet\",\"pairs\":4,\"windowsPerPair\":1001}", "windowsPerPair");
        cases.put(base + "\"design\":\"duet\",\"pairs\":4,\"runsPerVariant\":10}", "runsPerVariant");
        cases.put(base + "\"runsPerVariant\":4,\"pairs\":4}", "pairs: applies to the paired designs");
        cases.put(base + "\"design\":\"fresh\",\"budget\":\"5m\"}", "budget: applies to the paired designs");
        cases.put(base + "\"design\":\"duet\",\"pairs\":4,\"target\":\"cpu_per_req:1%\"}",
                "target: unknown metric 'cpu_per_req'");
        cases.put(base + "\"design\":\"duet\",\"pairs\":4,\"target\":[\"cpu_us_per_req:1%\",\"cpu_us_per_req:x\"]}",
                "target: a target's precision is a percentage > 0, 'settled' or mde=PERCENT%");
        cases.put(base + "\"design\":\"duet\",\"pairs\":4,\"budget\":\"soon\"}", "budget: takes a duration");
        cases.put(base + "\"design\":\"duet\",\"pairs\":4,\"budget\":\"48h\"}", "budget: must be more than 0");
        cases.put(base + "\"design\":\"duet\",\"pairs\":4,\"stopWhen\":\"now\"}", "stopWhen");
        cases.put("{\"name\":\"c\",\"kind\":\"command\",\"withoutCommand\":\"true\",\"withCommand\":\"false\","
                + "\"design\":\"duet\",\"pairs\":4}", "design: a duet runs two trial JVMs at once");
        for (Map.Entry<String, String> c : cases.entrySet()) {
            HttpResponse<String> response = create(c.getKey());
            assertThat(response.statusCode()).as(c.getKey() + " → " + response.body()).isEqualTo(400);
            assertThat(response.headers().firstValue("Content-Type").orElseThrow())
                    .startsWith("application/problem+json");
            assertThat(read(response.body()).get("detail").asString()).as(c.getKey()).contains(c.getValue());
        }
        assertThat(rowCounts()).isEqualTo(before);
    }

    @Test
    void aShortAlternatingExperimentShowsItsPairsEverywhere() throws Exception {
        Map<String, Object> request = alternating("alternating pairs", 2);
        request.put("target", "cpu_us_per_req:50%");
        HttpResponse<String> created = create(request);
        assertThat(created.statusCode()).as(created.body()).isEqualTo(202);
        long id = read(created.body()).get("id").asLong();

        await().atMost(Duration.ofMinutes(4)).pollInterval(Duration.ofMillis(500)).until(() -> Set.of("COMPLETED",
                "FAILED", "CANCELLED").contains(read(get("/api/v1/experiments/" + id).body()).get("status")
                .asString()));
        JsonNode experiment = read(get("/api/v1/experiments/" + id).body());

        assertThat(experiment.get("status").asString()).as(experiment.toString()).isEqualTo("COMPLETED");
        assertThat(experiment.get("design").asString()).isEqualTo("alternating");
        JsonNode paired = experiment.get("paired");
        assertThat(paired.get("pairs").asInt()).isEqualTo(2);
        assertThat(paired.get("windowsPerPair").asInt()).isEqualTo(2);
        assertThat(paired.get("completedPairs").asInt()).as(experiment.toString()).isEqualTo(2);
        assertThat(paired.get("failedPairs").asInt()).isZero();
        assertThat(paired.get("targets").get(0).asString()).isEqualTo("cpu_us_per_req:50%");
        assertThat(paired.get("looks").size()).as("a look after the second pair").isOne();
        assertThat(experiment.get("progress").get("completedRuns").asInt()).isEqualTo(8);
        JsonNode placement = paired.get("placement");
        assertThat(placement.get("pairs").asInt()).as(placement.toString()).isEqualTo(2);
        assertThat(placement.get("withFirst").asInt()).as("the variants take turns going first").isOne();
        assertThat(placement.get("skewedWindows").asInt()).as("alternating windows are not simultaneous").isZero();
        JsonNode cpu = null;
        for (JsonNode metric : experiment.get("results")) {
            if (metric.get("metric").asString().equals("cpu_us_per_req")) {
                cpu = metric;
            }
        }
        assertThat(cpu).as("cpu_us_per_req compared").isNotNull();
        assertThat(cpu.get("nWith").asInt()).as("n counts pairs, not windows").isEqualTo(2);
        assertThat(cpu.get("paired").get("pairs").asInt()).isEqualTo(2);
        assertThat(cpu.get("paired").get("windows").asInt()).isEqualTo(4);
        assertThat(cpu.get("paired").get("pairPercents").size()).isEqualTo(2);
        assertThat(cpu.get("paired").has("welchPValueIgnoringPairing")).isTrue();
        assertThat(cpu.get("mdePercent").isNumber()).as("what the test over the pairs could detect").isTrue();
        assertThat(cpu.get("runsPerVariantFor1Percent").asLong()).as("pairs for a 1 % change").isGreaterThan(1);
        JsonNode next = cpu.get("paired").get("nextRun");
        assertThat(next).as("the windows per pair for a next run as long as this one").isNotNull();
        assertThat(next.get("thisWindowsPerPair").asInt()).isEqualTo(2);
        assertThat(next.get("windowsPerPair").asInt() >= 1 && next.get("pairs").asLong() >= 2
                && next.get("mdePercent").isNumber() && next.get("thisDesignMdePercent").isNumber())
                .as(next.toString()).isTrue();
        JsonNode warmup = cpu.get("paired").get("warmup");
        assertThat(warmup).as("how each variant moved across its windows").isNotNull();
        assertThat(warmup.get("withPercent").isNumber() && warmup.get("withoutPercent").isNumber()
                && warmup.get("holmPValue").isNumber() && warmup.get("differs").isBoolean()).as(warmup.toString())
                .isTrue();

        JsonNode samples = read(get("/api/v1/experiments/" + id + "/samples").body());
        Set<String> placed = new HashSet<>();
        for (JsonNode s : samples) {
            placed.add(s.get("pair").asInt() + "/" + s.get("window").asInt() + "/" + s.get("variant").asString());
        }
        assertThat(placed).containsExactlyInAnyOrder("0/0/without", "0/0/with", "0/1/without", "0/1/with",
                "1/0/without", "1/0/with", "1/1/without", "1/1/with");
        List<String> csv = get("/api/v1/experiments/" + id + "/samples", "text/csv").body().lines().toList();
        assertThat(csv.get(0)).isEqualTo("experiment,variant,run,metric,value,unit,pair,window,status,cpu_split");
        assertThat(csv).hasSize(samples.size() + 1);
        assertThat(jdbc.sql("SELECT COUNT(*) FROM trial_run WHERE experiment_id = ? AND cpu_set IS NULL "
                + "AND start_nanos IS NOT NULL").param(id).query(Long.class).single())
                .as("alternating JVMs are not pinned; every window has its start").isEqualTo(8);

        String page = get("/experiments/" + id, "text/html").body();
        assertThat(page).contains("id=\"pairs\"", "Design: alternating, 2 pairs planned of 2 windows",
                "ignoring the pairing", "sd between pairs", "Sequential looks", "id=\"paired-1\"",
                ">pairs for ±1 %</dt>", "warmup: first → last window",
                "windows per pair next time × pairs in this run's time, MDE", "; m* = ",
                "went first in 1 of 2 pairs.", "Δ (with − without), paired t-test of the pairs&#39; means",
                "p of the pair log ratios (before Holm)", "windows (both variants, 2 pairs planned)");
        String text = get("/api/v1/experiments/" + id + "/report.txt", "text/plain").body();
        assertThat(text).contains("Design: alternating, 2 of 2 pairs of 2 windows per variant stored",
                "the change. 'with' went first in 1 of 2 pairs.",
                "Paired t-test", "data:  with and without", "mean difference",
                "# The verdict, Δ % and its p come from the pairs' log ratios, t.test(log(with / without)): another "
                        + "test, so another p-value.",
                "Paired analysis (R: t.test(with, without, paired = TRUE)",
                "Welch, ignoring the pairing: with − without ",
                "with 80% power, ", " pairs for ±1%", "; in this run's time next: ", "; first to last window: with ",
                "Sequential looks:", "look 1 (2 pairs");
        assertThat(get("/api/v1/experiments/" + id + "/report.md", "text/markdown").body())
                .contains("Design: alternating", "Paired analysis:", "Paired design: per pair the mean");
        String html = get("/api/v1/experiments/" + id + "/report.html", "text/html").body();
        assertThat(html).contains("id=\"pairs\"", "t.test(with, without, paired = TRUE)", "Paired t-test",
                "\"pair\":1", "\"window\":1");
    }
}
