package io.perflab.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.perflab.PerfLabApplication;
import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
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
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Kills the real server process with SIGKILL in the middle of an experiment, starts it again on the same data
 * directory, and resumes: no finished run is lost and none is run twice; a pair cut short runs again whole.
 */
class ExperimentCrashRecoveryTests {

    static final String TOKEN = "crash-tests-token";

    private final List<Process> servers = new ArrayList<>();

    /** The three server lives' data directory and logs. */
    @TempDir
    Path dataDir;

    @AfterEach
    void killServers() {
        servers.forEach(ExperimentCrashRecoveryTests::killTree);
    }

    /**
     * One server life per crash, three in all: the first is killed in the middle of a fresh-JVM experiment, the
     * second (which starts the paired experiment queued behind it) in the middle of a pair, the third resumes both.
     */
    @Test
    void killedServersLeaveExperimentsInterruptedAndResumeCompletesThemWithNothingLostOrStoredTwice()
            throws Exception {
        int port = freePort();
        ApiClient api = new ApiClient(port, TOKEN);
        Process first = startServer(dataDir, port, "first");
        awaitUp(api);

        long fresh = api.create(new LinkedHashMap<>(ExperimentApiTests.presetRequest("crash", 2)));
        Map<String, Object> pairedRequest = new LinkedHashMap<>(ExperimentApiTests.presetRequest("crash pairs", 2));
        pairedRequest.remove("runsPerVariant");
        pairedRequest.put("design", "alternating");
        pairedRequest.put("pairs", 3);
        pairedRequest.put("windowsPerPair", 1);
        long paired = api.create(pairedRequest);
        await().atMost(Duration.ofMinutes(4)).pollInterval(Duration.ofMillis(200))
                .until(() -> api.getJson("/api/v1/experiments/" + fresh).get("progress").get("completedRuns")
                        .asInt() >= 2);
        killTree(first);

        // the second server finds the fresh experiment cut short and starts the paired one, queued behind it;
        // the moment its first pair is stored, the second one's JVMs are starting: kill the server in that pair
        Process second = startServer(dataDir, port, "second");
        awaitUp(api);
        JsonNode interrupted = api.getJson("/api/v1/experiments/" + fresh);
        assertThat(interrupted.get("status").asText()).isEqualTo("INTERRUPTED");
        int keptRuns = interrupted.get("progress").get("completedRuns").asInt();
        assertThat(keptRuns).isBetween(2, 3);
        Set<Integer> keptOrdinals = ordinals(api, fresh);
        assertThat(keptOrdinals).hasSize(keptRuns);
        await().atMost(Duration.ofMinutes(4)).pollInterval(Duration.ofMillis(100))
                .until(() -> api.getJson("/api/v1/experiments/" + paired).get("paired").get("completedPairs")
                        .asInt() >= 1);
        // H2 shows a commit to other sessions a moment before its write to the file has returned: a kill within
        // that moment may lose the pair just stored (resume runs it again; nothing is duplicated). The next pair's
        // JVMs take seconds to start, so 300 ms later the kill still falls inside that pair
        Thread.sleep(300);
        killTree(second);

        Process third = startServer(dataDir, port, "third");
        awaitUp(api);
        assertThat(api.status(fresh)).isEqualTo("INTERRUPTED");
        assertThat(ordinals(api, fresh)).as("the third life keeps what the first stored").isEqualTo(keptOrdinals);
        JsonNode pairedInterrupted = api.getJson("/api/v1/experiments/" + paired);
        assertThat(pairedInterrupted.get("status").asText()).isEqualTo("INTERRUPTED");
        int keptPairs = pairedInterrupted.get("paired").get("completedPairs").asInt();
        assertThat(keptPairs).isBetween(1, 2);
        assertThat(pairsWithSamples(api, paired)).as("only whole pairs are stored").hasSize(keptPairs);

        assertThat(api.post("/api/v1/experiments/" + fresh + "/resume", "").statusCode()).isEqualTo(202);
        assertThat(api.post("/api/v1/experiments/" + paired + "/resume", "").statusCode()).isEqualTo(202);
        await().atMost(Duration.ofMinutes(6)).pollInterval(Duration.ofMillis(500))
                .until(() -> api.status(fresh).equals("COMPLETED") && api.status(paired).equals("COMPLETED"));

        JsonNode completed = api.getJson("/api/v1/experiments/" + fresh);
        assertThat(completed.get("progress").get("completedRuns").asInt()).isEqualTo(4);
        assertThat(ordinals(api, fresh)).containsExactlyInAnyOrder(0, 1, 2, 3).containsAll(keptOrdinals);
        Map<String, Integer> rowsPerRunAndMetric = new LinkedHashMap<>();
        for (JsonNode s : api.getJson("/api/v1/experiments/" + fresh + "/samples")) {
            rowsPerRunAndMetric.merge(s.get("ordinal").asInt() + "/" + s.get("metric").asText(), 1, Integer::sum);
        }
        assertThat(rowsPerRunAndMetric.values()).as("no duplicate samples").containsOnly(1);

        JsonNode pairedCompleted = api.getJson("/api/v1/experiments/" + paired);
        assertThat(pairedCompleted.get("paired").get("completedPairs").asInt()).isEqualTo(3);
        assertThat(pairsWithSamples(api, paired)).containsExactly(0, 1, 2);
        Map<String, Integer> rows = new LinkedHashMap<>();
        for (JsonNode s : api.getJson("/api/v1/experiments/" + paired + "/samples")) {
            rows.merge(s.get("pair").asInt() + "/" + s.get("window").asInt() + "/" + s.get("variant").asText() + "/"
                    + s.get("metric").asText(), 1, Integer::sum);
        }
        assertThat(rows.values()).as("no duplicate samples").containsOnly(1);
        assertThat(rows.keySet().stream().map(k -> k.substring(0, k.lastIndexOf('/'))).distinct().count())
                .as("3 pairs × 1 window × 2 variants").isEqualTo(6);
        killTree(third);
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
        // the client compiler only and the serial collector: a server life starts in less time and CPU, and
        // nothing this test checks depends on how its code is compiled or collected
        List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                "-cp", System.getProperty("java.class.path"), PerfLabApplication.class.getName(),
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
