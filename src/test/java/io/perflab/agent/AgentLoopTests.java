package io.perflab.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.perflab.agent.AgentProtocol.Registration;
import io.perflab.runner.experiment.TrialLauncher;
import io.perflab.upload.OutputMetricsReader;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@link AgentLoop} against a fake service that assigns a command experiment whatever the agent registered with, as
 * a compromised or misconfigured service could: an agent started without {@code --commands} runs no shell command.
 */
class AgentLoopTests {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final long AGENT = 7;
    private static final long EXPERIMENT = 42;

    @TempDir
    Path dir;

    private HttpServer server;
    private ExecutorService handlers;
    private final AtomicBoolean assigned = new AtomicBoolean();
    private final CountDownLatch finished = new CountDownLatch(1);
    /** Released when the test ends: polls after the first wait for it, as a long poll waits for an experiment. */
    private final CountDownLatch testEnded = new CountDownLatch(1);
    private final List<JsonNode> finishes = new CopyOnWriteArrayList<>();
    private final List<JsonNode> trials = new CopyOnWriteArrayList<>();
    private Path ranCommand;
    private volatile double heartbeatSeconds = 60;
    private volatile double heartbeatTimeoutSeconds = 180;
    private volatile String heartbeatAnswer = "{\"cancel\": false}";
    /** What heartbeats are answered: 200 with {@link #heartbeatAnswer}, or a refusal, as of a revoked token. */
    private volatile int heartbeatStatus = 200;
    private volatile boolean assigns = true;
    /** What the first poll answers; null: {@link #assignment()}. */
    private volatile String assignmentAnswer;
    private final AtomicInteger heartbeats = new AtomicInteger();
    /** Whether trial posts fail with a 500, as a service that cannot store them answers; each then asks a cancel. */
    private volatile boolean trialsFail;
    private final AtomicInteger failedTrialPosts = new AtomicInteger();
    /** Whether the polls of the first registration are answered 409, as to an agent the service declared lost. */
    private volatile boolean firstRegistrationLost;
    /** The statuses that the registrations after the first are answered with, in turn, before one is taken. */
    private final Queue<Integer> refusedRegistrations = new ConcurrentLinkedQueue<>();
    /** Registrations taken; the n-th gets agent id {@code AGENT + n - 1}. */
    private final AtomicInteger registered = new AtomicInteger();
    /** How many times the agent prepared its launcher to start the JVMs of engine trials fast. */
    private final AtomicInteger preparations = new AtomicInteger();
    /** What that preparation makes of the launcher. */
    private volatile UnaryOperator<TrialLauncher> preparation = launcher -> launcher;
    /** The agent {@link #run} runs. */
    private volatile AgentLoop agent;
    /** Polls received. */
    private final AtomicInteger polls = new AtomicInteger();
    /** How long a poll that is assigned nothing waits before it answers 204, unless the test ends first. */
    private volatile int pollHoldSeconds = 5;
    /** The ends of experiments and the leaves posted, in order: "finish" or "leave" and the agent's id. */
    private final List<String> posts = new CopyOnWriteArrayList<>();
    /** The command of {@link #assignment()}'s variants; null: one that leaves {@link #ranCommand} behind. */
    private volatile String command;
    /** What a leave is answered: 200, or a server error. */
    private volatile int leaveStatus = 200;

    @BeforeEach
    void fakeService() throws IOException {
        ranCommand = dir.resolve("the command ran");
        server = HttpServer.create(new InetSocketAddress("localhost", 0), 0);
        handlers = Executors.newCachedThreadPool();
        server.setExecutor(handlers);
        server.createContext("/api/v1/agents", this::answer);
        server.start();
    }

    @AfterEach
    void stopService() {
        testEnded.countDown();
        server.stop(0);
        handlers.shutdownNow();
    }

