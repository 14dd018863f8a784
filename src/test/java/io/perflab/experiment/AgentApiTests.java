package io.perflab.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.perflab.agent.HostLabels;
import io.perflab.agent.HostPlatform;
import io.perflab.display.Format;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.CookieManager;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * {@code /api/v1/agents} on one service with its built-in agent, driven by hand as an agent would: who may act as
 * one, claiming by host labels, trials posted once however often they are posted, and every bad message refused
 * with the field named and nothing stored. The experiments here ask for host labels the built-in agent lacks, so
 * only the agents of the test run them.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class AgentApiTests {

    static final String TOKEN = "agent-api-tests-token";

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) throws IOException {
        String dir = Files.createTempDirectory("perflab-agent-api").toString();
        registry.add("perflab.data-dir", () -> dir);
        registry.add("perflab.security.bootstrap-token", () -> TOKEN);
        registry.add("perflab.commands.enabled", () -> "true");
    }

    @LocalServerPort
    int port;

    @Value("${perflab.data-dir}")
    Path dataDir;

    @Autowired
    JdbcClient jdbc;

    private static final AtomicInteger TOKENS = new AtomicInteger();

    /** The platform the agents of these tests register, unless a test says another. */
    private static final HostPlatform LINUX = new HostPlatform("Linux", "amd64");

    ApiClient admin;
    String agentToken;
    long agentTokenId;
    String agentTokenName;

    @BeforeEach
    void tokens() throws Exception {
        admin = new ApiClient(port, TOKEN);
        // a token's name is unique among live tokens: one per test
        HttpResponse<String> created = admin.post("/api/v1/tokens", Map.of("name", "bench " + TOKENS.incrementAndGet(),
                "role", "agent"));
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        assertThat(admin.read(created.body()).get("role").asText()).isEqualTo("AGENT");
        agentToken = admin.read(created.body()).get("token").asText();
        agentTokenId = admin.read(created.body()).get("id").asLong();
        agentTokenName = admin.read(created.body()).get("name").asText();
    }

    @Test
    void onlyAgentTokensAndAdminsActAsAgentsAndAgentTokensDoNothingElse() throws Exception {
        String userToken = admin.read(admin.post("/api/v1/tokens", Map.of("name", "ci")).body()).get("token").asText();

        HttpResponse<String> userRegisters = send(userToken, "/api/v1/agents", registration("x", "pool=a"));
        assertThat(userRegisters.statusCode()).isEqualTo(403);
        // what the refusing rule asks for, not always an administrator
        assertThat(admin.read(userRegisters.body()).get("detail").asText()).isEqualTo("Your credentials do not "
                + "allow this request: it needs an agent (a token of role agent) or an administrator.");
        assertThat(send(null, "/api/v1/agents", registration("x", "pool=a")).statusCode()).isEqualTo(401);
        assertThat(send(agentToken, "/api/v1/agents", registration("x", "pool=a")).statusCode()).isEqualTo(201);
        HttpResponse<String> agentQueues = send(agentToken, "/api/v1/experiments", "{\"name\": \"nope\"}");
        assertThat(agentQueues.statusCode()).isEqualTo(403);
        assertThat(admin.read(agentQueues.body()).get("detail").asText()).isEqualTo("Your credentials do not "
                + "allow this request: it needs a user (signed in, or a token of role user) or an administrator.");
        assertThat(agentQueues.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("application/problem+json"));
        HttpResponse<String> badRole = admin.post("/api/v1/tokens", Map.of("name", "x", "role", "root"));
        assertThat(badRole.statusCode()).isEqualTo(400);
        assertThat(badRole.body()).contains("role: 'root' is not a token role");
    }

    /**
     * Another agent token could heartbeat, poll, post trials into and finish the experiment of an agent it did not
     * register (or of the service's built-in agent) by using its id.
     */
    @Test
    void anAgentActsOnlyWithTheTokenItRegisteredWith() throws Exception {
        String otherToken = admin.read(admin.post("/api/v1/tokens", Map.of("name", "other bench", "role", "agent"))
                .body()).get("token").asText();
        long agent = register("owned", "pool=owned");
        long id = admin.create(command("owned", Map.of("pool", "owned")));
        assertThat(poll(agent, 0).statusCode()).isEqualTo(200);
        String base = "/api/v1/agents/" + agent;

        for (HttpResponse<String> foreign : List.of(send(otherToken, base + "/heartbeat", ""),
                send(otherToken, base + "/poll?waitSeconds=0", ""),
                send(otherToken, base + "/experiments/" + id + "/trials", trial("without", 0)),
                send(otherToken, base + "/experiments/" + id + "/finish", "{\"outcome\": \"FAILED\"}"),
                // a malformed body is not read before the owner is checked (it answered 400)
                send(otherToken, base + "/experiments/" + id + "/trials", "{\"variant\": [1, 2"),
                send(otherToken, base + "/experiments/" + id + "/pairs", "{\"index\": \"x\"}"),
                send(otherToken, base + "/experiments/" + id + "/finish", "not json"),
                // nor make it leave, which would interrupt its experiment
                send(otherToken, base + "/leave", ""))) {
            assertThat(foreign.statusCode()).as(foreign.body()).isEqualTo(403);
            assertThat(foreign.body()).contains("agent " + agent + " is not this token's")
                    .doesNotContain("java.", "Exception");
        }
        assertThat(jdbc.sql("SELECT COUNT(*) FROM trial_run WHERE experiment_id = ?").param(id).query(Long.class)
                .single()).isZero();
        assertThat(admin.status(id)).isEqualTo("RUNNING");

        long builtIn = -1;
        for (JsonNode listed : admin.getJson("/api/v1/agents?size=200").get("items")) {
            builtIn = listed.get("builtIn").asBoolean() ? listed.get("id").asLong() : builtIn;
        }
        assertThat(builtIn).isPositive();
        assertThat(send(agentToken, "/api/v1/agents/" + builtIn + "/heartbeat", "").statusCode())
                .as("no agent token acts as the built-in agent").isEqualTo(403);
        assertThat(send(agentToken, "/api/v1/agents/" + builtIn + "/leave", "").statusCode()).isEqualTo(403);
        HttpResponse<String> builtInLeaves = send(TOKEN, "/api/v1/agents/" + builtIn + "/leave", "");
        assertThat(builtInLeaves.statusCode()).as("a built-in agent stops with its service").isEqualTo(409);
        assertThat(builtInLeaves.body()).contains("stops with its service");
        assertThat(send(agentToken, "/api/v1/agents/999999999/leave", "").statusCode()).isEqualTo(404);
        assertThat(send(agentToken, base + "/experiments/" + id + "/trials", trial("without", 0)).statusCode())
                .isEqualTo(201);
        assertThat(send(TOKEN, base + "/heartbeat", "").statusCode()).as("an admin acts for any agent")
                .isEqualTo(200);
    }

    /**
     * An agent was its token's by the token's name, and a revoked token's name is free: a token created again with
     * that name heartbeat, posted trials into and finished the experiment of the revoked token's agent. A token is
     * told by its id.
     */
    @Test
    void aNewTokenWithARevokedTokensNameDoesNotActAsItsAgents() throws Exception {
        long agent = register("revoked token's", "pool=renamed");
        long id = admin.create(command("held by a revoked token's agent", Map.of("pool", "renamed")));
        assertThat(poll(agent, 0).statusCode()).isEqualTo(200);
        assertThat(admin.post("/api/v1/tokens/" + agentTokenId + "/revoke", "").statusCode()).isEqualTo(200);
        HttpResponse<String> created = admin.post("/api/v1/tokens", Map.of("name", agentTokenName, "role", "agent"));
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        String sameName = admin.read(created.body()).get("token").asText();
        String base = "/api/v1/agents/" + agent;

        for (HttpResponse<String> foreign : List.of(send(sameName, base + "/heartbeat", ""),
                send(sameName, base + "/poll?waitSeconds=0", ""),
                send(sameName, base + "/experiments/" + id + "/trials", trial("without", 0)),
                send(sameName, base + "/experiments/" + id + "/finish", "{\"outcome\": \"FAILED\"}"),
                send(sameName, base + "/leave", ""))) {
            assertThat(foreign.statusCode()).as(foreign.body()).isEqualTo(403);
            assertThat(foreign.body()).contains("agent " + agent + " is not this token's");
        }
        assertThat(jdbc.sql("SELECT COUNT(*) FROM trial_run WHERE experiment_id = ?").param(id).query(Long.class)
                .single()).isZero();
        assertThat(admin.status(id)).isEqualTo("RUNNING");
        assertThat(admin.getJson(base).get("registeredBy").asText()).as("the name, for people")
                .isEqualTo("token:" + agentTokenName);

        // the new token's own agent is its, and an administrator still acts for any agent
        agentToken = sameName;
        long own = register("new token's", "pool=renamed-own");
        assertThat(send(sameName, "/api/v1/agents/" + own + "/heartbeat", "").statusCode()).isEqualTo(200);
        assertThat(send(TOKEN, base + "/experiments/" + id + "/finish", "{\"outcome\": \"FAILED\"}").statusCode())
                .isEqualTo(200);
        assertThat(admin.status(id)).isEqualTo("FAILED");
    }

    @Test
    void anAgentClaimsOnlyExperimentsWhoseLabelsItsHostCarriesAndEachOnce() throws Exception {
        long wrong = register("wrong host", "pool=other");
        long right = register("right host", "pool=claims,arch=x86_64");
        long id = admin.create(command("labelled", Map.of("pool", "claims")));

        assertThat(poll(wrong, 0).statusCode()).as("labels it lacks").isEqualTo(204);
        HttpResponse<String> claimed = poll(right, 0);
        assertThat(claimed.statusCode()).as(claimed.body()).isEqualTo(200);
        JsonNode assignment = admin.read(claimed.body());
        assertThat(assignment.get("experimentId").asLong()).isEqualTo(id);
        assertThat(assignment.get("pendingOrdinals")).hasSize(4);
        assertThat(assignment.get("without").get("command").asText()).isEqualTo("true");
        assertThat(admin.status(id)).isEqualTo("RUNNING");
        assertThat(admin.getJson("/api/v1/agents/" + right).get("experimentId").asLong()).isEqualTo(id);
        assertThat(admin.getJson("/api/v1/experiments/" + id).get("hostLabels").get("pool").asText())
                .isEqualTo("claims");

        long twin = register("twin host", "pool=claims,arch=x86_64");
        assertThat(poll(twin, 0).statusCode()).as("never one experiment on two agents").isEqualTo(204);
        // the answer to the poll that claimed it may be lost on its way (a proxy's 502, the agent's timeout): the
        // agent polls again and is told the same, where it was answered 409, registered again, and the experiment
        // waited on the old registration until it was found lost and interrupted
        HttpResponse<String> again = poll(right, 0);
        assertThat(again.statusCode()).as(again.body()).isEqualTo(200);
        assertThat(admin.read(again.body())).isEqualTo(assignment);
        assertThat(store.claims(id)).hasSize(1);
        assertThat(send(agentToken, "/api/v1/agents/" + right + "/experiments/" + id + "/trials",
                trial("without", 0)).statusCode()).isEqualTo(201);
        HttpResponse<String> running = poll(right, 0);
        assertThat(running.statusCode()).as("never two experiments on one agent").isEqualTo(409);
        assertThat(running.body()).contains("still runs experiment " + id, "has posted trials of it");
    }

    @Test
    void aTrialPostedTwiceIsStoredOnceAndTheRunCompletesOnlyWithEveryTrial() throws Exception {
        long agent = register("poster", "pool=posts");
        long id = admin.create(command("posted", Map.of("pool", "posts")));
        JsonNode assignment = admin.read(poll(agent, 0).body());
        String base = "/api/v1/agents/" + agent + "/experiments/" + id;

        // a retry is the same body, its times too
        String posted = recent(trial("without", 0));
        HttpResponse<String> first = send(agentToken, base + "/trials", posted);
        HttpResponse<String> retry = send(agentToken, base + "/trials", posted);
        assertThat(first.statusCode()).as(first.body()).isEqualTo(201);
        assertThat(retry.statusCode()).as(retry.body()).isEqualTo(200);
        assertThat(admin.read(retry.body()).get("stored").asBoolean()).isFalse();
        assertThat(jdbc.sql("SELECT COUNT(*) FROM trial_run WHERE experiment_id = ?").param(id).query(Long.class)
                .single()).isEqualTo(1);

        HttpResponse<String> early = send(agentToken, base + "/finish", "{\"outcome\": \"COMPLETED\"}");
        assertThat(early.statusCode()).isEqualTo(400);
        assertThat(early.body()).contains("outcome", "ordinals [1, 2, 3] are not stored");

        JsonNode pending = assignment.get("pendingOrdinals");
        for (int i = 1; i < pending.size(); i++) {
            assertThat(send(agentToken, base + "/trials", trial(i % 2 == 1 ? "with" : "without", i)).statusCode())
                    .isEqualTo(201);
        }
        assertThat(send(agentToken, base + "/finish", "{\"outcome\": \"COMPLETED\"}").statusCode()).isEqualTo(200);

        JsonNode done = admin.getJson("/api/v1/experiments/" + id);
        assertThat(done.get("status").asText()).isEqualTo("COMPLETED");
        assertThat(done.get("progress").get("completedRuns").asInt()).isEqualTo(4);
        assertThat(done.get("agents")).hasSize(1);
        assertThat(done.get("agents").get(0).get("name").asText()).isEqualTo("poster");
        assertThat(done.get("agents").get(0).get("trials").asInt()).isEqualTo(4);
        assertThat(jdbc.sql("SELECT COUNT(DISTINCT agent_id) FROM trial_run WHERE experiment_id = ? "
                + "AND agent_id = ?").params(id, agent).query(Long.class).single()).isEqualTo(1);
        assertThat(send(agentToken, base + "/trials", trial("with", 1)).statusCode())
                .as("a finished experiment takes no more trials").isEqualTo(409);
        assertThat(admin.get("/api/v1/experiments/" + id + "/report.md", "text/markdown").body())
                .contains("Ran on poster on test-host (test CPU), labels pool=posts: 4 trials");
        assertThat(admin.get("/api/v1/experiments/" + id + "/report.html", "text/html").body())
                .contains("Ran on poster on test-host (test CPU), labels pool=posts: 4 trials");
        assertThat(admin.get("/experiments/" + id, "text/html").body()).contains("poster", "test-host", "test CPU",
                "pool=posts");
    }

    /**
     * A trial or pair posted again with other values (ordinal 0 with another figure, a pair with one window's value
     * changed) was answered 200, stored: false, and dropped: the agent learnt nothing of it. A retry is the same body
     * and is answered so; another body is refused with 409 naming the ordinal or pair and what differs, and the
     * stored one stays as it was.
     */
    @Test
    void aTrialOrPairPostedAgainWithOtherValuesIsRefusedAndTheStoredOneKept() throws Exception {
        long agent = register("reposting", "pool=repost");
        long id = admin.create(command("reposted", Map.of("pool", "repost")));
        assertThat(poll(agent, 0).statusCode()).isEqualTo(200);
        String trials = "/api/v1/agents/" + agent + "/experiments/" + id + "/trials";
        String posted = recent(trial("without", 0));
        assertThat(send(agentToken, trials, posted).statusCode()).isEqualTo(201);
        HttpResponse<String> retry = send(agentToken, trials, posted);
        assertThat(retry.statusCode()).as(retry.body()).isEqualTo(200);
        assertThat(admin.read(retry.body()).get("stored").asBoolean()).isFalse();

        Map<String, String> others = new LinkedHashMap<>();
        others.put(posted.replace("\"wall_time_ms\": 1.5", "\"wall_time_ms\": 999"),
                "metrics.wall_time_ms: 1.5 stored, 999.0 posted");
        others.put(posted.replace("\"wall_time_ms\": 1.5", "\"wall_time_ms\": 1.5, \"rss_kb\": 2"),
                "metrics.rss_kb: posted, not stored");
        others.put(posted.replace("\"OK\"", "\"FAILED\""), "status: OK stored, FAILED posted");
        others.put(posted.replace("\"pid\": 7", "\"pid\": 8"), "pid: 7 stored, 8 posted");
        others.put(posted.replace(":01Z\"", ":02Z\""), "end: ");
        others.put(posted.replace("\"host\": \"h\"", "\"host\": \"elsewhere\""),
                "environment.host is not the one stored");
        for (Map.Entry<String, String> other : others.entrySet()) {
            HttpResponse<String> refused = send(agentToken, trials, other.getKey());
            assertThat(refused.statusCode()).as(refused.body()).isEqualTo(409);
            assertThat(admin.read(refused.body()).get("detail").asText()).startsWith("ordinal 0 of experiment " + id
                    + " is stored with other values (" + other.getValue()).contains("nothing was stored");
        }
        assertThat(jdbc.sql("SELECT s.metric_key || '=' || s.metric_value FROM sample s JOIN trial_run r "
                + "ON r.id = s.run_id WHERE r.experiment_id = ?").param(id).query(String.class).list())
                .containsExactly("wall_time_ms=1.5");
        assertThat(jdbc.sql("SELECT status || ' ' || pid FROM trial_run WHERE experiment_id = ?").param(id)
                .query(String.class).single()).isEqualTo("OK 7");

        long pairing = register("reposting pairs", "pool=repost-pairs");
        long pairedId = admin.create(alternating("reposted pairs", "repost-pairs", 1));
        assertThat(poll(pairing, 0).statusCode()).isEqualTo(200);
        String pairs = "/api/v1/agents/" + pairing + "/experiments/" + pairedId + "/pairs";
        String pair = recent(pair(0, 0, 1));
        assertThat(send(agentToken, pairs, pair).statusCode()).isEqualTo(201);
        HttpResponse<String> again = send(agentToken, pairs, pair);
        assertThat(again.statusCode()).as(again.body()).isEqualTo(200);
        assertThat(admin.read(again.body()).get("stored").asBoolean()).isFalse();
        int second = pair.lastIndexOf("\"wall_time_ms\": 1.5");
        String otherWindow = pair.substring(0, second) + "\"wall_time_ms\": 1.6"
                + pair.substring(second + "\"wall_time_ms\": 1.5".length());
        Map<String, String> otherPairs = new LinkedHashMap<>();
        otherPairs.put(otherWindow, "results[1].metrics.wall_time_ms: 1.5 stored, 1.6 posted");
        otherPairs.put(pair.replace("\"setupSeconds\": 1.0", "\"setupSeconds\": 2.5"),
                "setupSeconds: 1.0 stored, 2.5 posted");
        otherPairs.put(pair.replace("\"status\": \"OK\", \"first\"", "\"status\": \"OK\", \"error\": \"x\", "
                + "\"first\""), "error is not the one stored");
        for (Map.Entry<String, String> other : otherPairs.entrySet()) {
            HttpResponse<String> refused = send(agentToken, pairs, other.getKey());
            assertThat(refused.statusCode()).as(refused.body()).isEqualTo(409);
            assertThat(admin.read(refused.body()).get("detail").asText()).startsWith("pair 0 of experiment "
                    + pairedId + " is stored with other values (" + other.getValue());
        }
        assertThat(jdbc.sql("SELECT s.metric_value FROM sample s JOIN trial_run r ON r.id = s.run_id "
                + "WHERE r.experiment_id = ?").param(pairedId).query(Double.class).list()).containsExactly(1.5, 1.5);
    }

    @Test
    void badTrialsAreRefusedWithTheFieldNamedAndNothingStored() throws Exception {
        long agent = register("careless", "pool=bad");
        long id = admin.create(command("bad posts", Map.of("pool", "bad")));
        poll(agent, 0);
        String trials = "/api/v1/agents/" + agent + "/experiments/" + id + "/trials";

        assertRefused(send(agentToken, trials, trial("with", 0)), "variant",
                "the plan runs 'without' at ordinal 0, not 'with'");
        assertRefused(send(agentToken, trials, trial("without", 99)), "ordinal", "99 is not in the plan");
        assertRefused(send(agentToken, trials, trial("without", 0).replace("\"OK\"", "\"GREAT\"")), "status",
                "'GREAT' is not one of");
        assertRefused(send(agentToken, trials, trial("without", 0).replace("\"pid\": 7", "\"pid\": 7, \"pids\": 8")),
                "pids", null);
        assertRefused(send(agentToken, trials, trial("without", 0).replace("1.5", "\"fast\"")), "metrics", null);
        assertRefused(send(agentToken, trials, trial("without", 0).replace("\"start\": \"2026-01-01T00:00:00Z\", ",
                "")), "start", "needs its start and its end");
        for (String time : new String[] {"\"yesterday\"", "1e30", "\"2026-13-01T00:00:00Z\""}) {
            HttpResponse<String> badTime = send(agentToken, trials, trial("without", 0).replace(
                    "\"2026-01-01T00:00:00Z\"", time));
            assertRefused(badTime, "start", "start: must be a time in UTC such as 2026-01-01T12:00:00Z");
            assertThat(badTime.body()).doesNotContain("java.", "Instant", "deserialize");
        }
        assertRefused(send(agentToken, trials, trial("without", 0).replace("\"end\": \"2026-01-01T00:00:01Z\"",
                "\"end\": \"+999999999-01-01T00:00:01Z\"")), "end", "must lie between 1970-01-01T00:00:00Z and");
        // an OK trial that measured nothing was stored
        assertRefused(send(agentToken, trials, trial("without", 0).replace("{\"wall_time_ms\": 1.5}", "{}")),
                "metrics", "an OK trial measured something");
        // a number where text belongs was stored as its text
        assertRefused(send(agentToken, trials, trial("without", 0).replace("\"pid\": 7", "\"pid\": 7, \"error\": 5")),
                "error", "error: must be text");
        assertRefused(send(agentToken, trials, trial("without", 0).replace("\"host\": \"h\"", "\"host\": 5")),
                "environment.host", "environment.host: must be text");
        // a number was read as seconds since 1970: the trial began in 1970 and the experiment's time left was 19 years
        for (String time : new String[] {"12345", "\"12345\"", "1.5e9", "{\"seconds\": 1}"}) {
            assertRefused(send(agentToken, trials, trial("without", 0).replace("\"2026-01-01T00:00:00Z\"", time)),
                    "start", "start: must be a time in UTC such as 2026-01-01T12:00:00Z");
        }
        assertRefused(send(agentToken, trials, trial("without", 0).replace("\"2026-01-01T00:00:00Z\"",
                "\"2020-01-01T00:00:00Z\"")), "start", "start: 2020-01-01T00:00:00Z is before experiment " + id
                + " was claimed");
        assertRefused(send(agentToken, trials, trial("without", 0).replace("\"2026-01-01T00:00:01Z\"",
                "\"" + Instant.now().plus(Duration.ofHours(1)) + "\"")), "end", "lies in the future");
        assertRefused(send(agentToken, trials, "[]"), null, null);
        assertRefused(send(agentToken, trials, trial("without", 0).replace("\"without\"", "null")), "variant",
                "variant: required, 'without' or 'with'");
        assertRefused(send(agentToken, trials, trial("without", 0).replace("\"pid\": 7", "\"pid\": 7, "
                + "\"parsedMetrics\": {\"wall_time_ms\": {\"unit\": \"ms\", \"higherIsBetter\": false, "
                + "\"values\": [1.5, null]}}")), "parsedMetrics.wall_time_ms.values", "must be numbers, got null");
        // a value no analysis takes was stored, and the home page, the list and the experiment's page answered 500
        assertRefused(send(agentToken, trials, trial("without", 0).replace("1.5", "1.7e308")),
                "metrics.wall_time_ms", "values too large to compare (their magnitude must be at most 1e150)");
        assertRefused(send(agentToken, trials, trial("without", 0).replace("\"pid\": 7", "\"pid\": 7, "
                + "\"parsedMetrics\": {\"wall_time_ms\": {\"unit\": \"ms\", \"higherIsBetter\": false, "
                + "\"values\": [1.5, -1e200]}}")), "parsedMetrics.wall_time_ms.values", "a value is -1.0E200");
        // a right-to-left override in a metric's name or unit reorders the experiment page (it was stored)
        assertRefused(send(agentToken, trials, trial("without", 0).replace("wall_time_ms", "wall\\u202e_ms")),
                "metrics", "no control or hidden format characters), got 'wall\\\\u202E_ms'");
        assertRefused(send(agentToken, trials, trial("without", 0).replace("\"pid\": 7", "\"pid\": 7, "
                + "\"parsedMetrics\": {\"wall_time_ms\": {\"unit\": \"m\\u202es\", \"higherIsBetter\": false, "
                + "\"values\": [1.5]}}")), "parsedMetrics.wall_time_ms.unit", "at most 40 printable characters");
        HttpResponse<String> longStatus = send(agentToken, trials, trial("without", 0).replace("\"OK\"",
                "\"" + "\\u001b".repeat(20_000) + "\""));
        assertRefused(longStatus, "status", "is not one of");
        assertThat(longStatus.body()).as("the status quoted, not echoed whole").hasSizeLessThan(1000)
                .contains("'\\\\u001B\\\\u001B");
        // each ESC shown as its escape in the message's text, never as a character that JSON has to escape
        assertThat(longStatus.body().replace("\\\\", "")).doesNotContain("\\u001b", "\\u001B");
        assertRefused(send(agentToken, trials, trial("without", 0).replace("\"host\": \"h\"",
                "\"host\": \"a\\u001b[31mred\\u202eevil\"")), "environment.host", "no control characters");
        assertRefused(send(agentToken, trials, trial("without", 0).replace("\"host\": \"h\"",
                "\"ho\\u202est\": \"h\"")), "environment", "keys are printable text");
        assertRefused(send(agentToken, trials, trial("without", 0).replace("\"host\": \"h\"", "\"\": \"h\"")),
                "environment", "keys of 1 to 100");
        assertThat(jdbc.sql("SELECT COUNT(*) FROM trial_run WHERE experiment_id = ?").param(id).query(Long.class)
                .single()).isZero();
        // what an agent posts of whatever its run recorded is taken, shown as it is safe to show
        Map<String, String> recorded = new LinkedHashMap<>();
        recorded.put("host", "a\u001b[31mred\u202eevil");
        recorded.put("command", "sleep 1\n\techo done");
        io.perflab.runner.trial.TrialResult result = new io.perflab.runner.trial.TrialResult("without", 0,
                io.perflab.runner.trial.TrialStatus.OK, Instant.now().minusSeconds(2),
                Instant.now().minusSeconds(1), 7, Map.of("wall_time_ms", 1.5), recorded, null);
        HttpResponse<String> posted = send(agentToken, trials, io.perflab.runner.json.RunnerJson.mapper()
                .writeValueAsString(io.perflab.agent.AgentProtocol.PostedTrial.of(result)));
        assertThat(posted.statusCode()).as(posted.body()).isEqualTo(201);
        assertThat(admin.get("/api/v1/experiments/" + id + "/report.html", "text/html").body())
                .contains("a?[31mred?evil").doesNotContain("\u001b", "\u202e");
        // an error is the run's own output, stored as it came; the page and the report showed its escape codes and
        // overrides as they were
        HttpResponse<String> failed = send(agentToken, trials, trial("with", 1).replace("\"OK\"", "\"FAILED\"")
                .replace("\"pid\": 7", "\"pid\": 7, \"error\": \"exit 1\\n\\tbad\\u001b[31mthing\\u202eevil\""));
        assertThat(failed.statusCode()).as(failed.body()).isEqualTo(201);
        assertThat(jdbc.sql("SELECT error FROM trial_run WHERE experiment_id = ? AND ordinal = 1").param(id)
                .query(String.class).single()).isEqualTo("exit 1\n\tbad\u001b[31mthing\u202eevil");
        for (String shown : new String[] {"/experiments/" + id, "/api/v1/experiments/" + id + "/report.html"}) {
            assertThat(admin.get(shown, "text/html").body()).as(shown).contains("exit 1\n\tbad?[31mthing?evil")
                    .doesNotContain("\u001b", "\u202e");
        }

        long stranger = register("stranger", "pool=bad");
        HttpResponse<String> notHeld = send(agentToken, "/api/v1/agents/" + stranger + "/experiments/" + id
                + "/trials", trial("without", 0));
        assertThat(notHeld.statusCode()).isEqualTo(409);
        assertThat(notHeld.body()).contains("is not running on agent " + stranger, "nothing was stored");
        assertRefused(send(agentToken, "/api/v1/agents/" + agent + "/experiments/" + id + "/finish",
                "{\"outcome\": \"DONE\"}"), "outcome", "'DONE' is not one of");
        assertRefused(send(agentToken, "/api/v1/agents/" + agent + "/experiments/" + id + "/finish",
                "{\"outcome\": \"FAILED\", \"message\": \"rtl \\u202egnp.exe\"}"), "message", "hidden format");
        // what an agent sends of whatever its run printed is taken
        String printed = "last failure: \u001b[31mboom\r\n\tat x \u202e" + "x".repeat(5000);
        HttpResponse<String> finished = send(agentToken, "/api/v1/agents/" + agent + "/experiments/" + id
                + "/finish", io.perflab.runner.json.RunnerJson.mapper().writeValueAsString(
                        io.perflab.agent.AgentProtocol.Finish.of("FAILED", printed)));
        assertThat(finished.statusCode()).as(finished.body()).isEqualTo(200);
        assertThat(admin.status(id)).isEqualTo("FAILED");
        assertThat(admin.getJson("/api/v1/experiments/" + id).get("error").asText())
                .startsWith("last failure:  [31mboom \n at x  xxx");
        assertRefused(poll(agent, 61), "waitSeconds", "between 0 and 60");
        assertThat(send(agentToken, "/api/v1/agents/424242/heartbeat", "").statusCode()).isEqualTo(404);
    }

    /**
     * PostgreSQL refuses a NUL in text, which a command's error output may hold: a trial or pair whose error held one
     * failed its store with a 500, which an agent retries for good, and the built-in agent's run ended as "PerfLab
     * could not run this experiment". The NUL is kept as U+FFFD; the rest of the text as it came.
     */
    @Test
    void anErrorHoldingANulIsStoredWithTheNulReplacedWhoeverRanIt() throws Exception {
        long agent = register("nul poster", "pool=nul");
        long id = admin.create(command("nul in a trial", Map.of("pool", "nul")));
        assertThat(poll(agent, 0).statusCode()).isEqualTo(200);
        String withNul = "\"pid\": 7, \"error\": \"exited 3\\n\\u001b[31mbad\\u0000byte\"";
        HttpResponse<String> trial = send(agentToken, "/api/v1/agents/" + agent + "/experiments/" + id + "/trials",
                trial("without", 0).replace("\"OK\"", "\"FAILED\"").replace("\"pid\": 7", withNul));
        assertThat(trial.statusCode()).as(trial.body()).isEqualTo(201);
        assertThat(jdbc.sql("SELECT error FROM trial_run WHERE experiment_id = ?").param(id).query(String.class)
                .single()).isEqualTo("exited 3\n\u001b[31mbad\uFFFDbyte");

        long paired = admin.create(alternating("nul in a pair", "nul", 1));
        assertThat(send(agentToken, "/api/v1/agents/" + agent + "/experiments/" + id + "/finish",
                "{\"outcome\": \"FAILED\"}").statusCode()).isEqualTo(200);
        assertThat(poll(agent, 0).statusCode()).isEqualTo(200);
        String failedPair = ("{\"index\": 0, \"status\": \"FAILED\", \"first\": \"without\", "
                + "\"start\": \"2026-01-01T00:00:00Z\", \"end\": \"2026-01-01T00:00:05Z\", \"setupSeconds\": 1.0, "
                + "\"measuringSeconds\": 0.0, \"error\": \"it died: \\u0000\", \"results\": ["
                + window("without", 0, 0) + ", " + window("with", 1, 0) + "]}")
                .replace("\"OK\"", "\"FAILED\"").replace("\"pid\": 7", withNul);
        HttpResponse<String> pair = send(agentToken, "/api/v1/agents/" + agent + "/experiments/" + paired + "/pairs",
                failedPair);
        assertThat(pair.statusCode()).as(pair.body()).isEqualTo(201);
        assertThat(jdbc.sql("SELECT error FROM experiment_pair WHERE experiment_id = ?").param(paired)
                .query(String.class).single()).isEqualTo("it died: \uFFFD");
        assertThat(jdbc.sql("SELECT error FROM trial_run WHERE experiment_id = ?").param(paired).query(String.class)
                .list()).containsExactly("exited 3\n\u001b[31mbad\uFFFDbyte", "exited 3\n\u001b[31mbad\uFFFDbyte");

        // the built-in agent's trial, whose command printed a NUL to its error output
        Map<String, Object> request = command("nul on the built-in agent", Map.of());
        request.put("withoutCommand", "printf 'bad\\000byte\\n' >&2; exit 3");
        request.put("withCommand", "printf 'bad\\000byte\\n' >&2; exit 4");
        request.put("maxFailures", 0);
        long builtIn = admin.create(request);
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                .until(() -> !List.of("QUEUED", "RUNNING").contains(admin.status(builtIn)));
        JsonNode failed = admin.getJson("/api/v1/experiments/" + builtIn);
        assertThat(failed.get("status").asText()).isEqualTo("FAILED");
        assertThat(failed.get("error").asText()).as("its trial was stored").startsWith("stopped after 1 failed trial");
        assertThat(jdbc.sql("SELECT error FROM trial_run WHERE experiment_id = ?").param(builtIn).query(String.class)
                .single()).endsWith("--- last output ---\nbad\uFFFDbyte");
    }

    /**
     * A metric read from output sets its metric's direction for the whole experiment: an engine trial posting its
     * CPU time per request as read from output, higher is better, turned a 20 % regression into an improvement.
     */
    @Test
    void onlyCommandTrialsReadMetricsFromOutputAndNeverUnderPerfLabsOwnNames() throws Exception {
        long agent = register("reader", "pool=parsed");
        Map<String, Object> engine = new LinkedHashMap<>(Map.of("name", "engine parsed", "preset", "sync-completion",
                "runsPerVariant", 2, "hostLabels", Map.of("pool", "parsed")));
        long engineId = admin.create(engine);
        assertThat(poll(agent, 0).statusCode()).isEqualTo(200);
        String parsed = "\"pid\": 7, \"parsedMetrics\": {\"KEY\": {\"unit\": \"us\", \"higherIsBetter\": true, "
                + "\"values\": [1.5]}}";
        String engineTrials = "/api/v1/agents/" + agent + "/experiments/" + engineId + "/trials";
        assertRefused(send(agentToken, engineTrials, trial("without", 0).replace("wall_time_ms", "cpu_us_per_req")
                .replace("\"pid\": 7", parsed.replace("KEY", "cpu_us_per_req"))), "parsedMetrics",
                "only the trials of a command experiment read metrics from their output");
        assertThat(send(agentToken, "/api/v1/agents/" + agent + "/experiments/" + engineId + "/finish",
                "{\"outcome\": \"FAILED\"}").statusCode()).isEqualTo(200);

        long commandId = admin.create(command("command parsed", Map.of("pool", "parsed")));
        assertThat(poll(agent, 0).statusCode()).isEqualTo(200);
        String commandTrials = "/api/v1/agents/" + agent + "/experiments/" + commandId + "/trials";
        assertRefused(send(agentToken, commandTrials, trial("without", 0).replace("wall_time_ms", "wall_ms")
                .replace("\"pid\": 7", parsed.replace("KEY", "wall_ms"))), "parsedMetrics.wall_ms",
                "a figure PerfLab measures of every trial");
        assertThat(jdbc.sql("SELECT COUNT(*) FROM trial_run WHERE experiment_id IN (?, ?)").params(engineId, commandId)
                .query(Long.class).single()).isZero();
        assertThat(send(agentToken, commandTrials, trial("without", 0).replace("wall_time_ms", "Parse.parse")
                .replace("\"pid\": 7", parsed.replace("KEY", "Parse.parse"))).statusCode()).isEqualTo(201);
    }

    /**
     * An agent stored what no run can measure: a negative CPU time, rate or count, and a metric the engine never
     * measures, each compared on the page and in the reports. An engine trial's or window's metrics are the engine's,
     * none below 0; the field is named, and nothing is stored.
     */
    @Test
    void anEngineTrialOrWindowWithAMeasurementNoRunCanMakeIsRefusedNamingTheField() throws Exception {
        long agent = register("impossible", "pool=impossible");
        long id = admin.create(new LinkedHashMap<>(Map.of("name", "impossible", "preset", "sync-completion",
                "runsPerVariant", 2, "hostLabels", Map.of("pool", "impossible"))));
        assertThat(poll(agent, 0).statusCode()).isEqualTo(200);
        String trials = "/api/v1/agents/" + agent + "/experiments/" + id + "/trials";
        String measured = "\"user_cpu_us_per_req\": 41.7, \"reqs_per_sec\": 23810.0, \"ctx_switches_per_req\": 4.1";

        Map<String, String> impossible = new LinkedHashMap<>();
        impossible.put("user_cpu_us_per_req\": -50", "-50.0 is negative: user_cpu_us_per_req is a measure in us "
                + "(User CPU time per request (whole process: client and server)), which no run measures below 0");
        impossible.put("reqs_per_sec\": -5000", "-5000.0 is negative: reqs_per_sec is a measure in req/s");
        impossible.put("ctx_switches_per_req\": -4.5", "-4.5 is negative: ctx_switches_per_req is a measure in "
                + "count");
        impossible.put("syscalls_per_req\": -1", "syscalls_per_req is a measure in count");
        impossible.put("instructions_per_req\": -1", "instructions_per_req is a measure in count");
        impossible.put("cycles_per_req\": -2", "cycles_per_req is a measure in count");
        impossible.put("alloc_bytes_per_req\": -0.001", "alloc_bytes_per_req is a measure in bytes");
        impossible.put("latency_p99_us\": -3", "latency_p99_us is a measure in us");
        impossible.put("host_probe_ns\": -1", "host_probe_ns is a measure in ns");
        for (Map.Entry<String, String> metric : impossible.entrySet()) {
            String key = metric.getKey().substring(0, metric.getKey().indexOf('"'));
            // the measured figures, the impossible one in place of its own
            String metrics = (measured + ", ").replaceAll("\"" + key + "\": [0-9.]+, ", "") + "\"" + metric.getKey();
            HttpResponse<String> refused = send(agentToken, trials, trial("without", 0)
                    .replace("\"wall_time_ms\": 1.5", metrics));
            assertRefused(refused, "metrics." + key, metric.getValue());
            assertThat(admin.read(refused.body()).get("errors").get(0).get("field").asText())
                    .isEqualTo("metrics." + key);
        }
        HttpResponse<String> unknown = send(agentToken, trials, trial("without", 0).replace("\"wall_time_ms\": 1.5",
                measured + ", \"<b>bold</b>\": 7"));
        assertRefused(unknown, "metrics", "'<b>bold</b>' is not a metric of the engine: an engine trial reports "
                + "reqs_per_sec, user_cpu_us_per_req, sys_cpu_us_per_req, cpu_us_per_req, ctx_switches_per_req");
        assertThat(unknown.body()).contains("host_probe_ns", "syscalls_per_req");
        // an unknown key is named as the other refusals of one metric are; it was the field 'metrics'
        assertThat(admin.read(unknown.body()).get("errors").get(0).get("field").asText())
                .isEqualTo("metrics.<b>bold</b>");
        HttpResponse<String> bogus = send(agentToken, trials, trial("without", 0).replace("\"wall_time_ms\": 1.5",
                measured + ", \"bogus_metric\": 7"));
        assertRefused(bogus, "metrics.bogus_metric", "'bogus_metric' is not a metric of the engine");
        assertThat(admin.read(bogus.body()).get("errors").get(0).get("field").asText())
                .isEqualTo("metrics.bogus_metric");
        assertThat(admin.read(bogus.body()).get("detail").asText())
                .startsWith("metrics.bogus_metric: 'bogus_metric' is not a metric of the engine");
        HttpResponse<String> quote = send(agentToken, trials, trial("without", 0).replace("\"wall_time_ms\": 1.5",
                measured + ", \"a\\\"b\\\\c\": 7"));
        assertThat(admin.read(quote.body()).get("errors").get(0).get("field").asText()).isEqualTo("metrics.a\"b\\c");
        assertRefused(send(agentToken, trials, trial("without", 0)), "metrics.wall_time_ms",
                "'wall_time_ms' is not a metric of the engine");
        assertThat(jdbc.sql("SELECT COUNT(*) FROM trial_run WHERE experiment_id = ?").param(id).query(Long.class)
                .single()).isZero();
        // none at all is a measurement too: an idle collector, no page fault; and a host with hardware counters
        HttpResponse<String> zeros = send(agentToken, trials, trial("without", 0).replace("\"wall_time_ms\": 1.5",
                measured + ", \"gc_count\": 0, \"page_faults_per_req\": 0, \"instructions_per_req\": 251234.0, "
                + "\"cycles_per_req\": 402345.0"));
        assertThat(zeros.statusCode()).as(zeros.body()).isEqualTo(201);
        assertThat(jdbc.sql("SELECT COUNT(*) FROM trial_run WHERE experiment_id = ?").param(id).query(Long.class)
                .single()).isOne();
        assertThat(send(agentToken, "/api/v1/agents/" + agent + "/experiments/" + id + "/finish",
                "{\"outcome\": \"FAILED\"}").statusCode()).isEqualTo(200);

        Map<String, Object> paired = new LinkedHashMap<>(Map.of("name", "impossible pairs", "preset",
                "sync-completion", "design", "alternating", "pairs", 2, "windowsPerPair", 1, "hostLabels",
                Map.of("pool", "impossible")));
        long pairedId = admin.create(paired);
        assertThat(poll(agent, 0).statusCode()).isEqualTo(200);
        String pairs = "/api/v1/agents/" + agent + "/experiments/" + pairedId + "/pairs";
        String negativeWindow = pair(0, 0, 1).replaceFirst("\"wall_time_ms\": 1.5", measured)
                .replaceFirst("\"wall_time_ms\": 1.5", measured.replace("23810.0", "-23810.0"));
        assertRefused(send(agentToken, pairs, negativeWindow), "results[1].metrics.reqs_per_sec",
                "-23810.0 is negative: reqs_per_sec is a measure in req/s");
        assertRefused(send(agentToken, pairs, pair(0, 0, 1).replace("\"wall_time_ms\": 1.5", measured + ", \"x\": 1")),
                "results[0].metrics.x", "'x' is not a metric of the engine");
        assertThat(jdbc.sql("SELECT COUNT(*) FROM experiment_pair WHERE experiment_id = ?").param(pairedId)
                .query(Long.class).single()).isZero();
        HttpResponse<String> stored = send(agentToken, pairs, pair(0, 0, 1).replace("\"wall_time_ms\": 1.5",
                measured));
        assertThat(stored.statusCode()).as(stored.body()).isEqualTo(201);
    }

    /**
     * A command's output may hold metrics of any name and sign, and a command experiment keeps taking them: where
     * the reader of its format refuses a negative value (Go's ns/op, rpc-bench's requests per second), an agent's
     * post of one is refused as that reader refuses the output; where the reader takes one (a metric of
     * b.ReportMetric's own, rpc-bench's CPU per request), so does the post. What PerfLab measures of every command
     * (its times, context switches) is never below 0.
     */
    @Test
    void aCommandTrialIsHeldToTheSignRulesOfItsOutputsReader() throws Exception {
        long agent = register("reads output", "pool=signs");
        Map<String, Object> go = command("go output signs", Map.of("pool", "signs"));
        go.put("metricsFormat", "gobench");
        long goId = admin.create(go);
        assertThat(poll(agent, 0).statusCode()).isEqualTo(200);
        String trials = "/api/v1/agents/" + agent + "/experiments/" + goId + "/trials";

        assertRefused(send(agentToken, trials, read("without", 0, "BenchmarkParse:ns/op", "ns/op", -5)),
                "metrics.BenchmarkParse:ns/op", "-5.0 is negative, which ns/op as Go measures it cannot be (its "
                + "gobench output is refused so)");
        assertRefused(send(agentToken, trials, read("without", 0, "BenchmarkParse:ns/op", "ns/op", 5)
                        .replace("\"values\": [5.0]", "\"values\": [15.0, -5.0]")),
                "parsedMetrics.BenchmarkParse:ns/op.values", "a value, -5.0, is negative, which ns/op as Go");
        assertRefused(send(agentToken, trials, read("without", 0, "BenchmarkParse:ns/op", "ns/op", 5)
                .replace("\"wall_ms\": 1.5", "\"wall_ms\": -1.5")), "metrics.wall_ms",
                "-1.5 is negative: wall_ms is a time or a count PerfLab measures of every command");
        assertRefused(send(agentToken, trials, read("without", 0, "BenchmarkParse:ns/op", "ns/op", 5)
                .replace("\"wall_ms\": 1.5", "\"wall_ms\": 1.5, \"user_cpu_ms\": -0.2")), "metrics.user_cpu_ms",
                "user_cpu_ms is a measure in ms");
        assertThat(jdbc.sql("SELECT COUNT(*) FROM trial_run WHERE experiment_id = ?").param(goId).query(Long.class)
                .single()).isZero();
        HttpResponse<String> own = send(agentToken, trials, read("without", 0, "BenchmarkParse:delta/op", "delta/op",
                -0.5).replace("\"wall_ms\": 1.5", "\"wall_ms\": 1.5, \"anything\": -3"));
        assertThat(own.statusCode()).as("b.ReportMetric's own metric may be negative: " + own.body()).isEqualTo(201);
        assertThat(send(agentToken, "/api/v1/agents/" + agent + "/experiments/" + goId + "/finish",
                "{\"outcome\": \"FAILED\"}").statusCode()).isEqualTo(200);

        Map<String, Object> rpc = command("rpc-bench output signs", Map.of("pool", "signs"));
        rpc.put("metricsFormat", "rpcbench");
        long rpcId = admin.create(rpc);
        assertThat(poll(agent, 0).statusCode()).isEqualTo(200);
        String rpcTrials = "/api/v1/agents/" + agent + "/experiments/" + rpcId + "/trials";
        assertRefused(send(agentToken, rpcTrials, read("without", 0, "mode=Async:reqs_per_sec", "req/s", -1)),
                "metrics.mode=Async:reqs_per_sec", "which reqs_per_sec as rpc-bench writes it cannot be");
        HttpResponse<String> cpu = send(agentToken, rpcTrials, read("without", 0, "user_cpu_us_per_req", "us", -0.5));
        assertThat(cpu.statusCode()).as("as the rpc-bench reader takes it: " + cpu.body()).isEqualTo(201);
    }

    /** A command trial that read {@code key} from its output, in {@code unit}, one value. */
    private static String read(String variant, int ordinal, String key, String unit, double value) {
        return trial(variant, ordinal).replace("\"wall_time_ms\": 1.5", "\"wall_ms\": 1.5, \"" + key + "\": " + value)
                .replace("\"pid\": 7", "\"pid\": 7, \"parsedMetrics\": {\"" + key + "\": {\"unit\": \"" + unit
                        + "\", \"higherIsBetter\": false, \"values\": [" + value + "]}}");
    }

    /**
     * rpc-bench's report is read under DESIGN's metric keys (reqs_per_sec, user_cpu_us_per_req…), which the check
     * above took for figures PerfLab measures itself: every trial an agent ran of an rpcbench command experiment was
     * refused, and the agent failed the experiment, while the built-in agent ran it. Such a metric is taken in its
     * own direction only.
     */
    @Test
    void anAgentRunsACommandExperimentThatReadsRpcBenchOutput() throws Exception {
        Map<String, Object> request = command("rpcbench output", Map.of("pool", "rpcbench"));
        request.put("withoutCommand", "printf 'Mode:            Sync\\nReqs/sec:         38731.2\\n"
                + "Ctx Sw. per req:  3.97067\\n'");
        request.put("withCommand", "printf 'Mode:            Sync\\nReqs/sec:         39731.2\\n"
                + "Ctx Sw. per req:  3.87067\\n'");
        request.put("metricsFormat", "rpcbench");
        long id = admin.create(request);

        io.perflab.agent.AgentLoop agent = loop("rpc-bench host", "rpcbench");
        Thread running = new Thread(agent::run, "rpcbench agent");
        running.start();
        try {
            await().atMost(Duration.ofSeconds(60)).until(() -> !admin.status(id).equals("QUEUED")
                    && !admin.status(id).equals("RUNNING"));
        } finally {
            agent.stop();
            running.join(10_000);
        }

        JsonNode done = admin.getJson("/api/v1/experiments/" + id);
        assertThat(done.get("status").asText()).as(done.toString()).isEqualTo("COMPLETED");
        assertThat(jdbc.sql("SELECT COUNT(*) FROM sample s JOIN trial_run r ON r.id = s.run_id WHERE "
                + "r.experiment_id = ? AND s.metric_key = 'reqs_per_sec'").param(id).query(Long.class).single())
                .isEqualTo(4);

        long agentId = register("contrary", "pool=contrary");
        long contrary = admin.create(command("contrary direction", Map.of("pool", "contrary")));
        assertThat(poll(agentId, 0).statusCode()).isEqualTo(200);
        String trials = "/api/v1/agents/" + agentId + "/experiments/" + contrary + "/trials";
        assertRefused(send(agentToken, trials, trial("without", 0).replace("wall_time_ms", "cpu_us_per_req")
                .replace("\"pid\": 7", "\"pid\": 7, \"parsedMetrics\": {\"cpu_us_per_req\": {\"unit\": \"us\", "
                        + "\"higherIsBetter\": true, \"values\": [1.5]}}")), "parsedMetrics.cpu_us_per_req",
                "lower is better");
        assertRefused(send(agentToken, trials, trial("without", 0).replace("wall_time_ms", "host_probe_ns")
                .replace("\"pid\": 7", "\"pid\": 7, \"parsedMetrics\": {\"host_probe_ns\": {\"unit\": \"ns\", "
                        + "\"higherIsBetter\": false, \"values\": [1.5]}}")), "parsedMetrics.host_probe_ns",
                "a figure PerfLab measures of every trial");
    }

    @Test
    void badRegistrationsAndHostLabelsAreRefusedWithTheFieldNamed() throws Exception {
        assertRefused(send(agentToken, "/api/v1/agents", registration("x", "pool=a").replace("pool", "po ol")),
                "labels", "label key 'po ol'");
        assertRefused(send(agentToken, "/api/v1/agents", registration("\\u0007bell", "pool=a")), "name",
                "printable");
        assertRefused(send(agentToken, "/api/v1/agents", registration("x", "pool=a").replace("test-host",
                "test\\u202etsoh")), "environment.host", "a hidden format character (U+202E) at position 5");
        assertRefused(send(agentToken, "/api/v1/agents", registration("x", "pool=a").replace("test CPU",
                "test \\ud800 CPU")), "environment.cpu_model", "printable");
        // nine entries of 2,000 characters, each within its bounds, together beyond the column they are stored in
        StringBuilder large = new StringBuilder();
        for (int i = 0; i < 9; i++) {
            large.append("\"k").append(i).append("\": \"").append("v".repeat(2000)).append("\", ");
        }
        assertRefused(send(agentToken, "/api/v1/agents", registration("x", "pool=a").replace("\"cpu_model\"",
                large + "\"cpu_model\"")), "environment", "at most 16000 fit");
        assertRefused(send(agentToken, "/api/v1/agents", registration("x", "pool=a").replace("\"runsCommands\": true",
                "\"runsCommands\": true, \"runCommands\": true")), "runCommands", null);
        assertRefused(send(agentToken, "/api/v1/agents", registration("x", "pool=a").replace(", \"os_arch\": \"amd64\"",
                "")), "environment.os_arch", "the os.arch of the agent's JVM, 1 to 100 characters, registered with "
                + "os_name (e.g. Linux and amd64); got none");
        assertRefused(send(agentToken, "/api/v1/agents", registration("x", "pool=a").replace("\"os_name\": \"Linux\"",
                "\"os_name\": \"" + "L".repeat(101) + "\"")), "environment.os_name", "1 to 100 characters");
        long before = jdbc.sql("SELECT COUNT(*) FROM agent").query(Long.class).single();
        for (String field : List.of("hardwareCounters", "systemCalls")) {
            for (String notABoolean : List.of("\"yes\"", "\"true\"", "1", "[true]", "{}")) {
                assertRefused(send(agentToken, "/api/v1/agents", registration("x", "pool=a").replace(
                        "\"runsCommands\": true", "\"runsCommands\": true, \"" + field + "\": " + notABoolean)), field,
                        "must be true or false");
            }
        }

        Map<String, Object> request = command("bad labels", Map.of("pool", "a\u001bb"));
        HttpResponse<String> refused = admin.post("/api/v1/experiments", request);
        assertRefused(refused, "hostLabels", "label pool: value 'a\\\\u001Bb'");
        assertThat(refused.body()).doesNotContain("\u001b");
        request.put("hostLabels", "pool=a");
        assertThat(admin.post("/api/v1/experiments", request).statusCode()).isEqualTo(400);
        assertThat(jdbc.sql("SELECT COUNT(*) FROM experiment WHERE name LIKE 'bad labels%'").query(Long.class)
                .single()).isZero();
        assertThat(jdbc.sql("SELECT COUNT(*) FROM agent").query(Long.class).single()).isEqualTo(before);
    }

    /**
     * An agent says whether its trials count instructions and cycles (the kernel granting its host the CPU's hardware
     * counters) and system calls (the kernel letting them count the system-call tracepoint), as perflab agent and the
     * built-in agent do; the list, each agent and the page show its answers, none for an agent that did not say.
     */
    @Test
    void theAgentsListAndPageShowWhatEachAgentCounts() throws Exception {
        long counts = registerCounting("counting host", "pool=counted-list", "true", "true");
        long refused = registerCounting("guest host", "pool=counted-list", "false", "false");
        long silent = register("older host", "pool=counted-list");

        for (String field : List.of("hardwareCounters", "systemCalls")) {
            Map<Long, JsonNode> listed = new LinkedHashMap<>();
            for (JsonNode agent : admin.getJson("/api/v1/agents?size=200").get("items")) {
                listed.put(agent.get("id").asLong(), agent.get(field));
            }
            assertThat(listed.get(counts).asBoolean()).as(field).isTrue();
            assertThat(listed.get(refused).isBoolean()).as(field).isTrue();
            assertThat(listed.get(refused).asBoolean()).as(field).isFalse();
            assertThat(listed.get(silent).isNull()).as(field + ": said nothing").isTrue();
            assertThat(admin.getJson("/api/v1/agents/" + counts).get(field).asBoolean()).as(field).isTrue();
            assertThat(admin.getJson("/api/v1/agents/" + silent).get(field).isNull()).as(field).isTrue();
        }
        long builtIn = jdbc.sql("SELECT MAX(id) FROM agent WHERE built_in = TRUE").query(Long.class).single();
        JsonNode ownHost = admin.getJson("/api/v1/agents/" + builtIn);
        assertThat(ownHost.get("hardwareCounters").asBoolean()).as("this host's own answer")
                .isEqualTo(io.perflab.runner.metering.KernelMeter.hardwareNotCounted().isEmpty());
        assertThat(ownHost.get("systemCalls").asBoolean()).as("this host's own answer")
                .isEqualTo(io.perflab.runner.metering.SyscallCounter.unavailableReason().isEmpty());
        String page = admin.get("/agents", "text/html").body();
        java.util.function.LongFunction<String> row = agent -> {
            String from = page.substring(page.indexOf("data-agent-id=\"" + agent + "\""));
            return from.substring(0, from.indexOf("</tr>"));
        };
        assertThat(row.apply(counts)).contains("· hardware counters", "· counts system calls")
                .doesNotContain("no hardware counters", "counts no system calls");
        assertThat(row.apply(refused)).contains("· no hardware counters", "· counts no system calls");
        assertThat(row.apply(silent)).contains("· said nothing of hardware counters",
                "· said nothing of system calls");
    }

    /**
     * An agent's environment is a machine description, as an upload's: its values may hold line breaks and tabs (a
     * kernel's version on two lines, lscpu's output), which were refused as not printable. Other control characters
     * and those that hide or reorder text are refused as before, and so is a host name on more than one line.
     */
    @Test
    void anAgentsEnvironmentMayHoldLineBreaksAndTabsButNoOtherControlCharacters() throws Exception {
        String multiline = registration("multiline", "pool=multiline").replace("\"cpu_model\": \"test CPU\"",
                "\"kernel\": \"line1\\nline2\", \"lscpu\": \"Model name:\\tTest CPU\\r\\nCPU(s):\\t8\"");
        HttpResponse<String> registered = send(agentToken, "/api/v1/agents", multiline);
        assertThat(registered.statusCode()).as(registered.body()).isEqualTo(201);
        JsonNode agent = admin.getJson("/api/v1/agents/" + admin.read(registered.body()).get("agentId").asLong());
        assertThat(agent.get("environment").get("kernel").asText()).isEqualTo("line1\nline2");
        assertThat(agent.get("environment").get("lscpu").asText()).isEqualTo("Model name:\tTest CPU\r\nCPU(s):\t8");
        assertThat(admin.get("/agents", "text/html").body()).contains("line1\nline2");

        long before = jdbc.sql("SELECT COUNT(*) FROM agent").query(Long.class).single();
        for (String[] refused : new String[][] {{"line1\\u001bline2", "a control character (U+001B) at position 6"},
                {"line1\\rline2", "a control character (U+000D) at position 6"},
                {"line1\\u202eline2", "a hidden format character (U+202E) at position 6"},
                {"line1\\u0000", "a control character (U+0000) at position 6"}}) {
            HttpResponse<String> response = send(agentToken, "/api/v1/agents", multiline.replace("line1\\nline2",
                    refused[0]));
            assertRefused(response, "environment.kernel", refused[1]);
            assertThat(response.body()).contains("line breaks and tabs allowed");
        }
        assertRefused(send(agentToken, "/api/v1/agents", multiline.replace("test-host", "test\\nhost")),
                "environment.host", "printable characters on one line");
        assertThat(jdbc.sql("SELECT COUNT(*) FROM agent").query(Long.class).single()).isEqualTo(before);
    }

    @Test
    void aCancelReachesTheAgentThroughItsHeartbeatAndItsFinish() throws Exception {
        long agent = register("cancelled", "pool=cancel");
        long id = admin.create(command("to cancel", Map.of("pool", "cancel")));
        poll(agent, 0);
        assertThat(admin.read(send(agentToken, "/api/v1/agents/" + agent + "/heartbeat", "").body())
                .get("cancel").asBoolean()).isFalse();

        assertThat(admin.post("/api/v1/experiments/" + id + "/cancel", "").statusCode()).isEqualTo(202);

        assertThat(admin.read(send(agentToken, "/api/v1/agents/" + agent + "/heartbeat", "").body())
                .get("cancel").asBoolean()).isTrue();
        assertThat(send(agentToken, "/api/v1/agents/" + agent + "/experiments/" + id + "/finish",
                "{\"outcome\": \"CANCELLED\", \"message\": \"cancelled by a user\"}").statusCode()).isEqualTo(200);
        assertThat(admin.status(id)).isEqualTo("CANCELLED");
        assertThat(admin.getJson("/api/v1/agents/" + agent).get("status").asText()).isEqualTo("IDLE");
    }

    @Test
    void theBuiltInAgentRunsUnlabelledExperimentsThroughTheSameClaimAndRecordsItself() throws Exception {
        long id = admin.create(command("built in", Map.of()));
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                .until(() -> admin.status(id).equals("COMPLETED"));

        JsonNode agents = admin.getJson("/api/v1/experiments/" + id).get("agents");
        assertThat(agents).hasSize(1);
        assertThat(agents.get(0).get("name").asText()).startsWith("built-in@");
        assertThat(agents.get(0).get("trials").asInt()).isEqualTo(4);
        JsonNode builtIn = admin.getJson("/api/v1/agents/" + agents.get(0).get("agentId").asLong());
        assertThat(builtIn.get("builtIn").asBoolean()).isTrue();
        assertThat(builtIn.get("environment").get("cpu_accounting").asText()).isNotEmpty();
        assertThat(jdbc.sql("SELECT outcome FROM experiment_claim WHERE experiment_id = ?").param(id)
                .query(String.class).list()).containsExactly("COMPLETED");
    }

    /**
     * The built-in agent claims through the store, not through a poll, and was listed IDLE with no experiment while
     * it ran one: the agents page and API say what it runs, as they say it of remote agents.
     */
    @Test
    void theBuiltInAgentIsListedRunningTheExperimentItRuns() throws Exception {
        Path go = Files.createTempDirectory("perflab-built-in-runs").resolve("go");
        String waits = "while [ ! -e '" + go + "' ]; do sleep 0.05; done";
        Map<String, Object> request = command("built in, listed", Map.of());
        request.put("withoutCommand", waits);
        request.put("withCommand", waits + " && true");
        long id = admin.create(request);
        long builtIn = -1;
        for (JsonNode listed : admin.getJson("/api/v1/agents?size=200").get("items")) {
            builtIn = listed.get("builtIn").asBoolean() ? listed.get("id").asLong() : builtIn;
        }
        String agent = "/api/v1/agents/" + builtIn;
        try {
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                    .until(() -> admin.status(id).equals("RUNNING"));

            assertThat(admin.getJson(agent).get("status").asText()).isEqualTo("RUNNING");
            assertThat(admin.getJson(agent).get("experimentId").asLong()).isEqualTo(id);
            assertThat(admin.get("/agents", "text/html").body()).contains("href=\"/experiments/" + id + "\"");
        } finally {
            Files.createFile(go);
        }
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                .until(() -> admin.status(id).equals("COMPLETED"));
        assertThat(admin.getJson(agent).get("status").asText()).isEqualTo("IDLE");
        assertThat(admin.getJson(agent).get("experimentId").isNull()).isTrue();
    }

    @Test
    void agentsPollingAtOnceClaimEachExperimentOnce() throws Exception {
        int agents = 6;
        int experiments = 3;
        java.util.List<Long> ids = new java.util.ArrayList<>();
        for (int i = 0; i < agents; i++) {
            ids.add(register("racer-" + i, "pool=race"));
        }
        java.util.Set<Long> queued = new java.util.HashSet<>();
        for (int i = 0; i < experiments; i++) {
            queued.add(admin.create(command("race " + i, Map.of("pool", "race"))));
        }

        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(agents);
        java.util.concurrent.CountDownLatch start = new java.util.concurrent.CountDownLatch(1);
        java.util.List<java.util.concurrent.Future<HttpResponse<String>>> polls = new java.util.ArrayList<>();
        for (long agent : ids) {
            polls.add(pool.submit(() -> {
                start.await();
                return poll(agent, 0);
            }));
        }
        start.countDown();
        java.util.List<Long> claimed = new java.util.ArrayList<>();
        for (var poll : polls) {
            HttpResponse<String> answer = poll.get();
            assertThat(answer.statusCode()).as(answer.body()).isIn(200, 204);
            if (answer.statusCode() == 200) {
                claimed.add(admin.read(answer.body()).get("experimentId").asLong());
            }
        }
        pool.shutdown();

        assertThat(claimed).as("every experiment once, and no more").containsExactlyInAnyOrderElementsOf(queued);
        assertThat(jdbc.sql("SELECT agent_id FROM experiment_claim WHERE experiment_id IN (?, ?, ?)")
                .params(queued.toArray()).query(Long.class).list()).doesNotHaveDuplicates();
        for (long id : queued) {
            assertThat(jdbc.sql("SELECT COUNT(*) FROM experiment_claim WHERE experiment_id = ?").param(id)
                    .query(Long.class).single()).isEqualTo(1);
        }
    }

    @Test
    void anAgentPollingTwiceAtOnceClaimsOneExperiment() throws Exception {
        long agent = register("eager", "pool=twice");
        admin.create(command("twice 1", Map.of("pool", "twice")));
        admin.create(command("twice 2", Map.of("pool", "twice")));

        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(2);
        var first = pool.submit(() -> poll(agent, 0));
        var second = pool.submit(() -> poll(agent, 0));
        List<HttpResponse<String>> answers = List.of(first.get(), second.get());
        pool.shutdown();

        // a poll that comes after the other's claim is told that claim again
        assertThat(answers).extracting(HttpResponse::statusCode).contains(200).isSubsetOf(200, 204);
        assertThat(answers.stream().filter(a -> a.statusCode() == 200)
                .map(a -> admin.read(a.body()).get("experimentId").asLong()).distinct()).hasSize(1);
        assertThat(jdbc.sql("SELECT COUNT(*) FROM experiment WHERE status = 'RUNNING' AND agent_id = ?").param(agent)
                .query(Long.class).single()).isEqualTo(1);
    }

    /**
     * An agent that gave up on a waiting poll (its own timeout, a proxy's) polls again while the first still waits
     * here. When an experiment comes, one of the two claims it; the other, which may be the one the agent still
     * reads, was answered nothing at the end of its wait, and the agent learnt of its experiment a poll later.
     */
    @Test
    void anAgentsTwoWaitingPollsAreBothAnsweredTheExperimentEitherClaims() throws Exception {
        long agent = register("impatient", "pool=overlap");
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(2);
        var first = pool.submit(() -> poll(agent, 8));
        var second = pool.submit(() -> poll(agent, 8));
        Thread.sleep(1_000); // both waiting
        long id = admin.create(command("overlap", Map.of("pool", "overlap")));
        List<HttpResponse<String>> answers = List.of(first.get(), second.get());
        pool.shutdown();

        for (HttpResponse<String> answer : answers) {
            assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
            assertThat(admin.read(answer.body()).get("experimentId").asLong()).isEqualTo(id);
        }
    }

    @Test
    void aStoppedAgentHandsItsExperimentBackAndAnotherOfTheSameLabelsResumesIt() throws Exception {
        Map<String, Object> request = command("handed back", Map.of("pool", "handover"));
        request.put("withoutCommand", "sleep 0.2");
        request.put("withCommand", "sleep 0.2 && true");
        request.put("runsPerVariant", 3);
        long id = admin.create(request);
        io.perflab.agent.AgentLoop first = loop("first", "handover");
        Thread running = new Thread(first::run, "first agent");
        running.start();
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(20))
                .until(() -> admin.getJson("/api/v1/experiments/" + id).get("progress").get("completedRuns")
                        .asInt() >= 1);

        first.stop();
        // what perflab agent's shutdown hook does: the JVM halts when the hook returns
        assertThat(first.awaitEnd(Duration.ofSeconds(30))).as("handed back before the hook returns").isTrue();

        assertThat(admin.status(id)).isEqualTo("INTERRUPTED");
        running.join(10_000);
        int kept = admin.getJson("/api/v1/experiments/" + id).get("progress").get("completedRuns").asInt();
        assertThat(kept).isBetween(1, 5);
        io.perflab.agent.AgentLoop second = loop("second", "handover");
        Thread resuming = new Thread(second::run, "second agent");
        resuming.start();
        try {
            await().atMost(Duration.ofSeconds(30)).until(() -> admin.status(id).equals("COMPLETED"));
        } finally {
            second.stop();
            resuming.join(10_000);
        }
        assertThat(jdbc.sql("SELECT ordinal FROM trial_run WHERE experiment_id = ? ORDER BY ordinal").param(id)
                .query(Integer.class).list()).containsExactly(0, 1, 2, 3, 4, 5);
        assertThat(jdbc.sql("SELECT outcome FROM experiment_claim WHERE experiment_id = ? ORDER BY claim").param(id)
                .query(String.class).list()).containsExactly("INTERRUPTED", "COMPLETED");
    }

    /**
     * A stopped agent said nothing: the service learnt it was gone when its heartbeat timed out, and an experiment
     * that a poll claimed as the agent stopped (the answer lost) stayed RUNNING on it until then. A leave ends it.
     */
    @Test
    void anAgentThatLeavesHasItsExperimentInterruptedAtOnceForAnotherAgentToResume() throws Exception {
        long leaving = register("leaving", "pool=leave");
        long id = admin.create(command("held by a leaving agent", Map.of("pool", "leave")));
        assertThat(poll(leaving, 0).statusCode()).isEqualTo(200);
        String base = "/api/v1/agents/" + leaving;
        assertThat(send(agentToken, base + "/experiments/" + id + "/trials", trial("without", 0)).statusCode())
                .isEqualTo(201);

        HttpResponse<String> left = send(agentToken, base + "/leave", "");

        assertThat(left.statusCode()).as(left.body()).isEqualTo(200);
        assertThat(admin.read(left.body()).get("status").asText()).isEqualTo("LEFT");
        assertThat(admin.read(left.body()).get("experimentId").isNull()).isTrue();
        assertThat(admin.status(id)).isEqualTo("INTERRUPTED");
        assertThat(admin.getJson("/api/v1/experiments/" + id).get("error").asText())
                .contains("agent leaving on test-host left the service (it was stopped)",
                        "the next agent of the same labels resumes")
                .doesNotContain("heartbeat");
        assertThat(store.claims(id)).singleElement().satisfies(claim ->
                assertThat(claim.outcome()).isEqualTo("INTERRUPTED"));
        assertThat(admin.getJson(base).get("status").asText()).isEqualTo("LEFT");
        assertThat(admin.get("/agents", "text/html").body()).contains("status-left");

        for (HttpResponse<String> late : List.of(send(agentToken, base + "/heartbeat", ""),
                poll(leaving, 0), send(agentToken, base + "/experiments/" + id + "/trials", trial("with", 1)),
                send(agentToken, base + "/experiments/" + id + "/finish", "{\"outcome\": \"COMPLETED\"}"))) {
            assertThat(late.statusCode()).as(late.body()).isEqualTo(409);
            assertThat(late.body()).contains("agent " + leaving + " left the service", "Register again");
        }
        HttpResponse<String> again = send(agentToken, base + "/leave", "");
        assertThat(again.statusCode()).as("leaving twice is harmless").isEqualTo(200);
        assertThat(admin.read(again.body()).get("status").asText()).isEqualTo("LEFT");
        assertThat(send(TOKEN, base + "/leave", "").statusCode()).as("an admin acts for any agent").isEqualTo(200);
        assertThat(admin.status(id)).isEqualTo("INTERRUPTED");
        // the watch neither declares it lost later nor looks at it again
        jdbc.sql("UPDATE agent SET last_heartbeat = ? WHERE id = ?")
                .params(java.time.OffsetDateTime.now().minusHours(1), leaving).update();
        coordinator.watch();
        assertThat(admin.getJson(base).get("status").asText()).isEqualTo("LEFT");

        assertResumes(register("successor of leaving", "pool=leave"), id);
    }

    /**
     * A poll waiting for an experiment went on waiting (and claiming) after its agent left: it ignored that its own
     * heartbeat was refused. It answers nothing at once, and an experiment queued after the leave waits for
     * another agent.
     */
    @Test
    void aPollWaitingWhenItsAgentLeavesAnswersNothingAtOnce() throws Exception {
        long leaving = register("leaves while polling", "pool=leave-poll");
        Instant registered = agentRepository.find(leaving).orElseThrow().lastHeartbeat();
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newSingleThreadExecutor();
        try {
            var waiting = pool.submit(() -> poll(leaving, 20));
            // a waiting poll heartbeats after each look at the queue
            await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50)).until(() ->
                    agentRepository.find(leaving).orElseThrow().lastHeartbeat().isAfter(registered));
            assertThat(waiting.isDone()).isFalse();

            long leftAt = System.nanoTime();
            assertThat(send(agentToken, "/api/v1/agents/" + leaving + "/leave", "").statusCode()).isEqualTo(200);
            long id = admin.create(command("queued after a leave", Map.of("pool", "leave-poll")));

            HttpResponse<String> answer = waiting.get(10, java.util.concurrent.TimeUnit.SECONDS);
            assertThat(answer.statusCode()).as(answer.body()).isEqualTo(204);
            assertThat(Duration.ofNanos(System.nanoTime() - leftAt)).as("well within the poll's 20 s")
                    .isLessThan(Duration.ofSeconds(3));
            assertThat(admin.status(id)).isEqualTo("QUEUED");
            assertThat(store.claims(id)).isEmpty();
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * A poll that waited while its token was revoked claimed the experiment queued next, answered its whole plan
     * (a command experiment's commands, directories and environment), and heartbeat its agent after the revocation:
     * the experiment ran on it until the agent was found lost. It is refused as a request with that token is, and
     * the experiment waits, queued, for another agent.
     */
    @Test
    void aPollWaitingWhenItsTokenIsRevokedClaimsNothingAndIsRefusedAsTheTokenIs() throws Exception {
        long agent = register("revoked while polling", "pool=revoked-poll");
        Instant registered = agentRepository.find(agent).orElseThrow().lastHeartbeat();
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newSingleThreadExecutor();
        try {
            var waiting = pool.submit(() -> poll(agent, 25));
            await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50)).until(() ->
                    agentRepository.find(agent).orElseThrow().lastHeartbeat().isAfter(registered));
            assertThat(waiting.isDone()).isFalse();

            HttpResponse<String> revoked = admin.post("/api/v1/tokens/" + agentTokenId + "/revoke", "");
            assertThat(revoked.statusCode()).as(revoked.body()).isEqualTo(200);
            Instant afterRevocation = agentRepository.databaseNow();
            long id = admin.create(command("queued after a revocation", Map.of("pool", "revoked-poll")));

            HttpResponse<String> answer = waiting.get(10, java.util.concurrent.TimeUnit.SECONDS);
            HttpResponse<String> later = send(agentToken, "/api/v1/agents/" + agent + "/heartbeat", "");
            assertThat(later.statusCode()).isEqualTo(401);
            assertThat(answer.statusCode()).as(answer.body()).isEqualTo(401);
            assertThat(answer.headers().firstValue("Content-Type")).hasValueSatisfying(
                    type -> assertThat(type).startsWith("application/problem+json"));
            assertThat(answer.headers().firstValue("WWW-Authenticate")).hasValue("Bearer realm=\"perflab\"");
            assertThat(admin.read(answer.body()).get("detail").asText()).as("as a request with that token is told")
                    .isEqualTo(admin.read(later.body()).get("detail").asText())
                    .contains("'" + agentTokenName + "'", "was revoked at");
            assertThat(answer.body()).doesNotContain("withoutCommand", "\"command\"", "experimentId");
            assertThat(admin.status(id)).isEqualTo("QUEUED");
            assertThat(store.claims(id)).isEmpty();
            assertThat(agentRepository.find(agent).orElseThrow().lastHeartbeat())
                    .as("no heartbeat after the revocation").isBeforeOrEqualTo(afterRevocation);

            String otherToken = admin.read(admin.post("/api/v1/tokens", Map.of("name", "after a revocation",
                    "role", "agent")).body()).get("token").asText();
            agentToken = otherToken;
            assertResumes(register("another host", "pool=revoked-poll"), id, List.of(0, 1, 2, 3));
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * A message let in before its token was revoked acted after the revocation: a heartbeat kept the agent alive, a
     * trial or pair posted then was stored, a finish ended the experiment, a poll claimed one. Each checks the token
     * in the transaction that acts, and stores nothing.
     */
    @Test
    void messagesInFlightWhenTheirTokenIsRevokedStoreNothing() throws Exception {
        long fresh = register("in flight", "pool=in-flight");
        long paired = register("in flight, paired", "pool=in-flight-pairs");
        long idle = register("in flight, idle", "pool=in-flight-idle");
        long freshId = admin.create(command("in flight", Map.of("pool", "in-flight")));
        long pairedId = admin.create(alternating("in flight, paired", "in-flight-pairs", 1));
        assertThat(poll(fresh, 0).statusCode()).isEqualTo(200);
        assertThat(poll(paired, 0).statusCode()).isEqualTo(200);
        AgentCoordinator.Caller caller = new AgentCoordinator.Caller("token:" + agentTokenName, false,
                agentTokenId);
        // another request revokes the token while this one is under way: at the first reading of the clock after
        // the checks of its caller, up to which it was let in
        java.util.concurrent.atomic.AtomicBoolean armed = new java.util.concurrent.atomic.AtomicBoolean();
        java.time.Clock revoking = new java.time.Clock() {
            @Override
            public java.time.ZoneId getZone() {
                return java.time.ZoneOffset.UTC;
            }

            @Override
            public java.time.Clock withZone(java.time.ZoneId zone) {
                return this;
            }

            @Override
            public Instant instant() {
                if (armed.getAndSet(false)) {
                    java.util.concurrent.CompletableFuture.runAsync(() -> apiTokens.revoke(agentTokenId, "admin"))
                            .join();
                }
                return Instant.now();
            }
        };
        AgentCoordinator inFlight = new AgentCoordinator(store, agentRepository, looks, new ExperimentEvents(),
                revoking, agentSettings, transactions, new CommandExperimentsPolicy(true), JvmFlagPolicies.of(false),
                apiTokens, metricsReader);
        var json = io.perflab.runner.json.RunnerJson.mapper();
        var trial = json.readValue(recent(trial("without", 0)), io.perflab.agent.AgentProtocol.PostedTrial.class);
        var pair = json.readValue(recent(pair(0, 0, 1)), io.perflab.agent.AgentProtocol.PostedPair.class);
        Runnable unrevoke = () -> jdbc.sql("UPDATE api_token SET revoked_at = NULL, revoked_by = NULL, "
                + "live_name = name WHERE id = ?").param(agentTokenId).update();

        List<org.assertj.core.api.ThrowableAssert.ThrowingCallable> messages = List.of(
                () -> inFlight.recordTrial(fresh, caller, freshId, trial),
                () -> inFlight.recordPair(paired, caller, pairedId, pair),
                () -> inFlight.finish(fresh, caller, freshId, io.perflab.agent.AgentProtocol.Finish.of("FAILED",
                        null)),
                () -> inFlight.poll(idle, caller, Duration.ZERO));
        long idleId = admin.create(command("in flight, claimed", Map.of("pool", "in-flight-idle")));
        for (var message : messages) {
            armed.set(true);
            org.assertj.core.api.Assertions.assertThatThrownBy(message)
                    .isInstanceOf(io.perflab.system.NotAuthenticatedException.class)
                    .hasMessageContaining("'" + agentTokenName + "'", "was revoked at");
            assertThat(armed.get()).as("revoked under way").isFalse();
            unrevoke.run();
        }
        assertThat(jdbc.sql("SELECT COUNT(*) FROM trial_run WHERE experiment_id IN (?, ?)").params(freshId, pairedId)
                .query(Long.class).single()).isZero();
        assertThat(jdbc.sql("SELECT COUNT(*) FROM experiment_pair WHERE experiment_id = ?").param(pairedId)
                .query(Long.class).single()).isZero();
        assertThat(admin.status(freshId)).isEqualTo("RUNNING");
        assertThat(admin.status(idleId)).isEqualTo("QUEUED");
        assertThat(store.claims(idleId)).isEmpty();

        // a heartbeat of a token revoked since it came in keeps no agent alive
        Instant before = agentRepository.find(fresh).orElseThrow().lastHeartbeat();
        apiTokens.revoke(agentTokenId, "admin");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> inFlight.heartbeat(fresh, caller))
                .isInstanceOf(io.perflab.system.NotAuthenticatedException.class);
        assertThat(agentRepository.find(fresh).orElseThrow().lastHeartbeat()).isEqualTo(before);
        unrevoke.run();

        // the same messages with the token as it was are taken
        assertThat(send(agentToken, "/api/v1/agents/" + fresh + "/experiments/" + freshId + "/trials",
                trial("without", 0)).statusCode()).isEqualTo(201);
        assertThat(send(agentToken, "/api/v1/agents/" + paired + "/experiments/" + pairedId + "/pairs",
                pair(0, 0, 1)).statusCode()).isEqualTo(201);
        assertThat(poll(idle, 0).statusCode()).isEqualTo(200);
    }

    @Test
    void anAgentRunsPairedDesignsPairByPairAndStopsOneWithATargetWhereTheBuiltInRuleWould() throws Exception {
        long id = admin.create(alternating("alternating", "pairs", 2));
        // a JMH stand-in whose change is about +97 % and barely varies, its target settled in a few pairs: the
        // change runs it twice a window, so that its score grows twice as fast and the differences are not constant
        java.nio.file.Path dir = Files.createTempDirectory("perflab-agent-rule");
        java.nio.file.Path script = Files.writeString(dir.resolve("jmh.sh"), io.perflab.upload.JmhRunScript.SCRIPT);
        Map<String, Object> ruled = command("alternating with a target", Map.of("pool", "pairs"));
        ruled.remove("runsPerVariant");
        ruled.put("withoutCommand", "sh '" + script + "' {output}");
        ruled.put("withCommand", "sh '" + script + "' /dev/null && sh '" + script + "' {output}");
        ruled.put("metricsFormat", "jmh");
        ruled.put("withoutDirectory", Files.createDirectories(dir.resolve("old")).toString());
        ruled.put("withDirectory", Files.createDirectories(dir.resolve("new")).toString());
        ruled.put("withoutEnvironment", Map.of("SCORE", "100"));
        ruled.put("withEnvironment", Map.of("SCORE", "200"));
        ruled.put("design", "alternating");
        ruled.put("pairs", 8);
        ruled.put("windowsPerPair", 1);
        ruled.put("target", "Parse.parse:settled");
        long withRule = admin.create(ruled);

        io.perflab.agent.AgentLoop agent = loop("pairer", "pairs");
        Thread running = new Thread(agent::run, "pairing agent");
        running.start();
        try {
            await().atMost(Duration.ofSeconds(60)).until(() -> admin.status(id).equals("COMPLETED")
                    && admin.status(withRule).equals("COMPLETED"));
        } finally {
            agent.stop();
            running.join(10_000);
        }

        JsonNode done = admin.getJson("/api/v1/experiments/" + id);
        assertThat(done.get("paired").get("completedPairs").asInt()).isEqualTo(2);
        assertThat(jdbc.sql("SELECT COUNT(*) FROM trial_run WHERE experiment_id = ? AND agent_id = ?")
                .params(id, agent.agentId()).query(Long.class).single()).isEqualTo(8);
        assertThat(jdbc.sql("SELECT COUNT(*) FROM experiment_pair WHERE experiment_id = ? AND agent_id = ?")
                .params(id, agent.agentId()).query(Long.class).single()).isEqualTo(2);

        // the rule stopped the other early, on the agent, with the looks the built-in agent's rule takes
        JsonNode stopped = admin.getJson("/api/v1/experiments/" + withRule);
        assertThat(stopped.get("error").isNull()).as(stopped.toString()).isTrue();
        JsonNode paired = stopped.get("paired");
        assertThat(paired.get("stopReason").asText()).as(paired.toString())
                .startsWith("every target is settled: Parse.parse");
        int ran = paired.get("completedPairs").asInt();
        assertThat(ran).isBetween(2, 7);
        assertThat(jdbc.sql("SELECT COUNT(*) FROM experiment_pair WHERE experiment_id = ? AND agent_id = ?")
                .params(withRule, agent.agentId()).query(Long.class).single()).isEqualTo(ran);
        List<io.perflab.runner.experiment.PairResult> pairs = store.pairs(withRule);
        List<List<io.perflab.paired.SequentialStopping.Look>> made = new java.util.ArrayList<>();
        io.perflab.paired.SequentialStopping builtInRule = new io.perflab.paired.SequentialStopping(
                List.of(io.perflab.paired.SequentialStopping.Target.parse("Parse.parse:settled")), 8,
                io.perflab.stats.ComparisonOptions.defaults().alpha(), java.util.Optional.empty(), System::nanoTime,
                made::add);
        for (int k = 1; k <= ran; k++) {
            io.perflab.runner.experiment.PairStoppingRule.Decision decision =
                    builtInRule.afterPair(pairs.subList(0, k));
            assertThat(decision.stop()).as("stops after pair " + k).isEqualTo(k == ran);
            if (decision.stop()) {
                assertThat(decision.reason()).isEqualTo(paired.get("stopReason").asText());
            }
        }
        assertThat(looks.looks(withRule)).extracting(l -> l.look() + "/" + l.pairs() + "/" + l.outcome() + "/" + l.t())
                .isNotEmpty().containsExactlyElementsOf(made.stream().flatMap(List::stream)
                        .map(l -> l.look().look() + "/" + l.look().pairs() + "/" + l.look().outcome() + "/"
                                + l.look().t()).toList());
        assertThat(jdbc.sql("SELECT outcome FROM experiment_claim WHERE experiment_id = ?").param(withRule)
                .query(String.class).list()).containsExactly("COMPLETED");
    }

    @Autowired
    ExperimentRepository store;

    @Autowired
    SequentialLookRepository looks;

    @Test
    void badPairsAreRefusedWithTheFieldNamedAndNothingStored() throws Exception {
        long agent = register("pair poster", "pool=badpairs");
        long id = admin.create(alternating("bad pairs", "badpairs", 1));
        JsonNode assignment = admin.read(poll(agent, 0).body());
        assertThat(assignment.get("pendingPairs")).hasSize(2);
        String pairs = "/api/v1/agents/" + agent + "/experiments/" + id + "/pairs";

        assertRefused(send(agentToken, pairs, pair(5, 10, 11)), "index", "5 is not a pair of the plan (0..1)");
        assertRefused(send(agentToken, pairs, pair(0, 0, 0)), "results[1].ordinal", "is not a free ordinal");
        assertRefused(send(agentToken, pairs, pair(0, 1, 0)), "results[0].variant", "the plan runs 'with'");
        assertRefused(send(agentToken, pairs, pair(0, 0, 1).replace("\"first\": \"without\"",
                "\"first\": \"both\"")), "first", "'both' is not 'without' or 'with'");
        assertRefused(send(agentToken, pairs, pair(0, 0, 1).replace("\"startedFirst\": true}",
                "\"startedFirst\": true}, \"x\": 1")),
                "x", null);
        assertRefused(send(agentToken, pairs, pair(0, 0, 1).replace("\"variant\": \"with\"", "\"variant\": null")),
                "results[1].variant", "required, 'without' or 'with'");
        assertThat(send(agentToken, "/api/v1/agents/" + agent + "/experiments/" + id + "/trials",
                trial("without", 0)).statusCode()).as("a paired design takes pairs, not trials").isEqualTo(409);
        assertThat(jdbc.sql("SELECT COUNT(*) FROM trial_run WHERE experiment_id = ?").param(id).query(Long.class)
                .single()).isZero();

        String posted = recent(pair(0, 0, 1));
        assertThat(send(agentToken, pairs, posted).statusCode()).isEqualTo(201);
        assertThat(send(agentToken, pairs, posted).statusCode()).as("a retry").isEqualTo(200);
        assertThat(jdbc.sql("SELECT COUNT(*) FROM trial_run WHERE experiment_id = ?").param(id).query(Long.class)
                .single()).isEqualTo(2);
        HttpResponse<String> early = send(agentToken, "/api/v1/agents/" + agent + "/experiments/" + id + "/finish",
                "{\"outcome\": \"COMPLETED\"}");
        assertRefused(early, "outcome", "the pairs [1] are not stored");
    }

    /**
     * A window's place in its pair is the one its ordinal says: a window posted at another (none, −1, beyond the
     * plan, two at one place) was stored, lost from the analysis or left every later read of the experiment
     * failing with a 500. CPU lists longer than their column failed with a 500, and a pair's times went unchecked.
     */
    @Test
    void aPairsWindowsCpuListsAndTimesAreCheckedAndNothingBadIsStored() throws Exception {
        long agent = register("window poster", "pool=windows");
        long id = admin.create(alternating("bad windows", "windows", 2));
        assertThat(poll(agent, 0).statusCode()).isEqualTo(200);
        String pairs = "/api/v1/agents/" + agent + "/experiments/" + id + "/pairs";

        // a negative window is no window at all: refused where a pair position is read, for files and posts alike
        assertRefused(send(agentToken, pairs, pair(0, -1, -1, 1, 1)), "\"results[0].window.window\"",
                "pair 0 has window -1; a pair's windows are numbered 0 to 999");
        assertRefused(send(agentToken, pairs, pair(0, 0, 0, 0, 0)), "results[2].window.window", "must be 1");
        assertRefused(send(agentToken, pairs, pair(0, 1, 1, 0, 0)), "results[0].window.window", "must be 0");
        assertRefused(send(agentToken, pairs, pair(0, 0, 0, 7, 7)), "results[2].window.window", "must be 1");
        assertRefused(send(agentToken, pairs, pair(0, 0, 0, 1, 1).replace("\"window\": 0, ", "")),
                "results[0].window.window", "got null");
        assertRefused(send(agentToken, pairs, pair(0, 0, 1).replace("\"status\": \"OK\", \"first\"",
                "\"status\": \"FAILED\", \"first\"")), "results[0].status", "the records of a failed pair are not OK");
        assertRefused(send(agentToken, pairs, pair(0, 0, 0, 1, 1).replaceFirst("\"status\": \"OK\", \"start\"",
                "\"status\": \"FAILED\", \"start\"")), "results[0].status", "every window of an OK pair is OK");
        String failed = pair(0, 0, 0, 1, 1).replace("\"OK\"", "\"FAILED\"");
        assertRefused(send(agentToken, pairs, failed.substring(0, failed.indexOf('[') + 1) + "]}"), "results",
                "a failed pair has one record per variant: 2, got 0");
        String bothWithout = "{\"index\": 0, \"status\": \"FAILED\", \"first\": \"without\", "
                + "\"start\": \"2026-01-01T00:00:00Z\", \"end\": \"2026-01-01T00:00:05Z\", \"setupSeconds\": 1.0, "
                + "\"measuringSeconds\": 0.0, \"error\": \"it died\", \"results\": ["
                + window("without", 0, 0) + ", " + window("without", 2, 0) + "]}";
        assertRefused(send(agentToken, pairs, bothWithout.replace("\"OK\"", "\"FAILED\"")), "results[1].ordinal",
                "2 is not a free ordinal of failed pair 0 (0..1)");
        String cpus = "0-3,".repeat(60);
        assertRefused(send(agentToken, pairs, pair(0, 0, 0, 1, 1).replace("\"first\"",
                "\"withoutCpus\": \"" + cpus + "\", \"first\"")), "withoutCpus", "at most 200 printable");
        assertRefused(send(agentToken, pairs, pair(0, 0, 0, 1, 1).replace("\"startedFirst\"",
                "\"cpus\": \"" + cpus + "\", \"startedFirst\"")), "results[0].window.cpus", "at most 200");
        assertRefused(send(agentToken, pairs, pair(0, 0, 0, 1, 1).replace("\"startedFirst\"",
                "\"cpus\": \"0\\u001b[31m\", \"startedFirst\"")), "results[0].window.cpus", "printable");
        assertRefused(send(agentToken, pairs, pair(0, 0, 0, 1, 1).replace("\"end\": \"2026-01-01T00:00:05Z\"",
                "\"end\": \"2025-01-01T00:00:05Z\"")), "end", "a pair needs its start and its end");
        assertRefused(send(agentToken, pairs, pair(0, 0, 0, 1, 1).replace("\"start\": \"2026-01-01T00:00:00Z\", "
                + "\"end\": \"2026-01-01T00:00:05Z\"", "\"start\": \"+99999-01-01T00:00:00Z\", "
                + "\"end\": \"+99999-01-01T00:00:05Z\"")), "start", "must lie between 1970");
        // the windows' times are checked as a trial's
        assertRefused(send(agentToken, pairs, pair(0, 0, 0, 1, 1).replaceFirst("\"start\": \"2026-01-01T00:00:00Z\", "
                + "\"end\": \"2026-01-01T00:00:01Z\"", "\"start\": 0, \"end\": \"2026-01-01T00:00:01Z\"")),
                "results[0].start", "must be a time");
        assertRefused(send(agentToken, pairs, pair(0, 0, 0, 1, 1).replaceFirst("2026-01-01T00:00:00Z\", "
                + "\"end\": \"2026-01-01T00:00:01Z", "2021-01-01T00:00:00Z\", \"end\": \"2026-01-01T00:00:01Z")),
                "results[0].start", "is before experiment");
        assertThat(jdbc.sql("SELECT COUNT(*) FROM trial_run WHERE experiment_id = ?").param(id).query(Long.class)
                .single()).isZero();
        assertThat(jdbc.sql("SELECT COUNT(*) FROM experiment_pair WHERE experiment_id = ?").param(id)
                .query(Long.class).single()).isZero();

        assertThat(send(agentToken, pairs, pair(0, 0, 0, 1, 1)).statusCode()).isEqualTo(201);
        HttpResponse<String> read = admin.get("/api/v1/experiments/" + id, "application/json");
        assertThat(read.statusCode()).as(read.body()).isEqualTo(200);
        assertThat(admin.read(read.body()).get("paired").get("completedPairs").asInt()).isEqualTo(1);
    }

    /** Pair {@code index} of two windows per variant, posted at the window places given in ordinal order. */
    private static String pair(int index, int... places) {
        StringBuilder results = new StringBuilder();
        for (int i = 0; i < places.length; i++) {
            String variant = i % 2 == 0 ? "without" : "with";
            results.append(i == 0 ? "" : ", ").append(trial(variant, index * places.length + i).replace("}}",
                    "}, \"window\": {\"pair\": " + index + ", \"window\": " + places[i] + ", \"startedFirst\": "
                            + variant.equals("without") + "}}"));
        }
        return "{\"index\": " + index + ", \"status\": \"OK\", \"first\": \"without\", "
                + "\"start\": \"2026-01-01T00:00:00Z\", \"end\": \"2026-01-01T00:00:05Z\", \"setupSeconds\": 1.0, "
                + "\"measuringSeconds\": 3.0, \"results\": [" + results + "]}";
    }

    /** Pair {@code index} of one window per variant, its two windows at {@code withoutOrdinal} and the other. */
    private static String pair(int index, int withoutOrdinal, int withOrdinal) {
        return "{\"index\": " + index + ", \"status\": \"OK\", \"first\": \"without\", "
                + "\"start\": \"2026-01-01T00:00:00Z\", \"end\": \"2026-01-01T00:00:05Z\", \"setupSeconds\": 1.0, "
                + "\"measuringSeconds\": 3.0, \"results\": [" + window("without", withoutOrdinal, index) + ", "
                + window("with", withOrdinal, index) + "]}";
    }

    private static String window(String variant, int ordinal, int pair) {
        return trial(variant, ordinal).replace("}}", "}, \"window\": {\"pair\": " + pair + ", \"window\": 0, "
                + "\"startedFirst\": " + variant.equals("without") + "}}");
    }

    @Autowired
    AgentCoordinator coordinator;

    @Autowired
    AgentRepository agentRepository;

    @Autowired
    AgentProperties agentSettings;

    @Autowired
    io.perflab.security.ApiTokens apiTokens;

    @Autowired
    io.perflab.runner.experiment.MetricsReader metricsReader;

    @Autowired
    org.springframework.transaction.PlatformTransactionManager transactions;

    /**
     * Heartbeats were stamped by the clock of the instance that took them, and the watch compared them with its own:
     * an instance whose clock ran ahead by more than the timeout declared every live agent lost and interrupted its
     * experiment. Both now read the database's clock.
     */
    @Test
    void aWatchOnAnInstanceWhoseClockRunsAheadLosesNoLiveAgent() throws Exception {
        long live = register("heard a moment ago", "pool=ahead");
        long id = admin.create(command("runs on a live agent", Map.of("pool", "ahead")));
        assertThat(poll(live, 0).statusCode()).isEqualTo(200);
        java.time.Clock ahead = java.time.Clock.offset(java.time.Clock.systemUTC(),
                agentSettings.heartbeatTimeout().multipliedBy(2));
        AgentCoordinator instanceAhead = new AgentCoordinator(store, agentRepository, looks, new ExperimentEvents(),
                ahead, agentSettings, transactions, new CommandExperimentsPolicy(true), JvmFlagPolicies.of(false),
                apiTokens, metricsReader);

        instanceAhead.watch();

        assertThat(agentRepository.find(live).orElseThrow().status()).isEqualTo("RUNNING");
        assertThat(admin.status(id)).isEqualTo("RUNNING");
    }

    @Test
    void anExperimentWaitingToBeResumedAfterItsAgentWasLostCanBeCancelled() throws Exception {
        long gone = register("gone", "pool=gone");
        long id = admin.create(command("waits for an agent", Map.of("pool", "gone")));
        poll(gone, 0);
        jdbc.sql("UPDATE agent SET last_heartbeat = ? WHERE id = ?")
                .params(java.time.OffsetDateTime.now().minusHours(1), gone).update();
        coordinator.watch();
        assertThat(admin.status(id)).isEqualTo("INTERRUPTED");
        long behind = admin.create(command("queued behind it", Map.of("pool", "gone")));
        long position = admin.getJson("/api/v1/experiments/" + behind).get("queuePosition").asLong();

        assertThat(admin.post("/api/v1/experiments/" + id + "/cancel", "").statusCode()).isEqualTo(202);

        assertThat(admin.status(id)).isEqualTo("CANCELLED");
        assertThat(admin.getJson("/api/v1/experiments/" + behind).get("queuePosition").asLong())
                .as("the queue counted the interrupted experiment a claim would have taken first")
                .isEqualTo(position - 1);
        HttpResponse<String> next = poll(register("next", "pool=gone"), 0);
        assertThat(admin.read(next.body()).get("experimentId").asLong()).as("not the cancelled one")
                .isEqualTo(behind);
        HttpResponse<String> again = admin.post("/api/v1/experiments/" + id + "/cancel", "");
        assertThat(again.statusCode()).isEqualTo(409);
        assertThat(again.body()).contains("is CANCELLED");
    }

    /**
     * The queue position counted the experiments ahead of a queued one, not whether a host able to run it was alive:
     * with its only agent silent past the heartbeat timeout, the page said "position 1 in the queue" and nothing
     * more, as if it were next.
     */
    @Test
    void aQueuedExperimentNoLiveHostCanRunSaysWhatItWaitsForOnItsPageAndInTheApi() throws Exception {
        long gone = register("gone quiet", "pool=deserted");
        Instant lastHeard = Instant.now().minus(Duration.ofHours(1)).truncatedTo(ChronoUnit.SECONDS);
        jdbc.sql("UPDATE agent SET last_heartbeat = ? WHERE id = ?")
                .params(lastHeard.atOffset(java.time.ZoneOffset.UTC), gone).update();
        long waiting = admin.create(command("waits for a deserted pool", Map.of("pool", "deserted")));
        long unheard = admin.create(command("waits for a pool never seen", Map.of("pool", "never-seen")));

        JsonNode view = admin.getJson("/api/v1/experiments/" + waiting);
        assertThat(view.get("queuePosition").asLong()).as("the experiments ahead of it, of other tests too")
                .isPositive();
        JsonNode wait = view.get("waitingForHost");
        String said = "Waiting for a host with labels pool=deserted, that runs command experiments; none alive since "
                + Format.time(lastHeard) + ": start perflab agent on such a host, or bring its agent back.";
        assertThat(wait.get("detail").asText()).isEqualTo(said);
        assertThat(wait.get("labels").asText()).isEqualTo("pool=deserted");
        assertThat(wait.get("runsCommands").asBoolean()).isTrue();
        assertThat(wait.get("noneAliveSince").isNull()).isFalse();
        HttpResponse<String> page = admin.get("/experiments/" + waiting, "text/html");
        assertThat(page.body()).contains("class=\"alert warn host-wait\" role=\"status\">" + said + "</p>",
                "</strong> in the queue");
        assertThat(admin.getJson("/api/v1/experiments/" + unheard).get("waitingForHost").get("detail").asText())
                .isEqualTo("Waiting for a host with labels pool=never-seen, that runs command experiments; none has "
                        + "registered: start perflab agent on such a host.");
        // a list reads the live hosts once for all its entries, and says the same of each
        JsonNode listed = admin.getJson("/api/v1/experiments?status=QUEUED&name=waits+for+a+").get("items");
        assertThat(listed).extracting(item -> item.get("waitingForHost").get("detail").asText()).contains(said,
                "Waiting for a host with labels pool=never-seen, that runs command experiments; none has registered: "
                        + "start perflab agent on such a host.");

        register("back on duty", "pool=deserted");

        assertThat(admin.getJson("/api/v1/experiments/" + waiting).get("waitingForHost").isNull())
                .as("a live agent of those labels can take it").isTrue();
        assertThat(admin.get("/experiments/" + waiting, "text/html").body()).doesNotContain("host-wait")
                .contains("</strong> in the queue");
    }

    /**
     * An experiment with completion=futex went to any agent of its labels: on macOS, or on Linux on an architecture
     * other than amd64 and aarch64, every trial failed as its engine client started, until the experiment failed. It
     * goes to an agent of that platform only, waiting meanwhile with the option and the platform named; an experiment
     * whose options run anywhere still goes to any agent of its labels.
     */
    @Test
    void anExperimentWithAnOptionThatRunsOnOnePlatformGoesOnlyToAnAgentOfThatPlatform() throws Exception {
        long mac = register("mac", "pool=platform", "\"os_name\": \"Mac OS X\", \"os_arch\": \"aarch64\"");
        long riscv = register("riscv", "pool=platform", "\"os_name\": \"Linux\", \"os_arch\": \"riscv64\"");
        long futex = admin.create(new LinkedHashMap<>(Map.of("name", "futex placed", "preset", "sync-completion",
                "runsPerVariant", 2, "hostLabels", Map.of("pool", "platform"))));

        assertThat(poll(mac, 0).statusCode()).as("macOS").isEqualTo(204);
        assertThat(poll(riscv, 0).statusCode()).as("Linux on riscv64").isEqualTo(204);
        assertThat(admin.status(futex)).isEqualTo("QUEUED");
        String said = "Waiting for a host with labels pool=platform, on Linux on amd64 or aarch64 (completion=futex "
                + "of variant with runs there only); none has registered: start perflab agent on such a host.";
        JsonNode wait = admin.getJson("/api/v1/experiments/" + futex).get("waitingForHost");
        assertThat(wait.get("detail").asText()).isEqualTo(said);
        assertThat(wait.get("platforms")).singleElement().satisfies(need -> {
            assertThat(need.get("variant").asText()).isEqualTo("with");
            assertThat(need.get("option").asText()).isEqualTo("completion=futex");
            assertThat(need.get("platform").get("osName").asText()).isEqualTo("Linux");
            assertThat(need.get("platform").get("architectures")).extracting(JsonNode::asText)
                    .containsExactly("amd64", "aarch64");
        });
        assertThat(admin.get("/experiments/" + futex, "text/html").body())
                .contains("class=\"alert warn host-wait\" role=\"status\">" + said + "</p>");

        // options that run anywhere: either agent takes them, passing over the older experiment it may not run
        for (long agent : List.of(mac, riscv)) {
            long anywhere = admin.create(new LinkedHashMap<>(Map.of("name", "runs anywhere", "preset",
                    "pooled-buffers", "runsPerVariant", 2, "hostLabels", Map.of("pool", "platform"))));
            HttpResponse<String> claimed = poll(agent, 0);
            assertThat(claimed.statusCode()).as(claimed.body()).isEqualTo(200);
            assertThat(admin.read(claimed.body()).get("experimentId").asLong()).isEqualTo(anywhere);
            assertThat(send(agentToken, "/api/v1/agents/" + agent + "/experiments/" + anywhere + "/finish",
                    "{\"outcome\": \"FAILED\"}").statusCode()).isEqualTo(200);
        }
        assertThat(poll(mac, 0).statusCode()).isEqualTo(204);

        // a perflab agent of an earlier release registered its kernel, not os_name and os_arch; an agent of
        // another making may register neither, and the agents' list says so
        long linux = register("linux", "pool=platform", "\"kernel\": \"Linux 6.1.0-18-amd64 amd64\"");
        long unknown = register("unknown", "pool=elsewhere", "\"arch\": \"x\"");
        Map<String, String> platforms = new LinkedHashMap<>();
        for (JsonNode listed : admin.getJson("/api/v1/agents?size=200").get("items")) {
            JsonNode platform = listed.get("platform");
            platforms.put(listed.get("name").asText(), platform.isNull() ? null
                    : platform.get("osName").asText() + " on " + platform.get("osArch").asText());
        }
        assertThat(platforms).containsEntry("mac", "Mac OS X on aarch64").containsEntry("riscv", "Linux on riscv64")
                .containsEntry("linux", "Linux on amd64").containsEntry("unknown", null);
        String listPage = admin.get("/agents", "text/html").body();
        java.util.function.LongFunction<String> row = agent -> {
            String from = listPage.substring(listPage.indexOf("data-agent-id=\"" + agent + "\""));
            return from.substring(0, from.indexOf("</tr>"));
        };
        assertThat(row.apply(unknown)).contains("registered no platform");
        assertThat(List.of(mac, riscv, linux)).allSatisfy(agent -> assertThat(row.apply(agent))
                .doesNotContain("registered no platform"));
        assertThat(admin.getJson("/api/v1/experiments/" + futex).get("waitingForHost").isNull())
                .as("a live agent of its labels and platform can take it").isTrue();
        assertResumes(linux, futex, List.of(0, 1, 2, 3));
    }

    /**
     * An experiment whose target is instructions_per_req went to any agent of its labels: on a host without hardware
     * counters (most virtual machines) it stopped after its first pair, its target unmeasured. It goes only to an
     * agent that said it counts them, waiting meanwhile with the target named; one whose targets every host measures
     * still goes to any agent of its labels.
     */
    @Test
    void anExperimentWhoseTargetOnlyHardwareCountersMeasureGoesOnlyToAnAgentThatHasThem() throws Exception {
        long guest = registerCounting("guest", "pool=counters", "false", "true");
        long older = register("older", "pool=counters");
        long counted = admin.create(pairedEngine("counted target", "counters", "instructions_per_req:settled"));

        assertThat(poll(guest, 0).statusCode()).as("no hardware counters").isEqualTo(204);
        assertThat(poll(older, 0).statusCode()).as("said nothing of them").isEqualTo(204);
        assertThat(admin.status(counted)).isEqualTo("QUEUED");
        String said = "Waiting for a host with labels pool=counters, with hardware counters (target "
                + "instructions_per_req is counted there only); none has registered: start perflab agent on such a "
                + "host. A live host that would otherwise take it has no hardware counters: created with a target "
                + "every host measures (cpu_us_per_req), the experiment would run there. A live host that would "
                + "otherwise take it did not say whether it has hardware counters (hardwareCounters: its perflab "
                + "agent is of an earlier release), so it is not given it.";
        JsonNode wait = admin.getJson("/api/v1/experiments/" + counted).get("waitingForHost");
        assertThat(wait.get("detail").asText()).isEqualTo(said);
        assertThat(wait.get("hardwareCounterTargets")).extracting(JsonNode::asText)
                .containsExactly("instructions_per_req");
        assertThat(wait.get("platforms")).isEmpty();
        assertThat(admin.get("/experiments/" + counted, "text/html").body())
                .contains("class=\"alert warn host-wait\" role=\"status\">" + said + "</p>");

        // targets every host measures: either agent takes them, passing over the older experiment it may not run
        for (long agent : List.of(guest, older)) {
            long anywhere = admin.create(pairedEngine("measured anywhere", "counters", "cpu_us_per_req:2%"));
            HttpResponse<String> claimed = poll(agent, 0);
            assertThat(claimed.statusCode()).as(claimed.body()).isEqualTo(200);
            assertThat(admin.read(claimed.body()).get("experimentId").asLong()).isEqualTo(anywhere);
            assertThat(send(agentToken, "/api/v1/agents/" + agent + "/experiments/" + anywhere + "/finish",
                    "{\"outcome\": \"FAILED\"}").statusCode()).isEqualTo(200);
        }
        assertThat(poll(guest, 0).statusCode()).isEqualTo(204);

        long bareMetal = registerCounting("bare metal", "pool=counters", "true", "true");

        assertThat(admin.getJson("/api/v1/experiments/" + counted).get("waitingForHost").isNull())
                .as("a live agent of its labels with hardware counters can take it").isTrue();
        HttpResponse<String> claimed = poll(bareMetal, 0);
        assertThat(claimed.statusCode()).as(claimed.body()).isEqualTo(200);
        assertThat(admin.read(claimed.body()).get("experimentId").asLong()).isEqualTo(counted);
    }

    /**
     * An experiment whose target is syscalls_per_req went to any agent of its labels: on a host whose trials count no
     * system calls (the kernel refusing the tracepoint to an unprivileged agent, or its trial JVMs told not to) it
     * stopped after its first pair, its target unmeasured. It goes only to an agent that said it counts them, waiting
     * meanwhile with the target named.
     */
    @Test
    void anExperimentWhoseTargetIsSystemCallsGoesOnlyToAnAgentThatCountsThem() throws Exception {
        long unprivileged = registerCounting("unprivileged", "pool=syscalls", "true", "false");
        long older = registerCounting("older", "pool=syscalls", "true", "null");
        Map<String, Object> request = pairedEngine("system calls target", "syscalls", "syscalls_per_req:settled");
        request.put("design", "alternating");
        long counted = admin.create(request);

        assertThat(poll(unprivileged, 0).statusCode()).as("counts no system calls").isEqualTo(204);
        assertThat(poll(older, 0).statusCode()).as("said nothing of them").isEqualTo(204);
        assertThat(admin.status(counted)).isEqualTo("QUEUED");
        JsonNode wait = admin.getJson("/api/v1/experiments/" + counted).get("waitingForHost");
        assertThat(wait.get("detail").asText()).isEqualTo("Waiting for a host with labels pool=syscalls, that counts "
                + "system calls (target syscalls_per_req is counted there only); none has registered: start perflab "
                + "agent on such a host. A live host that would otherwise take it counts no system calls: created "
                + "with a target every host measures (cpu_us_per_req), the experiment would run there. A live host "
                + "that would otherwise take it did not say whether it counts system calls (systemCalls: its perflab "
                + "agent is of an earlier release), so it is not given it.");
        assertThat(wait.get("systemCallTargets")).extracting(JsonNode::asText).containsExactly("syscalls_per_req");
        assertThat(wait.get("hardwareCounterTargets")).isEmpty();

        long privileged = registerCounting("privileged", "pool=syscalls", "false", "true");

        assertThat(admin.getJson("/api/v1/experiments/" + counted).get("waitingForHost").isNull())
                .as("a live agent of its labels that counts system calls can take it").isTrue();
        HttpResponse<String> claimed = poll(privileged, 0);
        assertThat(claimed.statusCode()).as(claimed.body()).isEqualTo(200);
        assertThat(admin.read(claimed.body()).get("experimentId").asLong()).isEqualTo(counted);
    }

    @Test
    void aSilentAgentIsLostItsExperimentInterruptedAndResumedByAnAgentOfTheSameLabelsUnlessCancelled()
            throws Exception {
        long silent = register("silent", "pool=silence");
        long id = admin.create(command("left behind", Map.of("pool", "silence")));
        poll(silent, 0);
        assertThat(send(agentToken, "/api/v1/agents/" + silent + "/experiments/" + id + "/trials",
                trial("without", 0)).statusCode()).isEqualTo(201);
        long quiet = register("quiet", "pool=hush");
        long cancelled = admin.create(command("cancelled meanwhile", Map.of("pool", "hush")));
        poll(quiet, 0);
        assertThat(admin.post("/api/v1/experiments/" + cancelled + "/cancel", "").statusCode()).isEqualTo(202);

        // both fell silent an hour ago, far beyond the heartbeat timeout
        jdbc.sql("UPDATE agent SET last_heartbeat = ? WHERE id IN (?, ?)")
                .params(java.time.OffsetDateTime.now().minusHours(1), silent, quiet).update();
        coordinator.watch();

        assertThat(admin.status(id)).isEqualTo("INTERRUPTED");
        assertThat(admin.getJson("/api/v1/experiments/" + id).get("error").asText())
                .contains("agent silent", "sent no heartbeat", "the next agent of the same labels resumes");
        assertThat(admin.getJson("/api/v1/agents/" + silent).get("status").asText()).isEqualTo("LOST");
        assertThat(admin.getJson("/api/v1/agents/" + silent).get("experimentId").isNull())
                .as("a lost agent runs nothing: its experiment is interrupted").isTrue();
        HttpResponse<String> late = send(agentToken, "/api/v1/agents/" + silent + "/heartbeat", "");
        assertThat(late.statusCode()).isEqualTo(409);
        assertThat(late.body()).contains("was declared lost", "Register again");
        assertThat(send(agentToken, "/api/v1/agents/" + silent + "/experiments/" + id + "/trials",
                trial("with", 1)).statusCode()).as("a lost agent's trials are not stored").isEqualTo(409);
        assertThat(admin.status(cancelled)).as("a cancel is not undone by a resume").isEqualTo("CANCELLED");
        // waiting for the next claim as a queued experiment does, it said neither where it stood nor what it waited for
        JsonNode interrupted = admin.getJson("/api/v1/experiments/" + id);
        assertThat(interrupted.get("queuePosition").asLong()).as("a claim would take it up again").isPositive();
        String waits = "Waiting for a host labelled exactly pool=silence (as the host its first trial ran on), "
                + "that runs command experiments; none alive since ";
        assertThat(interrupted.get("waitingForHost").get("detail").asText()).startsWith(waits);
        assertThat(admin.get("/experiments/" + id, "text/html").body())
                .contains("host-wait\" role=\"status\">" + waits, "</strong> in the queue");
        assertThat(admin.getJson("/api/v1/experiments/" + cancelled).get("waitingForHost").isNull()).isTrue();

        long other = register("other", "pool=silence,arch=x86_64");
        assertThat(poll(other, 0).statusCode()).as("another label set: its trials would not compare")
                .isEqualTo(204);
        assertThat(admin.getJson("/api/v1/experiments/" + id).get("waitingForHost").get("detail").asText())
                .startsWith(waits);
        long successor = register("successor", "pool=silence");
        assertThat(admin.getJson("/api/v1/experiments/" + id).get("waitingForHost").isNull())
                .as("a live agent of its labels can resume it").isTrue();
        assertResumes(successor, id);
    }

    /**
     * The instance that declares an agent lost ends its claims in statements of their own: a crash (or a database
     * error) between the two left the agent LOST and its experiment RUNNING on it, and no watch looked at a lost agent
     * again, so the experiment stayed RUNNING for good and no agent resumed it.
     */
    /**
     * An agent that stored every trial (or pair) and was lost before it posted the end left its experiment
     * INTERRUPTED with all its runs, and a resume queued it to wait for a host of its labels, to run nothing. Lost
     * (or stopped) so, it completes as the end would have made it; resumed so, it completes at once.
     */
    @Test
    void anExperimentWhoseAgentIsLostAfterStoringEveryRunCompletesAsItsFinishWouldHaveMadeIt() throws Exception {
        Map<String, Object> six = command("every trial stored", Map.of("pool", "all-stored"));
        six.put("runsPerVariant", 3);
        long finished = admin.create(six);
        long lost = admin.create(six);
        long pairs = admin.create(alternating("every pair stored", "all-stored", 1));
        long quitter = register("posts all, then dies", "pool=all-stored");
        for (long id : List.of(finished, lost)) {
            assertThat(admin.read(poll(quitter, 0).body()).get("experimentId").asLong()).isEqualTo(id);
            for (int ordinal = 0; ordinal < 6; ordinal++) {
                assertThat(send(agentToken, "/api/v1/agents/" + quitter + "/experiments/" + id + "/trials",
                        trial(ordinal % 2 == 0 ? "without" : "with", ordinal)).statusCode()).isEqualTo(201);
            }
            if (id == finished) {
                assertThat(send(agentToken, "/api/v1/agents/" + quitter + "/experiments/" + id + "/finish",
                        "{\"outcome\": \"COMPLETED\"}").statusCode()).isEqualTo(200);
            }
        }
        long leaver = register("posts every pair, then is stopped", "pool=all-stored");
        assertThat(admin.read(poll(leaver, 0).body()).get("experimentId").asLong()).isEqualTo(pairs);
        for (int pair = 0; pair < 2; pair++) {
            assertThat(send(agentToken, "/api/v1/agents/" + leaver + "/experiments/" + pairs + "/pairs",
                    pair(pair, 2 * pair, 2 * pair + 1)).statusCode()).isEqualTo(201);
        }

        jdbc.sql("UPDATE agent SET last_heartbeat = ? WHERE id = ?")
                .params(java.time.OffsetDateTime.now().minusHours(1), quitter).update();
        coordinator.watch();
        assertThat(send(agentToken, "/api/v1/agents/" + leaver + "/leave", "").statusCode()).isEqualTo(200);

        JsonNode done = admin.getJson("/api/v1/experiments/" + lost);
        JsonNode reference = admin.getJson("/api/v1/experiments/" + finished);
        assertThat(done.get("status").asText()).isEqualTo("COMPLETED");
        assertThat(done.get("error").isNull()).as(done.get("error").toString()).isTrue();
        assertThat(done.get("progress")).isEqualTo(reference.get("progress"));
        assertThat(done.get("progress").get("completedRuns").asInt()).isEqualTo(6);
        assertThat(done.get("results")).as("compared as the finished one").isNotEmpty()
                .isEqualTo(reference.get("results"));
        assertThat(done.get("waitingForHost").isNull()).isTrue();
        assertThat(store.claims(lost)).extracting(ExperimentRepository.Claim::outcome).containsExactly("COMPLETED");
        assertThat(admin.getJson("/api/v1/experiments?status=COMPLETED&name=every+trial+stored").get("items"))
                .extracting(item -> item.get("id").asLong()).contains(lost, finished);
        JsonNode paired = admin.getJson("/api/v1/experiments/" + pairs);
        assertThat(paired.get("status").asText()).isEqualTo("COMPLETED");
        assertThat(paired.get("paired").get("completedPairs").asInt()).isEqualTo(2);
        assertThat(store.claims(pairs)).extracting(ExperimentRepository.Claim::outcome).containsExactly("COMPLETED");

        // one left INTERRUPTED so before (or cancelled, or failed) completes when resumed, and waits for no host
        long before = admin.create(six);
        assertThat(poll(quitter = register("of before", "pool=all-stored"), 0).statusCode()).isEqualTo(200);
        for (int ordinal = 0; ordinal < 6; ordinal++) {
            send(agentToken, "/api/v1/agents/" + quitter + "/experiments/" + before + "/trials",
                    trial(ordinal % 2 == 0 ? "without" : "with", ordinal));
        }
        assertThat(store.endClaim(before, quitter, ExperimentStatus.INTERRUPTED, Instant.now(), "agent lost", true))
                .isTrue();
        HttpResponse<String> resumed = admin.post("/api/v1/experiments/" + before + "/resume", "");
        assertThat(resumed.statusCode()).as(resumed.body()).isEqualTo(200);
        assertThat(admin.read(resumed.body()).get("status").asText()).isEqualTo("COMPLETED");
        assertThat(admin.getJson("/api/v1/experiments/" + before).get("results"))
                .isEqualTo(reference.get("results"));
        assertThat(store.find(before).orElseThrow().error()).isNull();
        // one that misses a run is queued as before
        long missing = admin.create(six);
        assertThat(poll(quitter, 0).statusCode()).isEqualTo(200);
        send(agentToken, "/api/v1/agents/" + quitter + "/experiments/" + missing + "/trials", trial("without", 0));
        assertThat(store.endClaim(missing, quitter, ExperimentStatus.INTERRUPTED, Instant.now(), "lost", true))
                .isTrue();
        HttpResponse<String> queued = admin.post("/api/v1/experiments/" + missing + "/resume", "");
        assertThat(queued.statusCode()).isEqualTo(202);
        assertThat(admin.read(queued.body()).get("status").asText()).isEqualTo("QUEUED");
    }

    /**
     * An agent whose last trial (or pair) fails past the experiment's maxFailures ends it FAILED; lost before it
     * posted that end, or resumed with nothing left to run, it was COMPLETED. It ends as the finish would have.
     */
    @Test
    void anExperimentWhoseLastRunFailedPastItsMaxFailuresFailsWhenItsAgentIsLostOrItIsResumed() throws Exception {
        Map<String, Object> four = command("fails at the last trial", Map.of("pool", "fails-last"));
        four.put("maxFailures", 1);
        Map<String, Object> twoPairs = alternating("fails at the last pair", "fails-last", 1);
        twoPairs.put("maxFailures", 1);
        List<Long> agents = new ArrayList<>();
        // two failures where one is allowed, the second at the last trial; the last experiment fails only once
        Map<Long, Integer> failures = new LinkedHashMap<>();
        for (int failed : List.of(2, 2, 2, 1)) {
            long id = admin.create(failed == 2 && failures.size() == 2 ? twoPairs : four);
            failures.put(id, failed);
            long agent = register("fails, then dies " + id, "pool=fails-last");
            agents.add(agent);
            assertThat(admin.read(poll(agent, 0).body()).get("experimentId").asLong()).isEqualTo(id);
            for (int run = 0; run < (failures.size() == 3 ? 2 : 4); run++) {
                boolean fails = run >= (failures.size() == 3 ? 0 : 4 - failed);
                String posted = failures.size() == 3 ? pair(run, 2 * run, 2 * run + 1) : trial(run % 2 == 0
                        ? "without" : "with", run);
                if (fails) {
                    posted = failures.size() == 3 ? posted.replace("\"OK\"", "\"FAILED\"").replace("\"results\"",
                            "\"error\": \"exited 1\", \"results\"")
                            : posted.replace("\"OK\"", "\"FAILED\", \"error\": \"exited 1\"");
                }
                HttpResponse<String> answer = send(agentToken, "/api/v1/agents/" + agent + "/experiments/" + id
                        + (failures.size() == 3 ? "/pairs" : "/trials"), posted);
                assertThat(answer.statusCode()).as(answer.body()).isEqualTo(201);
            }
        }
        List<Long> ids = List.copyOf(failures.keySet());
        long lost = ids.get(0);
        long resumed = ids.get(1);
        long pairs = ids.get(2);
        long tolerated = ids.get(3);
        assertThat(store.endClaim(resumed, agents.get(1), ExperimentStatus.INTERRUPTED, Instant.now(), "agent lost",
                true)).isTrue();

        jdbc.sql("UPDATE agent SET last_heartbeat = ? WHERE id IN (?, ?, ?)")
                .params(java.time.OffsetDateTime.now().minusHours(1), agents.get(0), agents.get(2), agents.get(3))
                .update();
        coordinator.watch();

        JsonNode failed = admin.getJson("/api/v1/experiments/" + lost);
        assertThat(failed.get("status").asText()).isEqualTo("FAILED");
        assertThat(failed.get("error").asText()).isEqualTo("stopped after 2 failed trials (more than maxFailures, 1)");
        assertThat(store.claims(lost)).extracting(ExperimentRepository.Claim::outcome).containsExactly("FAILED");
        JsonNode failedPairs = admin.getJson("/api/v1/experiments/" + pairs);
        assertThat(failedPairs.get("status").asText()).isEqualTo("FAILED");
        assertThat(failedPairs.get("error").asText())
                .isEqualTo("stopped after 2 failed pairs (more than maxFailures, 1)");
        assertThat(admin.status(tolerated)).as("one failure where one is allowed").isEqualTo("COMPLETED");

        HttpResponse<String> resume = admin.post("/api/v1/experiments/" + resumed + "/resume", "");
        assertThat(resume.statusCode()).as(resume.body()).isEqualTo(200);
        assertThat(admin.read(resume.body()).get("status").asText()).isEqualTo("FAILED");
        assertThat(admin.getJson("/api/v1/experiments/" + resumed).get("error").asText())
                .isEqualTo("stopped after 2 failed trials (more than maxFailures, 1)");
    }

    @Test
    void anExperimentLeftRunningOnAnAgentAlreadyDeclaredLostIsInterruptedByTheNextWatch() throws Exception {
        long crashed = register("declared", "pool=split");
        long id = admin.create(command("left running", Map.of("pool", "split")));
        assertThat(poll(crashed, 0).statusCode()).isEqualTo(200);
        // what the declaring instance left when it stopped before ending the claim
        jdbc.sql("UPDATE agent SET status = 'LOST', last_heartbeat = ? WHERE id = ?")
                .params(java.time.OffsetDateTime.now().minusHours(1), crashed).update();

        coordinator.watch();

        assertThat(admin.status(id)).isEqualTo("INTERRUPTED");
        assertThat(admin.getJson("/api/v1/experiments/" + id).get("error").asText())
                .contains("sent no heartbeat", "the next agent of the same labels resumes");
        assertThat(store.claims(id)).singleElement().satisfies(claim ->
                assertThat(claim.outcome()).isEqualTo("INTERRUPTED"));
        HttpResponse<String> resumed = poll(register("successor of declared", "pool=split"), 0);
        assertThat(resumed.statusCode()).isEqualTo(200);
        assertThat(admin.read(resumed.body()).get("experimentId").asLong()).isEqualTo(id);
    }

    /**
     * A claim can only follow the end of the claim before it, and the history says so even when the claimant read
     * its clock before another instance, whose clock ran ahead, ended that claim (a lost agent found meanwhile).
     */
    @Test
    void aClaimNeverStartsInTheHistoryBeforeTheClaimItFollowsEnded() throws Exception {
        long early = register("early", "pool=clock");
        long id = admin.create(command("clocked", Map.of("pool", "clock")));
        assertThat(poll(early, 0).statusCode()).isEqualTo(200);
        Instant ended = Instant.now().plusSeconds(5).truncatedTo(ChronoUnit.MILLIS);
        assertThat(store.endClaim(id, early, ExperimentStatus.INTERRUPTED, ended, "lost", true)).isTrue();
        long late = register("late", "pool=clock");

        Claimant claimant = new Claimant(late, HostLabels.parse("pool=clock"), false, true, LINUX, null);
        assertThat(store.claimNext(claimant, ended.minusMillis(4))).isPresent();

        List<Instant[]> claims = jdbc.sql("SELECT claimed_at, ended_at FROM experiment_claim "
                + "WHERE experiment_id = ? ORDER BY claim").param(id).query((rs, n) -> new Instant[] {
                    ExperimentRepository.instant(rs, "claimed_at"), ExperimentRepository.instant(rs, "ended_at")})
                .list();
        assertThat(claims).hasSize(2);
        assertThat(claims.get(0)[1]).isEqualTo(ended);
        assertThat(claims.get(1)[0]).as("the second claim begins where the first ended").isEqualTo(ended);
        assertThat(store.find(id).orElseThrow().startedAt()).isEqualTo(ended);

        // and an agent's next claim begins where its last one ended
        Instant finished = ended.plusSeconds(5);
        assertThat(store.endClaim(id, late, ExperimentStatus.COMPLETED, finished, null, false)).isTrue();
        long next = admin.create(command("clocked next", Map.of("pool", "clock")));
        assertThat(store.claimNext(claimant, finished.minusMillis(4))).isPresent();
        assertThat(jdbc.sql("SELECT claimed_at FROM experiment_claim WHERE experiment_id = ?").param(next)
                .query((rs, n) -> ExperimentRepository.instant(rs, "claimed_at")).single()).isEqualTo(finished);
    }

    /** The instance that ends a claim may read a clock behind the one that began it: the end is never before it. */
    @Test
    void aClaimNeverEndsInTheHistoryBeforeItBegan() throws Exception {
        long agent = register("skewed", "pool=skew");
        long id = admin.create(command("skewed", Map.of("pool", "skew")));
        assertThat(poll(agent, 0).statusCode()).isEqualTo(200);
        Instant began = store.find(id).orElseThrow().startedAt();

        assertThat(store.endClaim(id, null, ExperimentStatus.INTERRUPTED, began.minusSeconds(3), "lost", true))
                .isTrue();

        assertThat(store.claims(id)).singleElement().satisfies(claim -> {
            assertThat(claim.claimedAt()).isEqualTo(began);
            assertThat(claim.endedAt()).as("ended where it began, not 3 s before").isEqualTo(began);
        });
        assertThat(store.find(id).orElseThrow().finishedAt()).isEqualTo(began);
    }

    /**
     * A restarted service interrupts what its built-in agent left running in statements apart from the look that
     * found it, and meanwhile the watch of another instance may find that agent lost and another agent claim the
     * experiment afresh: the end named no agent, and ended that fresh claim too.
     */
    @Test
    void aRestartInterruptsItsOwnAgentsClaimAndNotAnotherAgentsFreshClaimOfTheSameExperiment() throws Exception {
        long restarted = register("restarted", "pool=restart");
        long id = admin.create(command("claimed afresh", Map.of("pool", "restart")));
        assertThat(poll(restarted, 0).statusCode()).isEqualTo(200);
        Claimant fresh = new Claimant(register("fresh claimant", "pool=restart"), HostLabels.parse("pool=restart"),
                false, true, LINUX, null);
        java.util.concurrent.CountDownLatch locked = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch restartWaits = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.ExecutorService instances = java.util.concurrent.Executors.newFixedThreadPool(2);
        try {
            // the other instance ends the lost agent's claim and the fresh claimant takes the experiment in one
            // transaction, holding the experiment's row from before the restarted service looks at it
            var handedOver = instances.submit(() -> new org.springframework.transaction.support.TransactionTemplate(
                    transactions).executeWithoutResult(transaction -> {
                        jdbc.sql("SELECT id FROM experiment WHERE id = ? FOR UPDATE").param(id).query(Long.class)
                                .single();
                        locked.countDown();
                        await().atMost(Duration.ofSeconds(30)).until(() -> restartWaits.getCount() == 0);
                        assertThat(store.endClaim(id, restarted, ExperimentStatus.INTERRUPTED, Instant.now(),
                                "lost", true)).isTrue();
                        assertThat(store.claimNext(fresh, Instant.now())).map(ExperimentRecord::id).contains(id);
                    }));
            assertThat(locked.await(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
            var restart = instances.submit(() -> store.interruptRunning(restarted, Instant.now()));
            await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(10))
                    .until(() -> claimEndsWaitingForALock() > 0);
            restartWaits.countDown();

            handedOver.get(30, java.util.concurrent.TimeUnit.SECONDS);
            assertThat(restart.get(30, java.util.concurrent.TimeUnit.SECONDS)).doesNotContain(id);
        } finally {
            restartWaits.countDown();
            instances.shutdownNow();
        }
        assertThat(admin.status(id)).isEqualTo("RUNNING");
        assertThat(store.runningOn(fresh.agentId())).containsExactly(id);
        assertThat(store.claims(id)).extracting(ExperimentRepository.Claim::outcome)
                .containsExactly("INTERRUPTED", null);
    }

    @Autowired
    javax.sql.DataSource dataSource;

    /** How many statements that end a claim wait for another transaction's lock on their experiment's row. */
    private long claimEndsWaitingForALock() throws Exception {
        boolean postgres;
        try (java.sql.Connection connection = dataSource.getConnection()) {
            postgres = "PostgreSQL".equals(connection.getMetaData().getDatabaseProductName());
        }
        return jdbc.sql(postgres
                        ? "SELECT COUNT(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND UPPER(query) LIKE ?"
                        : "SELECT COUNT(*) FROM INFORMATION_SCHEMA.SESSIONS WHERE BLOCKER_ID IS NOT NULL "
                                + "AND UPPER(EXECUTING_STATEMENT) LIKE ?")
                .param("UPDATE EXPERIMENT SET STATUS = %").query(Long.class).single();
    }

    private io.perflab.agent.AgentLoop loop(String name, String pool) {
        return new io.perflab.agent.AgentLoop(
                new io.perflab.agent.AgentClient(URI.create("http://localhost:" + port), agentToken),
                new io.perflab.agent.AgentProtocol.Registration(name, Map.of("pool", pool), Map.of("host", "test"),
                        true, null, null),
                io.perflab.runner.experiment.TrialLauncher.ofThisJvm(), new io.perflab.upload.OutputMetricsReader(),
                1, line -> { });
    }

    @Test
    void theAgentsPageListsAgentsAndTheNavigationLinksIt() throws Exception {
        long listed = register("listed-host", "pool=page,arch=x86_64");

        String page = admin.get("/agents", "text/html").body();
        assertThat(page).contains("listed-host", "arch=x86_64,pool=page", "IDLE");
        // it registered a CPU model, but no count of CPUs and no kernel: shown as 'test CPU × null'
        assertThat(row(page, listed)).contains("test-host</span>", "· test CPU</span>").doesNotContain("null", "×");
        assertThat(admin.get("/", "text/html").body()).contains("href=\"/agents\"");
        assertThat(signedInAsAdmin("/experiments/new")).contains("name=\"hostLabels\"");
    }

    /** What the agents page shows of an agent's host, whichever of its CPU model, CPU count and kernel it gave. */
    @Test
    void theAgentsPageShowsOnlyTheHostDetailsAnAgentRegistered() throws Exception {
        String full = registration("all details", "pool=details").replace("\"host\": \"test-host\"",
                "\"host\": \"test-host\", \"cpu_count\": \"8\", \"kernel\": \"Linux 6.8\"");
        String countOnly = full.replace("\"cpu_model\": \"test CPU\", ", "").replace(", \"kernel\": \"Linux 6.8\"",
                "");
        String kernelOnly = full.replace("\"cpu_model\": \"test CPU\", ", "").replace("\"cpu_count\": \"8\", ", "");
        String none = kernelOnly.replace(", \"kernel\": \"Linux 6.8\"", "");
        Map<Long, String> shown = new LinkedHashMap<>();
        for (Map.Entry<String, String> registration : Map.of(full, " · test CPU × 8 · Linux 6.8", countOnly,
                " · 8 CPUs", kernelOnly, " · Linux 6.8", none, "").entrySet()) {
            HttpResponse<String> registered = send(agentToken, "/api/v1/agents", registration.getKey());
            assertThat(registered.statusCode()).as(registered.body()).isEqualTo(201);
            shown.put(admin.read(registered.body()).get("agentId").asLong(), registration.getValue());
        }

        String page = admin.get("/agents", "text/html").body();

        shown.forEach((agent, details) -> {
            // what it counts follows the details, said or not
            String counters = "\\s*<span class=\"hint\" title=\"[^\"]*\">\\s*· said nothing of (hardware "
                    + "counters|system calls)</span>";
            assertThat(row(page, agent)).containsPattern(counters.replace("(hardware counters|system calls)",
                    "hardware counters")).containsPattern(counters.replace("(hardware counters|system calls)",
                    "system calls"));
            String row = row(page, agent).replaceAll(counters, "");
            assertThat(row).doesNotContain("null");
            if (details.isEmpty()) {
                assertThat(row).containsPattern("test-host</span>\\s*</td>").doesNotContain("class=\"hint\"> · ");
            } else {
                assertThat(row).containsPattern("test-host</span>\\s*<span class=\"hint\">" + details + "</span>");
            }
        });
    }

    /** The row of the agents page that shows agent {@code id}. */
    private static String row(String page, long id) {
        int start = page.indexOf("data-agent-id=\"" + id + "\"");
        assertThat(start).as("agent " + id + " is listed").isNotNegative();
        return page.substring(start, page.indexOf("</tr>", start));
    }

    /** The page at {@code path} as the administrator sees it, signed in: the form asks for sign-in when opened. */
    private String signedInAsAdmin(String path) throws Exception {
        HttpClient browser = HttpClient.newBuilder().cookieHandler(new CookieManager()).build();
        String login = browser.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/login")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        String password = Files.readString(dataDir.resolve("initial-admin-password")).strip();
        HttpResponse<String> signedIn = browser.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port
                        + "/login")).header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("username=admin&password="
                        + URLEncoder.encode(password, StandardCharsets.UTF_8) + "&_csrf="
                        + ExperimentPagesTests.csrf(login))).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(signedIn.statusCode()).isEqualTo(302);
        return browser.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path)).build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }

    @Test
    void theAgentCommandStopsWithTheServicesAnswerWhenItRefusesTheToken() {
        StringWriter err = new StringWriter();
        int status = io.perflab.cli.PerfLabCommand.commandLine(new PrintWriter(new StringWriter()),
                new PrintWriter(err, true)).execute("agent", "--server", "http://localhost:" + port, "--token",
                "plt_not-a-token");
        assertThat(status).isEqualTo(3);
        assertThat(err.toString()).contains("perflab agent: the service answered 401");
    }

    @Test
    void theApiDocumentationDescribesTheAgentMessages() throws Exception {
        JsonNode docs = admin.getJson("/v3/api-docs");
        assertThat(docs.get("paths").has("/api/v1/agents/{id}/experiments/{experimentId}/trials")).isTrue();
        assertThat(docs.get("paths").has("/api/v1/agents/{id}/poll")).isTrue();
        JsonNode schemas = docs.get("components").get("schemas");
        assertThat(schemas.get("Assignment").get("properties").has("pendingOrdinals")).isTrue();
        assertThat(schemas.get("PostedTrial").get("properties").has("ordinal")).isTrue();
        assertThat(schemas.get("Registration").get("properties").has("labels")).isTrue();
        assertThat(schemas.get("PairAnswer").get("properties").has("stop")).isTrue();
        assertThat(schemas.get("PairAnswer").get("properties").has("stopReason")).isTrue();
    }

    private long register(String name, String labels) throws Exception {
        HttpResponse<String> response = send(agentToken, "/api/v1/agents", registration(name, labels));
        assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
        return admin.read(response.body()).get("agentId").asLong();
    }

    /** Registers an agent of Linux on amd64 that says whether it counts hardware events and system calls (JSON). */
    private long registerCounting(String name, String labels, String hardwareCounters, String systemCalls)
            throws Exception {
        HttpResponse<String> response = send(agentToken, "/api/v1/agents", registration(name, labels).replace(
                "\"runsCommands\": true", "\"runsCommands\": true, \"hardwareCounters\": " + hardwareCounters
                        + ", \"systemCalls\": " + systemCalls));
        assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
        return admin.read(response.body()).get("agentId").asLong();
    }

    /** Registers an agent whose platform {@code platformEntries} say (JSON entries of its environment). */
    private long register(String name, String labels, String platformEntries) throws Exception {
        String registration = registration(name, labels).replace("\"os_name\": \"" + LINUX.osName()
                + "\", \"os_arch\": \"" + LINUX.osArch() + "\"", platformEntries);
        HttpResponse<String> response = send(agentToken, "/api/v1/agents", registration);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
        return admin.read(response.body()).get("agentId").asLong();
    }

    private HttpResponse<String> poll(long agent, int waitSeconds) throws Exception {
        return send(agentToken, "/api/v1/agents/" + agent + "/poll?waitSeconds=" + waitSeconds, "");
    }

    private static String registration(String name, String labels) {
        StringBuilder json = new StringBuilder("{\"name\": \"" + name + "\", \"labels\": {");
        String[] items = labels.split(",");
        for (int i = 0; i < items.length; i++) {
            String[] kv = items[i].split("=");
            json.append(i == 0 ? "" : ", ").append('"').append(kv[0]).append("\": \"").append(kv[1]).append('"');
        }
        return json.append("}, \"environment\": {\"cpu_model\": \"test CPU\", \"host\": \"test-host\", "
                + "\"os_name\": \"" + LINUX.osName() + "\", \"os_arch\": \"" + LINUX.osArch() + "\"}, "
                + "\"runsCommands\": true}").toString();
    }

    private static String trial(String variant, int ordinal) {
        return "{\"variant\": \"" + variant + "\", \"ordinal\": " + ordinal + ", \"status\": \"OK\", "
                + "\"start\": \"2026-01-01T00:00:00Z\", \"end\": \"2026-01-01T00:00:01Z\", \"pid\": 7, "
                + "\"metrics\": {\"wall_time_ms\": 1.5}, \"environment\": {\"host\": \"h\"}}";
    }

    /** An alternating command experiment of 2 pairs of {@code windows} windows, for agents of {@code pool}. */
    private static Map<String, Object> alternating(String name, String pool, int windows) {
        Map<String, Object> request = command(name, Map.of("pool", pool));
        request.remove("runsPerVariant");
        request.put("design", "alternating");
        request.put("pairs", 2);
        request.put("windowsPerPair", windows);
        return request;
    }

    /** A duet engine experiment of 2 pairs stopped by {@code target}, for agents of {@code pool}. */
    private static Map<String, Object> pairedEngine(String name, String pool, String target) {
        Map<String, Object> request = new LinkedHashMap<>();
        request.put("name", name);
        request.put("preset", "pooled-buffers");
        request.put("design", "duet");
        request.put("pairs", 2);
        request.put("target", List.of(target));
        request.put("hostLabels", Map.of("pool", pool));
        return request;
    }

    private static Map<String, Object> command(String name, Map<String, String> labels) {
        Map<String, Object> request = new LinkedHashMap<>();
        request.put("name", name);
        request.put("kind", "command");
        request.put("withoutCommand", "true");
        request.put("withCommand", "true && true");
        request.put("runsPerVariant", 2);
        if (!labels.isEmpty()) {
            request.put("hostLabels", labels);
        }
        return request;
    }

    private static void assertRefused(HttpResponse<String> response, String field, String message) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("application/problem+json"));
        if (field != null) {
            assertThat(response.body()).contains(field);
        }
        if (message != null) {
            assertThat(response.body()).contains(message);
        }
    }

    /**
     * Posts {@code body} as {@code token}. The messages here are written at {@code 2026-01-01T00:00:SS}; a trial or
     * pair runs within its experiment's claim, so they are sent at second SS of a minute ended a minute ago.
     */
    private HttpResponse<String> send(String token, String path, String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(recent(body)));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** A message written at {@code 2026-01-01T00:00:SS}, at second SS of a minute ended a minute ago. */
    private static String recent(String body) {
        String recent = Instant.now().minus(Duration.ofMinutes(2)).truncatedTo(ChronoUnit.MINUTES).toString();
        return body.replace("2026-01-01T00:00:", recent.substring(0, recent.length() - 3));
    }

    /** {@code agent} polls and is handed experiment {@code id} to resume, with its ordinals 1–3 still to run. */
    private void assertResumes(long agent, long id) throws Exception {
        assertResumes(agent, id, List.of(1, 2, 3));
    }

    /** {@code agent} polls and is handed experiment {@code id}, with {@code pending} still to run. */
    private void assertResumes(long agent, long id, List<Integer> pending) throws Exception {
        HttpResponse<String> resumed = poll(agent, 0);
        assertThat(resumed.statusCode()).as(resumed.body()).isEqualTo(200);
        assertThat(admin.read(resumed.body()).get("experimentId").asLong()).isEqualTo(id);
        assertThat(admin.read(resumed.body()).get("pendingOrdinals")).extracting(JsonNode::asInt)
                .containsExactlyElementsOf(pending);
        assertThat(admin.status(id)).isEqualTo("RUNNING");
    }
}
