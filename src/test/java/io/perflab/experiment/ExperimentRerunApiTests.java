package io.perflab.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import io.perflab.agent.HostLabels;
import io.perflab.runner.experiment.CommandVariant;
import io.perflab.runner.experiment.EngineVariant;
import io.perflab.runner.experiment.ExperimentPlan;
import io.perflab.runner.rpcbench.Workload;
import io.perflab.upload.UploadServer;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code POST /api/v1/experiments/{id}/rerun}: a CI system's token re-runs what it started, as the experiment's page
 * re-runs it, and is answered as its creation was (202, the new id, its Location). Who may, and what a re-run may
 * run, are the page's rules ({@link ExperimentService#rerun}); a refusal stores nothing. Commands are off on this
 * server; the experiments wait for hosts labelled as none is, so nothing runs.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ExperimentRerunApiTests extends UploadServer {

    private static final String NOWHERE = "{\"pool\": \"rerun-tests-nowhere\"}";

    /** A flag that runs a command: off the allow-list for every caller while raw flags are off, as here. */
    private static final String ON_OOM = "-XX:OnOutOfMemoryError=touch /tmp/perflab-rerun-tests";

    @Autowired
    ExperimentRepository store;

    /** A user API token, as a CI system has, and its stored id. */
    private String ci;
    private long ciId;

    @BeforeAll
    void token() throws Exception {
        ci = newToken("rerun-tests-ci");
        ciId = liveTokenId("rerun-tests-ci");
    }

    /** Nothing these tests queued is left waiting for the next class. */
    @AfterAll
    void cancelLeftovers() {
        jdbc.sql("UPDATE experiment SET status = 'CANCELLED' WHERE status = 'QUEUED' AND name LIKE 'rerun tests%'")
                .update();
    }

    private HttpResponse<String> rerun(Object id, String authorization) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(base() + "/api/v1/experiments/" + id + "/rerun"))
                .header("Authorization", authorization).header("Accept", "application/json")
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Queues {@code body} through the API with {@code token}. */
    private HttpResponse<String> create(String token, String body) throws Exception {
        return post("/api/v1/experiments", token, "application/json", body, "Accept", "application/json");
    }

    /** An engine experiment stored as the CI token's, its change with JVM flags {@code withFlags}. */
    private long storedEngine(List<String> withFlags) {
        ExperimentPlan plan = ExperimentPlan.of(EngineVariant.of(Map.of("completion", "monitor"), Workload.DEFAULTS),
                EngineVariant.of(Map.of("completion", "notification"), Workload.DEFAULTS).withJvmArgs(withFlags), 2);
        return store.insert(new ExperimentSpec("rerun tests engine", null, ExperimentKind.ENGINE, null, plan,
                PairedStopping.NONE, HostLabels.parse("pool=rerun-tests-nowhere")), ExperimentStatus.CANCELLED,
                "token:rerun-tests-ci", ciId, Instant.now());
    }

    /** What a re-run must leave as it was of the experiment it copies. */
    private String row(long id) {
        return jdbc.sql("SELECT status, data_version, started_at, finished_at, created_by, created_by_token "
                + "FROM experiment WHERE id = ?").param(id).query((rs, n) -> rs.getString(1) + " " + rs.getString(2)
                + " " + rs.getString(3) + " " + rs.getString(4) + " " + rs.getString(5) + " " + rs.getString(6))
                .single();
    }

    private long experimentCount() {
        return jdbc.sql("SELECT COUNT(*) FROM experiment").query(Long.class).single();
    }

    private long liveTokenId(String name) {
        return jdbc.sql("SELECT id FROM api_token WHERE live_name = ?").param(name).query(Long.class).single();
    }

    private ExperimentRecord record(long id) {
        return store.find(id).orElseThrow();
    }

    @Test
    void aTokenReRunsItsOwnExperimentAsANewOneAnsweredAsItsCreationWas() throws Exception {
        HttpResponse<String> created = create(ci, """
                {"name": "rerun tests paired", "description": "copied whole", "preset": "sync-completion",
                 "design": "alternating", "pairs": 6, "windowsPerPair": 2, "target": ["cpu_us_per_req:5%%"],
                 "budget": "10m", "withJvmArgs": ["-XX:+UseCompressedOops"], "workload": {"clientThreads": 2},
                 "hostLabels": %s}""".formatted(NOWHERE));
        assertThat(created.statusCode()).as(created.body()).isEqualTo(202);
        long original = read(created.body()).get("id").asLong();
        assertThat(post("/api/v1/experiments/" + original + "/cancel", ci, "application/json", "").statusCode())
                .isEqualTo(202);
        String before = row(original);

        HttpResponse<String> answer = rerun(original, "Bearer " + ci);

        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(202);
        JsonNode body = read(answer.body());
        long copy = body.get("id").asLong();
        assertThat(copy).isNotEqualTo(original);
        assertThat(body.propertyNames()).as("the shape of a creation's answer")
                .containsExactlyElementsOf(read(created.body()).propertyNames());
        assertThat(body.get("status").asString()).isEqualTo("QUEUED");
        assertThat(answer.headers().firstValue("Location")).hasValue(base() + "/api/v1/experiments/" + copy);
        assertThat(body.get("url").asString()).isEqualTo(base() + "/api/v1/experiments/" + copy);
        assertThat(body.get("page").asString()).isEqualTo(base() + "/experiments/" + copy);
        ExperimentRecord was = record(original);
        ExperimentRecord is = record(copy);
        assertThat(is.status()).isEqualTo(ExperimentStatus.QUEUED);
        assertThat(List.of(is.name(), is.description(), is.kind(), is.preset(), is.design(), is.windowsPerPair(),
                is.runsPerVariant(), is.stopping(), is.hostLabels())).isEqualTo(List.of(was.name(),
                was.description(), was.kind(), was.preset(), was.design(), was.windowsPerPair(), was.runsPerVariant(),
                was.stopping(), was.hostLabels()));
        assertThat(is.stopping().budget()).isPresent();
        assertThat(store.plan(is)).as("variants, JVM flags, workload and plan").isEqualTo(store.plan(was));
        assertThat(is.createdBy()).isEqualTo("token:rerun-tests-ci");
        assertThat(is.createdByToken()).isEqualTo(ciId);
        assertThat(row(original)).as("the one re-run is left as it was").isEqualTo(before);
        // the copy is the token's own: it cancels it
        assertThat(post("/api/v1/experiments/" + copy + "/cancel", ci, "application/json", "").statusCode())
                .isEqualTo(202);
    }

    @Test
    void anotherUsersTokenIsRefusedAndNothingIsQueued() throws Exception {
        long id = storedEngine(List.of());
        String other = newToken("rerun-tests-other");
        String before = row(id);
        long count = experimentCount();

        HttpResponse<String> refused = rerun(id, "Bearer " + other);

        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(403);
        assertThat(refused.headers().firstValue("Content-Type").orElseThrow())
                .startsWith("application/problem+json");
        assertThat(read(refused.body()).get("detail").asString()).isEqualTo("experiment " + id
                + " was started by someone else; only they or an administrator may re-run it");
        assertThat(experimentCount()).as("no re-run queued").isEqualTo(count);
        assertThat(row(id)).isEqualTo(before);
    }

    @Test
    void anAdministratorReRunsAnyonesAsTheirOwn() throws Exception {
        long id = storedEngine(List.of());
        String before = row(id);

        HttpResponse<String> byToken = rerun(id, "Bearer " + ADMIN_TOKEN);
        HttpResponse<String> signedIn = rerun(id, adminBasic());

        for (HttpResponse<String> answer : List.of(byToken, signedIn)) {
            assertThat(answer.statusCode()).as(answer.body()).isEqualTo(202);
        }
        ExperimentRecord first = record(read(byToken.body()).get("id").asLong());
        ExperimentRecord second = record(read(signedIn.body()).get("id").asLong());
        assertThat(List.of(first.createdBy(), second.createdBy())).containsExactly("bootstrap-token", "admin");
        assertThat(first.createdByToken()).isNull();
        assertThat(second.createdByToken()).isNull();
        assertThat(store.plan(first)).isEqualTo(store.plan(record(id)));
        assertThat(row(id)).isEqualTo(before);
    }

    @Test
    void anUploadIsAConflictAndAnUnknownIdNotFound() throws Exception {
        HttpResponse<String> uploaded = post("/api/v1/uploads", ci, "application/json",
                "{\"benchmark\":\"rerun-tests-upload\",\"metrics\":{\"t\":{\"values\":[1,2]}}}");
        assertThat(uploaded.statusCode()).as(uploaded.body()).isEqualTo(201);
        long upload = read(uploaded.body()).get("experimentId").asLong();
        long count = experimentCount();

        HttpResponse<String> conflict = rerun(upload, "Bearer " + ci);
        HttpResponse<String> missing = rerun(999999, "Bearer " + ci);

        assertThat(conflict.statusCode()).as(conflict.body()).isEqualTo(409);
        assertThat(read(conflict.body()).get("detail").asString()).isEqualTo("experiment " + upload
                + " holds uploaded samples; PerfLab cannot run it again");
        assertThat(missing.statusCode()).as(missing.body()).isEqualTo(404);
        assertThat(read(missing.body()).get("detail").asString()).isEqualTo("no experiment with id 999999");
        for (HttpResponse<String> refused : List.of(conflict, missing)) {
            assertThat(refused.headers().firstValue("Content-Type").orElseThrow())
                    .startsWith("application/problem+json");
        }
        assertThat(experimentCount()).isEqualTo(count);
    }

    /**
     * A command experiment runs again only for a caller who may queue one anew, and is refused as its creation is:
     * here, where commands are off, 403 saying how an operator turns them on, to an administrator too.
     */
    @Test
    void aCommandExperimentIsRefusedAsCreatingOneIs() throws Exception {
        ExperimentPlan plan = ExperimentPlan.of(new CommandVariant("true"), new CommandVariant("false"), 2);
        long id = store.insert(new ExperimentSpec("rerun tests command", null, ExperimentKind.COMMAND, null, plan,
                PairedStopping.NONE, HostLabels.parse("pool=rerun-tests-nowhere")), ExperimentStatus.COMPLETED,
                "token:rerun-tests-ci", ciId, Instant.now());
        String command = """
                {"name": "rerun tests command", "kind": "command", "withoutCommand": "true", "withCommand": "false",
                 "hostLabels": %s}""".formatted(NOWHERE);
        long count = experimentCount();

        for (String caller : List.of("Bearer " + ci, "Bearer " + ADMIN_TOKEN)) {
            HttpResponse<String> refused = rerun(id, caller);
            HttpResponse<String> onCreate = create(caller.substring("Bearer ".length()), command);

            assertThat(onCreate.statusCode()).as(onCreate.body()).isEqualTo(403);
            assertThat(refused.statusCode()).as(refused.body()).isEqualTo(onCreate.statusCode());
            assertThat(refused.headers().firstValue("Content-Type")).isEqualTo(onCreate.headers()
                    .firstValue("Content-Type"));
            assertThat(withoutInstance(refused)).isEqualTo(withoutInstance(onCreate));
            assertThat(read(refused.body()).get("detail").asString()).contains("perflab.commands.enabled=true");
        }
        assertThat(experimentCount()).as("nothing queued").isEqualTo(count);
    }

    /** A JVM flag off the allow-list is refused as its creation refuses it: 400 naming the variant's field. */
    @Test
    void aFlagOffTheAllowListIsRefusedAsCreatingItIs() throws Exception {
        long id = storedEngine(List.of(ON_OOM));
        String before = row(id);
        long count = experimentCount();

        HttpResponse<String> refused = rerun(id, "Bearer " + ci);
        HttpResponse<String> onCreate = create(ci, """
                {"name": "rerun tests flags", "preset": "sync-completion", "withJvmArgs": ["%s"],
                 "hostLabels": %s}""".formatted(ON_OOM, NOWHERE));

        assertThat(onCreate.statusCode()).as(onCreate.body()).isEqualTo(400);
        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(400);
        assertThat(withoutInstance(refused)).isEqualTo(withoutInstance(onCreate));
        assertThat(read(refused.body()).at("/errors/0/field").asString()).isEqualTo("withJvmArgs");
        assertThat(experimentCount()).as("nothing queued").isEqualTo(count);
        assertThat(row(id)).isEqualTo(before);
    }

    /** A problem without the path it answered ({@code instance}), which differs between two operations. */
    private JsonNode withoutInstance(HttpResponse<String> response) {
        ObjectNode problem = (ObjectNode) read(response.body());
        problem.remove("instance");
        return problem;
    }

    private String adminBasic() throws Exception {
        String password = Files.readString(dataDir.resolve("initial-admin-password")).strip();
        return "Basic " + Base64.getEncoder().encodeToString(("admin:" + password).getBytes(StandardCharsets.UTF_8));
    }
}