    @Test
    void anAgentStartedWithoutCommandsRunsNoCommandTheServiceAssignsAndFailsTheExperiment() throws Exception {
        List<String> log = new CopyOnWriteArrayList<>();

        runUntilFinished(false, log::add);

        assertThat(finishes).singleElement().satisfies(finish -> {
            assertThat(finish.get("outcome").asString()).isEqualTo("FAILED");
            assertThat(finish.get("message").asString()).isEqualTo("this agent does not run commands (it was "
                    + "started without --commands), so it ran nothing of this command experiment");
        });
        assertThat(ranCommand).doesNotExist();
        assertThat(trials).isEmpty();
        assertThat(log).anySatisfy(line -> assertThat(line).contains("experiment 42 'sneaky' refused")
                .contains("does not run commands"));
    }

    /** The same assignment, to an agent that runs commands: it does run, so the refusal above is the agent's. */
    @Test
    void anAgentStartedWithCommandsRunsThem() throws Exception {
        runUntilFinished(true, line -> { });

        assertThat(ranCommand).exists();
        assertThat(trials).hasSize(4);
        assertThat(finishes).singleElement()
                .satisfies(finish -> assertThat(finish.get("outcome").asString()).isEqualTo("COMPLETED"));
    }

    /** A command experiment starts no trial JVM: the agent extracted the jar and made the archive for nothing. */
    @Test
    void aCommandExperimentLeavesTheLauncherOfTrialJvmsUnprepared() throws Exception {
        runUntilFinished(true, line -> { });

        assertThat(ranCommand).exists();
        assertThat(preparations).hasValue(0);
    }

    @Test
    void anEngineExperimentRunsItsTrialsWithTheLauncherPreparedForThem() throws Exception {
        assignmentAnswer = engineAssignment();
        preparation = launcher -> new TrialLauncher(List.of("-cp", dir.toString(), "PreparedTrialMain"));

        runUntilFinished(false, line -> { });

        assertThat(preparations).hasValue(1);
        assertThat(trials).isNotEmpty().allSatisfy(trial -> assertThat(trial.get("environment").get("command")
                .asString()).contains("PreparedTrialMain"));
    }

    /**
     * Preparing the launcher may take minutes (making the archive): an agent stopped meanwhile hands the experiment
     * back at once, as it would during a trial, rather than run it until the JVM halts.
     */
    @Test
    void anAgentStoppedWhileItPreparesTheLauncherHandsTheExperimentBackUnrun() throws Exception {
        assignmentAnswer = engineAssignment();
        preparation = launcher -> {
            agent.stop();
            return new TrialLauncher(List.of("-cp", dir.toString(), "PreparedTrialMain"));
        };

        runUntilFinished(false, line -> { });

        assertThat(trials).isEmpty();
        assertThat(finishes).singleElement().satisfies(finish -> {
            assertThat(finish.get("outcome").asString()).isEqualTo("INTERRUPTED");
            assertThat(finish.get("message").asString()).isEqualTo("the agent was stopped");
        });
    }

    /**
     * An assignment the agent cannot turn into a plan (a service of another version, a bug) ended the experiment
     * with the JVM's words: "the agent could not run it: Cannot invoke …AssignedVariant.toVariant(…) because
     * "this.without" is null", or Jackson's for a workload that is not JSON, shown on the experiment's page.
     */
    @Test
    void anAssignmentThatCannotBeRunFailsItsExperimentSayingWhatIsMissing() throws Exception {
        String engine = """
                {"experimentId": 42, "name": "odd", "kind": "ENGINE", "design": "fresh", "runsPerVariant": 2,
                 "order": "interleaved", "seed": 1, "trialTimeoutSeconds": 30, "maxFailures": 1,
                 "windowsPerPair": 1, "workload": WORKLOAD, "without": WITHOUT, "with": {"options": {}},
                 "pendingOrdinals": [0, 1, 2, 3], "pendingPairs": []}""";
        assignmentAnswer = engine.replace("WORKLOAD", "null").replace("WITHOUT", "null");

        runUntilFinished(false, line -> { });

        assertThat(finishes).singleElement().satisfies(finish -> {
            assertThat(finish.get("outcome").asString()).isEqualTo("FAILED");
            assertThat(finish.get("message").asString()).isEqualTo("the agent could not run it: the assignment "
                    + "has no 'without' variant");
        });
    }

