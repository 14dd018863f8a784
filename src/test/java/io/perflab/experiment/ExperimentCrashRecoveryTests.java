package io.perflab.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.perflab.PerfLabApplication;
import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Kills the real server process with SIGKILL in the middle of an experiment, starts it again on the same data
 * directory, and resumes: no finished run is lost and none is run twice.
 */
class ExperimentCrashRecoveryTests {

    static final String TOKEN = "crash-tests-token";

    private final List<Process> servers = new ArrayList<>();

    @AfterEach
    void killServers() {
        servers.forEach(ExperimentCrashRecoveryTests::killTree);
    }

    @Test
    void killedServerLeavesExperimentInterruptedAndResumeCompletesIt() throws Exception {
        Path dataDir = Files.createTempDirectory("perflab-crash");
        int port = freePort();
        ApiClient api = new ApiClient(port, TOKEN);
        Process server = startServer(dataDir, port, "first");
        awaitUp(api);

        Map<String, Object> request = new LinkedHashMap<>(ExperimentApiTests.presetRequest("crash", 4));
        long id = api.create(request);
        await().atMost(Duration.ofMinutes(4)).pollInterval(Duration.ofMillis(200))
                .until(() -> api.getJson("/api/v1/experiments/" + id).get("progress").get("completedRuns").asInt() >= 2);
        killTree(server);

        Process restarted = startServer(dataDir, port, "second");
        awaitUp(api);
        JsonNode interrupted = api.getJson("/api/v1/experiments/" + id);
        assertThat(interrupted.get("status").asText()).isEqualTo("INTERRUPTED");
        int keptRuns = interrupted.get("progress").get("completedRuns").asInt();
        assertThat(keptRuns).isBetween(2, 7);
        Set<Integer> keptOrdinals = ordinals(api, id);
        assertThat(keptOrdinals).hasSize(keptRuns);

        assertThat(api.post("/api/v1/experiments/" + id + "/resume", "").statusCode()).isEqualTo(202);
        await().atMost(Duration.ofMinutes(5)).pollInterval(Duration.ofMillis(500))
                .until(() -> api.status(id).equals("COMPLETED"));

        JsonNode completed = api.getJson("/api/v1/experiments/" + id);
        assertThat(completed.get("progress").get("completedRuns").asInt()).isEqualTo(8);
        assertThat(ordinals(api, id)).containsExactlyInAnyOrder(0, 1, 2, 3, 4, 5, 6, 7).containsAll(keptOrdinals);
        JsonNode samples = api.getJson("/api/v1/experiments/" + id + "/samples");
        Map<String, Integer> rowsPerRunAndMetric = new LinkedHashMap<>();
        for (JsonNode s : samples) {
            rowsPerRunAndMetric.merge(s.get("ordinal").asInt() + "/" + s.get("metric").asText(), 1, Integer::sum);
        }
        assertThat(rowsPerRunAndMetric.values()).as("no duplicate samples").containsOnly(1);
        killTree(restarted);
    }

    @Test
    void aPairCutShortByAKillRunsAgainWholeOnResumeAndNothingIsStoredTwice() throws Exception {
        Path dataDir = Files.createTempDirectory("perflab-crash-pairs");
        int port = freePort();
        ApiClient api = new ApiClient(port, TOKEN);
        Process server = startServer(dataDir, port, "first");
        awaitUp(api);

        Map<String, Object> request = new LinkedHashMap<>(ExperimentApiTests.presetRequest("crash pairs", 2));
        request.remove("runsPerVariant");
        request.put("design", "alternating");
        request.put("pairs", 3);
        request.put("windowsPerPair", 2);
        long id = api.create(request);
        // the moment the first pair is stored, the second one's JVMs are starting: kill the server in that pair
        await().atMost(Duration.ofMinutes(4)).pollInterval(Duration.ofMillis(100))
                .until(() -> api.getJson("/api/v1/experiments/" + id).get("paired").get("completedPairs").asInt() >= 1);
        killTree(server);

        Process restarted = startServer(dataDir, port, "second");
        awaitUp(api);
        JsonNode interrupted = api.getJson("/api/v1/experiments/" + id);
        assertThat(interrupted.get("status").asText()).isEqualTo("INTERRUPTED");
        int kept = interrupted.get("paired").get("completedPairs").asInt();
        assertThat(kept).isBetween(1, 2);
        assertThat(pairsWithSamples(api, id)).as("only whole pairs are stored").hasSize(kept);

        assertThat(api.post("/api/v1/experiments/" + id + "/resume", "").statusCode()).isEqualTo(202);
        await().atMost(Duration.ofMinutes(5)).pollInterval(Duration.ofMillis(500))
                .until(() -> api.status(id).equals("COMPLETED"));

        JsonNode completed = api.getJson("/api/v1/experiments/" + id);
        assertThat(completed.get("paired").get("completedPairs").asInt()).isEqualTo(3);
        assertThat(pairsWithSamples(api, id)).containsExactly(0, 1, 2);
        Map<String, Integer> rows = new LinkedHashMap<>();
        for (JsonNode s : api.getJson("/api/v1/experiments/" + id + "/samples")) {
            rows.merge(s.get("pair").asInt() + "/" + s.get("window").asInt() + "/" + s.get("variant").asText() + "/"
                    + s.get("metric").asText(), 1, Integer::sum);
        }
        assertThat(rows.values()).as("no duplicate samples").containsOnly(1);
        assertThat(rows.keySet().stream().map(k -> k.substring(0, k.lastIndexOf('/'))).distinct().count())
                .as("3 pairs × 2 windows × 2 variants").isEqualTo(12);
        killTree(restarted);
    }

    private static java.util.TreeSet<Integer> pairsWithSamples(ApiClient api, long id) throws Exception {
        java.util.TreeSet<Integer> pairs = new java.util.TreeSet<>();
        for (JsonNode s : api.getJson("/api/v1/experiments/" + id + "/samples")) {
            pairs.add(s.get("pair").asInt());
        }
        return pairs;
    }

    private static Set<Integer> ordinals(ApiClient api, long id) throws Exception {
        Set<Integer> ordinals = new HashSet<>();
        for (JsonNode s : api.getJson("/api/v1/experiments/" + id + "/samples")) {
            ordinals.add(s.get("ordinal").asInt());
        }
        return ordinals;
    }

    private Process startServer(Path dataDir, int port, String name) throws IOException {
        List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m", "-cp", System.getProperty("java.class.path"), PerfLabApplication.class.getName(),
                "--server.port=" + port, "--perflab.data-dir=" + dataDir,
                "--perflab.security.bootstrap-token=" + TOKEN, "--logging.level.root=WARN");
        File log = dataDir.resolve("server-" + name + ".log").toFile();
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log).start();
        servers.add(process);
        return process;
    }

    private static void awaitUp(ApiClient api) {
        await().atMost(Duration.ofMinutes(5)).pollInterval(Duration.ofMillis(250)).ignoreExceptions()
                .until(() -> api.get("/actuator/health", "application/json").statusCode() == 200);
    }

    /** SIGKILL to the server and to any trial JVM it started, as a crash of the whole machine would. */
    private static void killTree(Process process) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        try {
            process.waitFor(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
