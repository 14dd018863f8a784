package io.perflab.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.perflab.PerfLabApplication;
import io.perflab.agent.AgentClient;
import io.perflab.agent.AgentHost;
import io.perflab.agent.AgentLoop;
import io.perflab.agent.AgentProtocol.Registration;
import io.perflab.runner.experiment.TrialLauncher;
import io.perflab.system.EmbeddedPostgres;
import io.perflab.upload.OutputMetricsReader;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.JsonNode;

/**
 * Issue 19, acceptance 1: one PostgreSQL, two service instances (two contexts in this JVM, random ports) and two
 * agents on loopback — agent A a child JVM ({@code perflab agent}, so that it can be killed with SIGKILL), agent B a
 * thread of this JVM running the same {@link AgentLoop} and HTTP client. Two command experiments queued through
 * instance 1 run on the agents, one each; A is killed in the middle of its experiment, which becomes INTERRUPTED
 * once A's heartbeat times out and is resumed by B, of the same labels, to COMPLETED with every trial once.
 */
class AgentClusterTests {

    static final String TOKEN = "agent-cluster-tests-token";

    /** Each trial sleeps this long: long enough to kill agent A between two of its trials, short for the suite. */
    /**
     * Long enough that the first agent to claim cannot finish its experiment (six trials) before the other agent's
     * next poll claims the second one, even on a loaded machine (at 0.25 s one agent once ran both).
     */
    static final String TRIAL = "sleep 0.5";
    static final int RUNS_PER_VARIANT = 3;
    /**
     * Fifteen heartbeats of 200 ms: at 1 s a live agent's heartbeats were once late enough, on a loaded machine,
     * that it was declared lost and registered again.
     */
    static final Duration HEARTBEAT_TIMEOUT = Duration.ofSeconds(3);

    private final List<ConfigurableApplicationContext> instances = new ArrayList<>();
    private final List<Process> processes = new ArrayList<>();
    private final List<AgentLoop> loops = new ArrayList<>();
    private final List<Thread> streams = new ArrayList<>();

    @AfterEach
    void stopEverything() {
        loops.forEach(AgentLoop::stop);
        processes.forEach(AgentClusterTests::kill);
        streams.forEach(Thread::interrupt);
        instances.forEach(ConfigurableApplicationContext::close);
    }

    @Test
    void twoInstancesTwoAgentsAndAKilledAgentsExperimentResumesElsewhereWithEveryTrialOnce() throws Exception {
        Map<String, String> database = new HashMap<>();
        EmbeddedPostgres.register((name, value) -> database.put(name, String.valueOf(value.get())));
        ConfigurableApplicationContext first = instance("one", database);
        ConfigurableApplicationContext second = instance("two", database);
        ApiClient one = new ApiClient(port(first), TOKEN);
        ApiClient two = new ApiClient(port(second), TOKEN);
        JdbcClient jdbc = first.getBean(JdbcClient.class);

        HttpResponse<String> created = one.post("/api/v1/tokens", Map.of("name", "bench hosts", "role", "agent"));
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        String agentToken = one.read(created.body()).get("token").asText();
        HttpResponse<String> asUser = one.post("/api/v1/tokens", Map.of("name", "ci"));
        HttpResponse<String> userAsAgent = post(port(first), one.read(asUser.body()).get("token").asText(),
                "/api/v1/agents",
                "{\"name\": \"sneaky\", \"labels\": {}, \"environment\": {}, \"runsCommands\": true}");
        assertThat(userAsAgent.statusCode()).as("a USER token cannot act as an agent").isEqualTo(403);

        List<String[]> eventsOne = events(port(first));
        List<String[]> eventsTwo = events(port(second));

        Process agentA = startAgentProcess(port(first), agentToken, "agent-a");
        long idA = awaitAgent(one, "agent-a");
        long idB = startAgentThread(port(second), agentToken, "agent-b");
        awaitAgent(two, "agent-b");

        long x = one.create(commandRequest("x"));
        await().atMost(Duration.ofSeconds(20)).until(() -> one.status(x).equals("RUNNING"));
        long y = one.create(commandRequest("y"));
        await().atMost(Duration.ofSeconds(20)).until(() -> one.status(y).equals("RUNNING"));
        long onA = agentExperiment(one, idA);
        long onB = agentExperiment(one, idB);
        assertThat(List.of(onA, onB)).as("each agent runs one of the two").containsExactlyInAnyOrder(x, y);

        // SIGKILL agent A (and the trial it runs) once it has posted a trial and before it finished them all
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(20))
                .until(() -> progress(one, onA) >= 1);
        kill(agentA);
        int keptFromA = progress(one, onA);
        assertThat(keptFromA).isBetween(1, 2 * RUNS_PER_VARIANT - 1);