    /**
     * An assignment the agent cannot read at all (a service of another version) was logged as a failed poll and
     * polled again: the service, which had given the experiment to this agent, answered 409, the agent registered
     * again, and the experiment waited until the old registration was declared lost, to be handed to the next agent.
     */
    @Test
    void anAssignmentThatCannotBeReadFailsItsExperimentNamingTheField() throws Exception {
        assignmentAnswer = """
                {"experimentId": 42, "name": "newer", "kind": "ENGINE", "design": "fresh", "runsPerVariant": "2",
                 "pendingOrdinals": [0, 1, 2, 3], "pendingPairs": []}""".replace("\"2\"", "\"two\"");

        runUntilFinished(false, line -> { });

        assertThat(finishes).singleElement().satisfies(finish -> {
            assertThat(finish.get("outcome").asString()).isEqualTo("FAILED");
            assertThat(finish.get("message").asString()).startsWith("this agent cannot read its assignment (is it "
                    + "of the service's version?): the service's answer to /api/v1/agents/7/poll").contains(
                    "runsPerVariant");
        });
        assertThat(trials).isEmpty();
    }

    @Test
    void anAssignmentWhoseWorkloadCannotBeReadFailsItsExperimentNamingTheField() throws Exception {
        assignmentAnswer = """
                {"experimentId": 42, "name": "odd", "kind": "ENGINE", "design": "fresh", "runsPerVariant": 2,
                 "order": "interleaved", "seed": 1, "trialTimeoutSeconds": 30, "maxFailures": 1,
                 "windowsPerPair": 1, "workload": "{\\"clientThreads\\": \\"many\\"}",
                 "without": {"options": {}}, "with": {"options": {}},
                 "pendingOrdinals": [0, 1, 2, 3], "pendingPairs": []}""";

        runUntilFinished(false, line -> { });

        assertThat(finishes).singleElement().satisfies(finish -> {
            assertThat(finish.get("outcome").asString()).isEqualTo("FAILED");
            assertThat(finish.get("message").asString()).startsWith("the agent could not run it: the assignment's "
                    + "workload cannot be read: clientThreads: ").doesNotContain("`", "java");
        });
        assertThat(trials).isEmpty();
    }

    /**
     * A heartbeat answered with a field of the wrong type (a proxy's page, a service of another version) threw out
     * of the heartbeat task, and a scheduled task that throws never runs again: the agent stopped heartbeating for
     * good, and the service declared it lost and interrupted its experiment.
     */
    @Test
    void heartbeatsGoOnAfterAnAnswerThatIsNotAHeartbeatsAnswer() throws Exception {
        heartbeatSeconds = 0.05;
        heartbeatAnswer = "{\"cancel\": \"no\"}";

        List<String> log = runUntilFiveHeartbeats();

        assertThat(log).anySatisfy(line -> assertThat(line).startsWith("heartbeat failed: the service's answer to "
                + "/api/v1/agents/7/heartbeat is not what an agent expects: cancel: must be true or false"));
    }

    /** A service that asks for heartbeats further apart than its own timeout gets three within that timeout. */
    @Test
    void heartbeatsComeWithinTheServicesTimeoutWhateverItAsks() throws Exception {
        heartbeatSeconds = 60;
        heartbeatTimeoutSeconds = 0.6;

        List<String> log = runUntilFiveHeartbeats();

        assertThat(log).anySatisfy(line -> assertThat(line).endsWith("; heartbeat every 0.2 s"));
    }

    /**
     * A trial the service cannot store answers 500 (a database that refuses its text), which the agent takes for a
     * passing failure and retries: it retried for good, heartbeating all the while, so that the experiment stayed
     * RUNNING, and a user's cancel, which reached it, did not end the run. A cancelled run gives up the post.
     */
    @Test
    void aTrialPostThatKeepsFailingIsGivenUpOnceAUserCancelsTheRun() throws Exception {
        heartbeatSeconds = 0.05;
        trialsFail = true;
        List<String> log = new CopyOnWriteArrayList<>();

        runUntilFinished(true, log::add);

        assertThat(finishes).singleElement()
                .satisfies(finish -> assertThat(finish.get("outcome").asString()).isEqualTo("CANCELLED"));
        assertThat(failedTrialPosts.get()).isPositive();
        assertThat(trials).isEmpty();
        assertThat(log).anySatisfy(line -> assertThat(line).matches("trial \\d of experiment 42 is not posted: "
                + "a user cancelled it"));
    }

    /**
     * A user's cancel in the first trial: its end said "cancelled after 1 of 4 trials", counting the trial it cut
     * short, which is no result, while the experiment's progress said 0 of 4.
     */
    @Test
    void aCancelledRunsEndCountsTheTrialsStoredNotTheOneCutShort() throws Exception {
        heartbeatSeconds = 0.05;
        command = "touch '" + ranCommand + "' && sleep 60";
        List<String> log = new CopyOnWriteArrayList<>();

        run(true, log::add, () -> {
            await().atMost(Duration.ofSeconds(30)).until(() -> java.nio.file.Files.exists(ranCommand));
            heartbeatAnswer = "{\"cancel\": true}";
            assertThat(finished.await(30, TimeUnit.SECONDS)).as("the agent posted the experiment's end").isTrue();
        });

        assertThat(finishes).singleElement().satisfies(finish -> {
            assertThat(finish.get("outcome").asString()).isEqualTo("CANCELLED");
            assertThat(finish.get("message").asString()).isEqualTo("cancelled after 0 of 4 trials");
        });
        assertThat(trials).extracting(trial -> trial.get("status").asString()).containsOnly("CANCELLED");
    }

    /**
     * An idle agent whose token was revoked logged "the service refused the heartbeat (… revoked …); dropping the
     * experiment" at every heartbeat until its poll was refused too, holding no experiment. It says so once, that it
     * holds none, and sends no further heartbeat; then its registration is refused and it ends.
     */
    @Test
    void anIdleAgentWhoseHeartbeatIsRefusedSaysSoOnceAndThatItHoldsNoExperiment() throws Exception {
        assigns = false;
        heartbeatSeconds = 0.05;
        heartbeatStatus = 401;
        pollHoldSeconds = 1;
        refusedRegistrations.add(401);
        List<String> log = new CopyOnWriteArrayList<>();

        assertThatThrownBy(agent(false, log::add)::run).isInstanceOf(AgentClient.Refused.class);

        assertThat(log.stream().filter(line -> line.contains("refused the heartbeat"))).singleElement()
                .isEqualTo("the service refused the heartbeat (the service answered 401: The bearer token 'bench' "
                        + "(plt_abcdef…) was revoked at 2026-01-01T00:00:00Z); this agent holds no experiment");
        assertThat(heartbeats).as("none after the refusal").hasValue(1);
    }

    /** One that runs an experiment says which it drops, once, and posts no end of it: it is not its to end. */
    @Test
    void aRunningAgentWhoseHeartbeatIsRefusedDropsItsExperimentSayingSoOnce() throws Exception {
        heartbeatSeconds = 0.05;
        command = "touch '" + ranCommand + "' && sleep 60";
        refusedRegistrations.add(401);
        List<String> log = new CopyOnWriteArrayList<>();
        AgentLoop refused = agent(true, log::add);
        java.util.concurrent.Future<?> running = handlers.submit(refused::run);
        await().atMost(Duration.ofSeconds(30)).until(() -> java.nio.file.Files.exists(ranCommand));

        heartbeatStatus = 401;

        assertThatThrownBy(() -> running.get(30, TimeUnit.SECONDS)).hasCauseInstanceOf(AgentClient.Refused.class);
        assertThat(log.stream().filter(line -> line.contains("refused the heartbeat"))).singleElement()
                .satisfies(line -> assertThat(line).endsWith("; dropping experiment " + EXPERIMENT));
        assertThat(log).contains("experiment " + EXPERIMENT + " dropped: the service refused this agent's heartbeat");
        assertThat(finishes).isEmpty();
    }