        await().atMost(Duration.ofSeconds(40)).until(() -> one.status(onA).equals("COMPLETED")
                && one.status(onB).equals("COMPLETED"));

        // A's claim ended INTERRUPTED, no sooner than the heartbeat timeout after its last heartbeat; B resumed it
        List<Claim> claimsOfA = claims(jdbc).stream().filter(c -> c.experimentId() == onA).toList();
        assertThat(claimsOfA).extracting(c -> c.agentId() + ":" + c.outcome())
                .containsExactly(idA + ":INTERRUPTED", idB + ":COMPLETED");
        Instant lastHeartbeatOfA = jdbc.sql("SELECT last_heartbeat FROM agent WHERE id = ?").param(idA)
                .query((rs, n) -> rs.getObject(1, OffsetDateTime.class)).single().toInstant();
        Instant interruptedAt = claimsOfA.get(0).end();
        assertThat(Duration.between(lastHeartbeatOfA, interruptedAt)).isGreaterThanOrEqualTo(HEARTBEAT_TIMEOUT);
        assertThat(one.getJson("/api/v1/agents/" + idA).get("status").asText()).isEqualTo("LOST");
        // whichever instance declared A lost, the subscribers of both heard it (LISTEN/NOTIFY on PostgreSQL)
        for (List<String[]> stream : List.of(eventsOne, eventsTwo)) {
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(stream)
                    .anySatisfy(e -> assertThat(e[0] + e[1]).contains("status", "\"experimentId\":" + onA,
                            "INTERRUPTED")));
        }

        // never one experiment on two agents at once, never two experiments on one agent at once
        List<Claim> claims = claims(jdbc);
        assertThat(claims).hasSize(3);
        for (Claim a : claims) {
            for (Claim b : claims) {
                if (a != b && (a.experimentId() == b.experimentId() || a.agentId() == b.agentId())) {
                    assertThat(a.start().isBefore(b.end()) && b.start().isBefore(a.end())).as(a + " and " + b)
                            .isFalse();
                }
            }
        }

        // every trial once, each recorded with its agent, all from hosts of one label set
        for (long id : List.of(onA, onB)) {
            List<Map<String, Object>> runs = jdbc.sql("SELECT ordinal, status, agent_id FROM trial_run "
                    + "WHERE experiment_id = ? ORDER BY ordinal").param(id).query().listOfRows();
            assertThat(runs).extracting(r -> ((Number) r.get("ordinal")).intValue())
                    .containsExactlyElementsOf(java.util.stream.IntStream.range(0, 2 * RUNS_PER_VARIANT).boxed()
                            .toList());
            assertThat(runs).allSatisfy(r -> assertThat(r.get("status")).isEqualTo("OK"));
            assertThat(runs).allSatisfy(r -> assertThat(r.get("agent_id")).isNotNull());
            Map<String, Integer> samples = new LinkedHashMap<>();
            for (JsonNode s : one.getJson("/api/v1/experiments/" + id + "/samples")) {
                samples.merge(s.get("ordinal").asInt() + "/" + s.get("metric").asText(), 1, Integer::sum);
            }
            assertThat(samples.values()).as("no sample twice").containsOnly(1);
            assertThat(jdbc.sql("SELECT run_labels FROM experiment WHERE id = ?").param(id).query(String.class)
                    .single()).isEqualTo("pool=loopback");
        }
        Map<Long, Integer> trialsOfA = trialsPerAgent(one, onA);
        assertThat(trialsOfA.get(idA)).isEqualTo(keptFromA);
        assertThat(trialsOfA.get(idB)).isEqualTo(2 * RUNS_PER_VARIANT - keptFromA);
        assertThat(trialsPerAgent(one, onB)).containsExactly(Map.entry(idB, 2 * RUNS_PER_VARIANT));

        // the trials B posted to instance 2 reached instance 2's stream, whoever queued their experiments, and the
        // trials A posted to instance 1 crossed to it too: progress reaches the subscribers of every instance
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(eventsTwo)
                .filteredOn(e -> e[0].equals("run"))
                .anySatisfy(e -> assertThat(e[1]).contains("\"experimentId\":" + onA, "\"agentId\":" + idB))
                .anySatisfy(e -> assertThat(e[1]).contains("\"experimentId\":" + onB, "\"agentId\":" + idB))
                .anySatisfy(e -> assertThat(e[1]).contains("\"experimentId\":" + onA, "\"agentId\":" + idA)));

        // the experiment page and the text report name both agents and their hosts
        String page = one.get("/experiments/" + onA, "text/html").body();
        assertThat(page).contains("agent-a", "agent-b");
        String report = one.get("/api/v1/experiments/" + onA + "/report.txt", "text/plain").body();
        assertThat(report).contains("Ran on: agent-a on ", "Ran on: agent-b on ", "labels pool=loopback");
        assertThat(one.get("/agents", "text/html").body()).contains("agent-a", "LOST", "agent-b", "pool=loopback");
    }

    /** A service instance on {@code database}, without a built-in agent: the agents run everything. */
    private ConfigurableApplicationContext instance(String name, Map<String, String> database) throws IOException {
        Path dataDir = Files.createTempDirectory("perflab-agents-" + name);
        List<String> args = new ArrayList<>(List.of("--server.port=0", "--perflab.data-dir=" + dataDir,
                "--perflab.security.bootstrap-token=" + TOKEN, "--perflab.commands.enabled=true",
                "--perflab.agents.built-in=false", "--perflab.agents.heartbeat-interval=200ms",
                "--perflab.agents.heartbeat-timeout=" + HEARTBEAT_TIMEOUT.toMillis() + "ms",
                "--perflab.agents.long-poll=2s", "--logging.level.root=WARN"));
        database.forEach((key, value) -> args.add("--" + key + "=" + value));
        ConfigurableApplicationContext context = new SpringApplicationBuilder(PerfLabApplication.class)
                .run(args.toArray(String[]::new));
        instances.add(context);
        return context;
    }

    private static int port(ConfigurableApplicationContext context) {
        return Integer.parseInt(context.getEnvironment().getProperty("local.server.port"));
    }

    private static Map<String, Object> commandRequest(String name) {
        Map<String, Object> request = new LinkedHashMap<>();
        request.put("name", "agents " + name);
        request.put("kind", "command");
        request.put("withoutCommand", TRIAL);
        request.put("withCommand", TRIAL + " && true");
        request.put("runsPerVariant", RUNS_PER_VARIANT);
        request.put("maxFailures", 0);
        request.put("hostLabels", Map.of("pool", "loopback"));
        return request;
    }

    /** {@code perflab agent} in a JVM of its own, on this JVM's class path. */
    private Process startAgentProcess(int port, String token, String name) throws IOException {
        Path log = Files.createTempFile("perflab-agent-" + name, ".log");
        List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                PerfLabApplication.class.getName(), "agent", "--server", "http://localhost:" + port,
                "--token", token, "--labels", "pool=loopback", "--name", name, "--commands", "--poll-wait", "1");
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        processes.add(process);
        return process;
    }

    /** The same loop and client as {@code perflab agent}, on a thread of this JVM; returns its agent id. */
    private long startAgentThread(int port, String token, String name) {
        AgentLoop loop = new AgentLoop(new AgentClient(URI.create("http://localhost:" + port), token),
                new Registration(name, Map.of("pool", "loopback"), AgentHost.environment(), true, null, null),
                TrialLauncher.ofThisJvm(), new OutputMetricsReader(), 1, line -> { });
        loops.add(loop);
        Thread thread = new Thread(loop::run, name);
        thread.setDaemon(true);
        thread.start();
        await().atMost(Duration.ofSeconds(20)).until(() -> loop.agentId() > 0);
        return loop.agentId();
    }

    private static long awaitAgent(ApiClient api, String name) {
        long[] id = {-1};
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100)).until(() -> {
            for (JsonNode agent : api.getJson("/api/v1/agents?size=200").get("items")) {
                if (agent.get("name").asText().equals(name) && agent.get("status").asText().equals("IDLE")) {
                    id[0] = agent.get("id").asLong();
                    return true;
                }
            }
            return false;
        });
        return id[0];
    }

    private static long agentExperiment(ApiClient api, long agentId) throws Exception {
        JsonNode experiment = api.getJson("/api/v1/agents/" + agentId).get("experimentId");
        assertThat(experiment.isNull()).as("agent " + agentId + " runs an experiment").isFalse();
        return experiment.asLong();
    }

    private static int progress(ApiClient api, long id) throws Exception {
        return api.getJson("/api/v1/experiments/" + id).get("progress").get("completedRuns").asInt();
    }

    private static Map<Long, Integer> trialsPerAgent(ApiClient api, long id) throws Exception {
        Map<Long, Integer> trials = new LinkedHashMap<>();
        for (JsonNode agent : api.getJson("/api/v1/experiments/" + id).get("agents")) {
            trials.put(agent.get("agentId").asLong(), agent.get("trials").asInt());
        }
        return trials;
    }

    /** A claim of an experiment by an agent, from its start to its end. */
    record Claim(long experimentId, long agentId, Instant start, Instant end, String outcome) {
    }

    private static List<Claim> claims(JdbcClient jdbc) {
        return jdbc.sql("SELECT experiment_id, agent_id, claimed_at, ended_at, outcome FROM experiment_claim "
                        + "ORDER BY experiment_id, claim")
                .query((rs, n) -> new Claim(rs.getLong("experiment_id"), rs.getLong("agent_id"),
                        rs.getObject("claimed_at", OffsetDateTime.class).toInstant(),
                        rs.getObject("ended_at", OffsetDateTime.class).toInstant(), rs.getString("outcome")))
                .list();
    }

    /** Every event of the instance's stream of all experiments, as {name, data}, collected as they arrive. */
    private List<String[]> events(int port) {
        List<String[]> events = new CopyOnWriteArrayList<>();
        Thread reader = new Thread(() -> {
            try {
                HttpResponse<java.util.stream.Stream<String>> response = HttpClient.newHttpClient().send(
                        HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/api/v1/experiments/events"))
                                .header("Accept", "text/event-stream").build(),
                        HttpResponse.BodyHandlers.ofLines());
                String[] name = {""};
                response.body().forEach(line -> {
                    if (line.startsWith("event:")) {
                        name[0] = line.substring(6).strip();
                    } else if (line.startsWith("data:")) {
                        events.add(new String[] {name[0], line.substring(5).strip()});
                    }
                });
            } catch (IOException | InterruptedException e) {
                // the test ended, or the instance closed the stream
            }
        }, "events-" + port);
        reader.setDaemon(true);
        reader.start();
        streams.add(reader);
        await().atMost(Duration.ofSeconds(10)).until(() -> reader.isAlive());
        return events;
    }

    private static HttpResponse<String> post(int port, String token, String path, String body) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                .header("Content-Type", "application/json").header("Authorization", "Bearer " + token)
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** SIGKILL to the process and every process it started. */
    private static void kill(Process process) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