    /**
     * An agent the service declared lost registers again; when that registration failed once (the service
     * restarting, a proxy's 502), the agent ended as if stopped, and perflab agent exited 0, running nothing.
     */
    @Test
    void anAgentDeclaredLostRegistersAgainUntilTheServiceTakesIt() throws Exception {
        assigns = false;
        firstRegistrationLost = true;
        refusedRegistrations.addAll(List.of(503, 502));
        List<String> log = new CopyOnWriteArrayList<>();

        run(false, log::add, () -> await().atMost(Duration.ofSeconds(20)).until(() -> registered.get() == 2));

        assertThat(refusedRegistrations).as("both failed registrations were tried").isEmpty();
        assertThat(log).anySatisfy(line -> assertThat(line).startsWith("registered as agent " + (AGENT + 1)));
    }

    /** A registration refused outright (a revoked token) ends the agent with the service's reason, at any time. */
    @Test
    void anAgentDeclaredLostWhoseRegistrationIsRefusedEndsSayingWhy() {
        assigns = false;
        firstRegistrationLost = true;
        refusedRegistrations.add(401);

        assertThatThrownBy(agent(false, line -> { })::run).isInstanceOf(AgentClient.Refused.class)
                .hasMessage("the service answered 401: registration answered 401");
        assertThat(registered.get()).isEqualTo(1);
    }

    /**
     * An idle agent waits in a long poll; a stop went unnoticed until the poll's wait ended (20 s by default), and the
     * service learnt that the agent was gone only when its heartbeat timed out. The stop cuts the poll short, and the
     * agent tells the service it leaves.
     */
    @Test
    void anIdleAgentStoppedDuringALongPollEndsAtOnceAndLeaves() throws Exception {
        assigns = false;
        pollHoldSeconds = 60;
        List<String> log = new CopyOnWriteArrayList<>();
        agent = agent(false, log::add, 60);
        Thread running = new Thread(agent::run, "agent under test");
        running.start();
        await().atMost(Duration.ofSeconds(20)).until(() -> polls.get() >= 1);
        Thread.sleep(200); // well inside the poll's wait of 60 s

        long stoppedAt = System.nanoTime();
        agent.stop();

        assertThat(agent.awaitEnd(Duration.ofSeconds(2))).as("ended within moments of the stop").isTrue();
        assertThat(Duration.ofNanos(System.nanoTime() - stoppedAt)).isLessThan(Duration.ofSeconds(2));
        running.join(10_000);
        assertThat(running.isAlive()).isFalse();
        assertThat(polls).as("polled no more").hasValue(1);
        assertThat(posts).containsExactly("leave " + AGENT);
        assertThat(log).noneSatisfy(line -> assertThat(line).startsWith("cannot poll"))
                .anySatisfy(line -> assertThat(line).isEqualTo("agent " + AGENT + " left " + serverUri()));
    }

    /** A stop while an experiment runs hands it back as INTERRUPTED, as before, and then leaves. */
    @Test
    void anAgentStoppedWhileItRunsAnExperimentHandsItBackThenLeaves() throws Exception {
        command = "touch '" + ranCommand + "' && sleep 60";
        List<String> log = new CopyOnWriteArrayList<>();
        agent = agent(true, log::add, 60);
        Thread running = new Thread(agent::run, "agent under test");
        running.start();
        await().atMost(Duration.ofSeconds(30)).until(() -> java.nio.file.Files.exists(ranCommand));

        agent.stop();

        assertThat(agent.awaitEnd(Duration.ofSeconds(30))).isTrue();
        running.join(10_000);
        assertThat(finishes).singleElement().satisfies(finish -> {
            assertThat(finish.get("outcome").asString()).isEqualTo("INTERRUPTED");
            assertThat(finish.get("message").asString()).isEqualTo("the agent was stopped");
        });
        assertThat(posts).containsExactly("finish " + AGENT, "leave " + AGENT);
        assertThat(log).anySatisfy(line -> assertThat(line).isEqualTo("agent " + AGENT + " left " + serverUri()));
    }

    /** A service that cannot be told of the leave costs the agent nothing but a line of its log. */
    @Test
    void aLeaveTheServiceRefusesIsLoggedAndTheAgentEndsAllTheSame() throws Exception {
        assigns = false;
        leaveStatus = 503;
        List<String> log = new CopyOnWriteArrayList<>();

        run(false, log::add, () -> await().atMost(Duration.ofSeconds(20)).until(() -> polls.get() >= 1));

        assertThat(posts).containsExactly("leave " + AGENT);
        assertThat(log).anySatisfy(line -> assertThat(line).startsWith("cannot tell " + serverUri() + " that agent "
                + AGENT + " leaves (the service answered 503").endsWith("; the service finds it lost when its "
                + "heartbeat times out"));
    }

    private URI serverUri() {
        return URI.create("http://localhost:" + server.getAddress().getPort());
    }

    /** Runs an agent that is assigned nothing until the service has had five heartbeats; what it logged. */
    private List<String> runUntilFiveHeartbeats() throws Exception {
        assigns = false;
        List<String> log = new CopyOnWriteArrayList<>();
        run(false, log::add, () -> await().atMost(Duration.ofSeconds(20)).until(() -> heartbeats.get() >= 5));
        return log;
    }

    private void runUntilFinished(boolean runsCommands, Consumer<String> log) throws Exception {
        run(runsCommands, log, () -> assertThat(finished.await(60, TimeUnit.SECONDS))
                .as("the agent posted the experiment's end").isTrue());
    }

    /** Runs an agent against the fake service until {@code until} returns, then stops it. */
    private void run(boolean runsCommands, Consumer<String> log, Waiting until) throws Exception {
        agent = agent(runsCommands, log);
        Thread running = new Thread(agent::run, "agent under test");
        running.start();
        try {
            until.await();
        } finally {
            agent.stop();
            testEnded.countDown();
            assertThat(agent.awaitEnd(Duration.ofSeconds(30))).isTrue();
            running.join(10_000);
        }
    }

    private AgentLoop agent(boolean runsCommands, Consumer<String> log) {
        return agent(runsCommands, log, 1);
    }

    private AgentLoop agent(boolean runsCommands, Consumer<String> log, int pollWaitSeconds) {
        return new AgentLoop(new AgentClient(serverUri(), "plt_agent"),
                new Registration("host", Map.of(), Map.of("host", "test"), runsCommands, null, null),
                TrialLauncher.ofThisJvm(), launcher -> {
                    preparations.incrementAndGet();
                    return preparation.apply(launcher);
                }, new OutputMetricsReader(), pollWaitSeconds, List.of(), log::accept);
    }

    private void answer(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath();
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        try {
            Integer refused = path.equals("/api/v1/agents") && registered.get() > 0 ? refusedRegistrations.poll()
                    : null;
            if (refused != null) {
                send(exchange, refused, "{\"detail\": \"registration answered " + refused + "\"}");
            } else if (path.equals("/api/v1/agents")) {
                send(exchange, 201, "{\"agentId\": " + (AGENT + registered.getAndIncrement()) + ", "
                        + "\"heartbeatSeconds\": " + heartbeatSeconds + ", "
                        + "\"heartbeatTimeoutSeconds\": " + heartbeatTimeoutSeconds + "}");
            } else if (path.equals("/api/v1/agents/" + AGENT + "/poll") && firstRegistrationLost) {
                send(exchange, 409, "{\"detail\": \"agent " + AGENT + " was declared lost. Register again.\"}");
            } else if (path.endsWith("/poll")) {
                polls.incrementAndGet();
                if (assigns && assigned.compareAndSet(false, true)) {
                    send(exchange, 200, assignmentAnswer != null ? assignmentAnswer : assignment());
                } else {
                    testEnded.await(pollHoldSeconds, TimeUnit.SECONDS);
                    send(exchange, 204, null);
                }
            } else if (path.endsWith("/heartbeat")) {
                heartbeats.incrementAndGet();
                send(exchange, heartbeatStatus, heartbeatStatus == 200 ? heartbeatAnswer : "{\"detail\": \"The "
                        + "bearer token 'bench' (plt_abcdef…) was revoked at 2026-01-01T00:00:00Z\"}");
            } else if (path.endsWith("/trials") && trialsFail) {
                failedTrialPosts.incrementAndGet();
                // a user, seeing the experiment make no progress, cancels it
                heartbeatAnswer = "{\"cancel\": true}";
                send(exchange, 500, "{\"detail\": \"invalid byte sequence for encoding UTF8: 0x00\"}");
            } else if (path.endsWith("/trials")) {
                trials.add(JSON.readTree(body));
                send(exchange, 201, "{\"stored\": true, \"cancel\": false}");
            } else if (path.endsWith("/finish")) {
                posts.add("finish " + agentOf(path));
                finishes.add(JSON.readTree(body));
                send(exchange, 204, null);
                finished.countDown();
            } else if (path.endsWith("/leave")) {
                posts.add("leave " + agentOf(path));
                send(exchange, leaveStatus, leaveStatus == 200 ? "{\"id\": " + agentOf(path) + ", \"status\": "
                        + "\"LEFT\"}" : "{\"detail\": \"the database is down\"}");
            } else {
                send(exchange, 404, "{\"detail\": \"no " + path + " here\"}");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            send(exchange, 204, null);
        }
    }

    /** The agent id in {@code path}, {@code /api/v1/agents/ID/…}. */
    private static String agentOf(String path) {
        return path.split("/")[4];
    }

    /** A command experiment of two runs per variant whose command leaves a file behind. */
    private String assignment() {
        String command = JSON.writeValueAsString(this.command != null ? this.command : "touch '" + ranCommand + "'");
        return """
                {"experimentId": %d, "name": "sneaky", "kind": "COMMAND", "design": "fresh", "runsPerVariant": 2,
                 "order": "interleaved", "seed": 1, "trialTimeoutSeconds": 30, "maxFailures": 1,
                 "windowsPerPair": 1, "workload": null, "without": {"command": %s}, "with": {"command": %s},
                 "pendingOrdinals": [0, 1, 2, 3], "pendingPairs": []}""".formatted(EXPERIMENT, command, command);
    }

    /** An engine experiment of two trials per variant, stopped by its first failed trial. */
    private static String engineAssignment() {
        return """
                {"experimentId": %d, "name": "engine", "kind": "ENGINE", "design": "fresh", "runsPerVariant": 2,
                 "order": "interleaved", "seed": 1, "trialTimeoutSeconds": 30, "maxFailures": 0,
                 "windowsPerPair": 1, "workload": null, "without": {"options": {}}, "with": {"options": {}},
                 "pendingOrdinals": [0, 1, 2, 3], "pendingPairs": []}""".formatted(EXPERIMENT);
    }

    private static void send(HttpExchange exchange, int status, String json) throws IOException {
        if (json == null) {
            exchange.sendResponseHeaders(status, -1);
        } else {
            byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(status, bytes.length);
            exchange.getResponseBody().write(bytes);
        }
        exchange.close();
    }

    /** A wait that may throw, as a latch's or Awaitility's. */
    private interface Waiting {
        void await() throws Exception;
    }
}
