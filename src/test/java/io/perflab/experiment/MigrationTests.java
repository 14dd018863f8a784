package io.perflab.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import io.perflab.agent.HostCounts;
import io.perflab.runner.experiment.EngineVariant;
import io.perflab.runner.rpcbench.CallMode;
import io.perflab.runner.rpcbench.Warmup;
import io.perflab.runner.rpcbench.Workload;
import io.perflab.system.EmbeddedPostgres;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationVersion;
import org.flywaydb.core.api.output.MigrateResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;
import tools.jackson.databind.json.JsonMapper;

/**
 * Databases of earlier releases open with this one (migrations only add), and the migrations apply to an empty
 * PostgreSQL as to an empty H2.
 */
public class MigrationTests {

    /** The API token the fixture's uploads were made with (its database keeps only the hash). */
    private static final String FIXTURE_TOKEN = "plt_vZvtcR4mfTQZK_HbAy7KKaE1b7rokw0i-GLIFqv3oCU";

    /**
     * {@code src/test/resources/db/perflab-2dbbf68.zip}: the data directory of the release before PostgreSQL (commit
     * 2dbbf68, migrations V1–V8) after a token was created, three uploads were posted through the API (main, a
     * feature branch compared with it, and one with both sides; the first under an Idempotency-Key) and an engine
     * experiment of 4 runs was stored.
     */
    @Test
    void anH2DatabaseOfTheReleaseBeforePostgresOpensAndReadsBackAsItWasStored(@TempDir Path dir) throws Exception {
        unzip("/db/perflab-2dbbf68.zip", dir);
        SingleConnectionDataSource database = new SingleConnectionDataSource(
                "jdbc:h2:file:" + dir.resolve("perflab") + ";DB_CLOSE_ON_EXIT=FALSE", "sa", "", true);
        try {
            JdbcClient jdbc = JdbcClient.create(database);
            assertThat(jdbc.sql("SELECT MAX(\"version\") FROM \"flyway_schema_history\"").query(String.class)
                    .single()).isEqualTo("8");

            MigrateResult migrated = Flyway.configure().dataSource(database).load().migrate();

            assertThat(migrated.success).isTrue();
            assertThat(migrated.migrations).extracting(m -> m.version).contains("9");
            ExperimentRepository repository = new ExperimentRepository(jdbc, new JdbcTemplate(database),
                    JsonMapper.builder().build());
            ExperimentRecord main = repository.find(1).orElseThrow();
            assertThat(main.kind()).isEqualTo(ExperimentKind.UPLOAD);
            assertThat(main.benchmark()).isEqualTo("old/parse");
            assertThat(main.createdByToken()).as("uploaded with the token, told by its id since V27")
                    .isEqualTo(jdbc.sql("SELECT id FROM api_token WHERE name = 'ci-old'").query(Long.class).single());
            assertThat(repository.runs(1)).hasSize(5).allSatisfy(run -> assertThat(run.metrics()).hasSize(2));
            assertThat(repository.runs(1).get(0).metrics()).containsEntry("parse_ns", 100.5);
            assertThat(repository.uploadDetails(1).machine()).containsEntry("os", "Linux");
            assertThat(repository.runs(2)).extracting(r -> r.metrics().get("parse_ns"))
                    .containsExactly(90.5, 91.25, 89.75, 90.0, 92.5);
            assertThat(repository.runs(3)).extracting(RunRecord::variant)
                    .containsExactly("without", "without", "without", "with", "with", "with");
            ExperimentRecord engine = repository.find(4).orElseThrow();
            assertThat(engine.status()).isEqualTo(ExperimentStatus.COMPLETED);
            assertThat(repository.plan(engine).with()).isInstanceOf(EngineVariant.class);
            assertThat(repository.runs(4)).extracting(r -> r.metrics().get("user_cpu_us_per_req"))
                    .containsExactly(20.0, 20.0, 22.0, 22.0);
            assertThat(jdbc.sql("SELECT experiment_id FROM upload_idempotency WHERE idem_key = 'old-upload-1'")
                    .query(Long.class).single()).isEqualTo(1);
            assertThat(jdbc.sql("SELECT principal FROM upload_idempotency WHERE idem_key = 'old-upload-1'")
                    .query(String.class).single()).as("the token's key, told by its id since V28")
                    .isEqualTo("token#" + main.createdByToken());
            assertThat(jdbc.sql("SELECT name FROM api_token WHERE token_hash = ? AND revoked_at IS NULL")
                    .param(sha256(FIXTURE_TOKEN)).query(String.class).single()).isEqualTo("ci-old");
            assertThat(jdbc.sql("SELECT COUNT(*) FROM app_user WHERE username = 'admin'").query(Long.class)
                    .single()).isOne();
            assertThat(jdbc.sql("SELECT COUNT(*) FROM spring_session").query(Long.class).single()).isZero();

            // and it takes new data after the old
            long next = StoredExperiments.insert(repository, new ExperimentSpec("after the upgrade", null,
                    ExperimentKind.ENGINE, null, repository.plan(engine)), ExperimentStatus.CANCELLED, "admin",
                    java.time.Instant.now());
            assertThat(next).isGreaterThan(4);
        } finally {
            database.destroy();
        }
    }

    @Test
    void theMigrationsApplyToAnEmptyPostgresAndValidate() {
        EmbeddedPostgres.Database postgres = EmbeddedPostgres.newDatabase();
        DriverManagerDataSource database = new DriverManagerDataSource(postgres.url(), postgres.username(),
                postgres.password());

        MigrateResult migrated = Flyway.configure().dataSource(database).load().migrate();

        assertThat(migrated.success).isTrue();
        assertThat(migrated.migrations).extracting(m -> m.version).contains("1", "4", "8", "9", "13", "14", "15", "16");
        Flyway.configure().dataSource(database).load().validate();
        JdbcClient jdbc = JdbcClient.create(database);
        assertThat(jdbc.sql("SELECT COUNT(*) FROM metric_definition").query(Long.class).single()).isPositive();
        assertThat(jdbc.sql("SELECT direction FROM metric_definition WHERE metric_key = 'reqs_per_sec_adj'")
                .query(String.class).single()).isEqualTo("HIGHER");
        assertThat(jdbc.sql("SELECT description FROM metric_definition WHERE metric_key = 'host_probe_ns'")
                .query(String.class).single()).startsWith("The host's speed in the window: 25th percentile of the "
                        + "CPU time of 1,000 steps");
        assertThat(jdbc.sql("SELECT unit FROM metric_definition WHERE metric_key = 'host_probe_syscall_ns'")
                .query(String.class).single()).isEqualTo("ns");
        assertThat(jdbc.sql("SELECT COUNT(*) FROM spring_session_attributes").query(Long.class).single()).isZero();
        assertThat(Flyway.configure().dataSource(database).load().migrate().migrationsExecuted).isZero();
    }

    /** Unpacks a data directory kept as a test resource, e.g. {@code /db/perflab-2dbbf68.zip}, into {@code dir}. */
    public static void unzip(String resource, Path dir) throws IOException {
        try (InputStream in = MigrationTests.class.getResourceAsStream(resource);
             ZipInputStream zip = new ZipInputStream(in)) {
            for (ZipEntry entry = zip.getNextEntry(); entry != null; entry = zip.getNextEntry()) {
                Files.copy(zip, dir.resolve(entry.getName()));
            }
        }
    }

    private static String sha256(String text) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                .digest(text.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void anH2DatabaseOfThePreviousReleaseMigratesAndItsExperimentsStillRun() {
        SingleConnectionDataSource database = migratedTo("previous-release", "3");
        JdbcClient jdbc = JdbcClient.create(database);
        // an experiment as the previous release stored it: its workload as the list of perflab bench flags
        jdbc.sql("""
                INSERT INTO experiment (id, name, kind, status, runs_per_variant, run_order, seed,
                    trial_timeout_seconds, max_failures, workload, created_at, data_version)
                VALUES (1, 'old', 'ENGINE', 'INTERRUPTED', 2, 'interleaved', 1, 120, 3, ?, CURRENT_TIMESTAMP, 0)""")
                .param("[\"--stack\",\"perflab\",\"--mode\",\"async\",\"--client-threads\",\"3\","
                        + "\"--async-concurrency\",\"60\",\"--worker-threads\",\"1\",\"--server-reactors\",\"4\","
                        + "\"--request-bytes\",\"0\",\"--response-bytes\",\"0\",\"--warmup-seconds\",\"auto:12\","
                        + "\"--run-seconds\",\"1.5\"]")
                .update();
        insertVariants(jdbc);

        Flyway.configure().dataSource(database).load().migrate();

        ExperimentRepository repository = new ExperimentRepository(jdbc, new JdbcTemplate(database),
                JsonMapper.builder().build());
        EngineVariant with = (EngineVariant) repository.plan(repository.find(1).orElseThrow()).with();
        assertThat(with.workload()).isEqualTo(Workload.DEFAULTS.withMode(CallMode.ASYNC).withClientThreads(3)
                .withWarmup(Warmup.auto(Duration.ofSeconds(12))).withRun(Duration.ofMillis(1500)));
        assertThat(with.engineOptions().completion().name()).isEqualTo("NOTIFICATION");
        assertThat(jdbc.sql("SELECT COUNT(*) FROM metric_definition WHERE metric_key = 'syscalls_per_req'")
                .query(Long.class).single()).isOne();
        assertThat(jdbc.sql("SELECT COUNT(*) FROM metric_definition WHERE metric_key IN ('instructions_per_req', "
                + "'cycles_per_req') AND unit = 'count' AND direction = 'LOWER'").query(Long.class).single())
                .isEqualTo(2);
    }

    @Test
    void experimentsAndRunsStoredBeforeThePairedDesignsReadBackAsFreshOnes() {
        SingleConnectionDataSource database = migratedTo("before-paired-designs", "6");
        JdbcClient jdbc = JdbcClient.create(database);
        jdbc.sql("""
                INSERT INTO experiment (id, name, kind, status, runs_per_variant, run_order, seed,
                    trial_timeout_seconds, max_failures, workload, created_at, data_version)
                VALUES (1, 'old', 'ENGINE', 'COMPLETED', 2, 'interleaved', 1, 120, 3, NULL, CURRENT_TIMESTAMP, 1)""")
                .update();
        insertVariants(jdbc);
        jdbc.sql("""
                INSERT INTO trial_run (id, experiment_id, variant, ordinal, status, environment)
                VALUES (1, 1, 'without', 0, 'OK', '{}')""").update();
        jdbc.sql("INSERT INTO sample (run_id, metric_key, metric_value) VALUES (1, 'cpu_us_per_req', 30.5)").update();

        Flyway.configure().dataSource(database).load().migrate();

        ExperimentRepository repository = new ExperimentRepository(jdbc, new JdbcTemplate(database),
                JsonMapper.builder().build());
        ExperimentRecord old = repository.find(1).orElseThrow();
        assertThat(old.design()).isEqualTo(io.perflab.runner.experiment.ExperimentDesign.FRESH);
        assertThat(old.windowsPerPair()).isEqualTo(1);
        assertThat(old.stopping()).isEqualTo(PairedStopping.NONE);
        assertThat(old.totalRuns()).isEqualTo(4);
        assertThat(repository.plan(old).design()).isEqualTo(io.perflab.runner.experiment.ExperimentDesign.FRESH);
        assertThat(repository.runs(1)).singleElement().satisfies(run -> {
            assertThat(run.pair()).isNull();
            assertThat(run.metrics()).containsEntry("cpu_us_per_req", 30.5);
        });
        assertThat(repository.storedPairs(1)).isEmpty();
    }

    @Test
    void tokensThatSharedALiveNameBeforeNamesWereUniqueKeepWorkingAndTheNewestHoldsTheName() {
        SingleConnectionDataSource database = migratedTo("before-unique-token-names", "17");
        JdbcClient jdbc = JdbcClient.create(database);
        for (String[] token : new String[][] {{"1", "ci", null}, {"2", "ci", null}, {"3", "ci", "CURRENT_TIMESTAMP"},
                {"4", "nightly", null}}) {
            jdbc.sql("INSERT INTO api_token (id, name, token_hash, token_prefix, role, created_by, created_at, "
                    + "revoked_at) VALUES (?, ?, ?, 'plt_x', 'USER', 'admin', CURRENT_TIMESTAMP, "
                    + (token[2] == null ? "NULL" : token[2]) + ")")
                    .params(Long.parseLong(token[0]), token[1], token[0].repeat(64)).update();
        }

        Flyway.configure().dataSource(database).load().migrate();

        assertThat(jdbc.sql("SELECT id, live_name FROM api_token ORDER BY id").query((rs, row) -> rs.getLong(1)
                + "=" + rs.getString(2)).list()).containsExactly("1=null", "2=ci", "3=null", "4=nightly");
        assertThat(jdbc.sql("SELECT COUNT(*) FROM api_token WHERE revoked_at IS NULL").query(Long.class).single())
                .isEqualTo(3);
    }

    /** An in-memory H2 database named {@code name}, migrated up to {@code version} as a release left it. */
    /**
     * V22 folds the case of the names stored before it, in Java (the database's LOWER follows its locale), so that
     * the name filters find them typed in any case: on H2 and on a PostgreSQL database in the C locale.
     */
    @Test
    void namesStoredBeforeTheirFoldedCopiesAreFoundInAnyCase() {
        onH2AndPostgres("before-folded-names", "21", EmbeddedPostgres::newDatabaseInTheCLocale,
                MigrationTests::foldsTheNamesStoredBefore);
    }

    private static void foldsTheNamesStoredBefore(javax.sql.DataSource database) {
        JdbcClient jdbc = JdbcClient.create(database);
        for (Object[] row : new Object[][] {{1, "Über-Upload @ abc", "UPLOAD", "Über-Straße"},
                {2, "Olfass", "ENGINE", null}}) {
            jdbc.sql("""
                    INSERT INTO experiment (id, name, kind, status, benchmark, runs_per_variant, run_order, seed,
                        trial_timeout_seconds, max_failures, created_at, data_version)
                    VALUES (?, ?, ?, 'COMPLETED', ?, 1, 'blocked', 0, 0, 0, CURRENT_TIMESTAMP, 1)""")
                    .params(row).update();
        }

        Flyway.configure().dataSource(database).load().migrate();

        ExperimentRepository repository = new ExperimentRepository(jdbc, new JdbcTemplate(database),
                JsonMapper.builder().build());
        assertThat(repository.list(new ExperimentFilter(null, "über", null, null, false), 0, 10))
                .extracting(ExperimentRecord::id).containsExactly(1L);
        assertThat(repository.list(new ExperimentFilter(null, "OLFASS", null, null, false), 0, 10))
                .extracting(ExperimentRecord::id).containsExactly(2L);
        assertThat(jdbc.sql("SELECT benchmark_folded FROM experiment ORDER BY id").query(String.class).list())
                .containsExactly("über-strasse", null);
    }

    /**
     * V25 stores the token an agent registered with by its id, for agents stored before too: the token of its name
     * that was live when it registered. Such an agent keeps acting with that token; a token created later with the
     * name of a revoked one does not act as the revoked one's agents. On H2 and on PostgreSQL.
     */
    @Test
    void agentsStoredBeforeTokenIdsKeepTheTokenTheyRegisteredWithAndNoOtherOfItsName() {
        onH2AndPostgres("before-agent-token-ids", "24", EmbeddedPostgres::newDatabase,
                MigrationTests::ownersOfAgentsStoredBefore);
    }

    private static void ownersOfAgentsStoredBefore(javax.sql.DataSource database) {
        JdbcClient jdbc = JdbcClient.create(database);
        java.time.OffsetDateTime t0 = java.time.OffsetDateTime.parse("2026-03-01T09:00:00Z");
        // 'bench' #1 revoked at t0+2h, and created again as #2 at t0+3h; 'nightly' #3 live since t0
        Object[][] tokens = {{1, "bench", null, t0, t0.plusHours(2)}, {2, "bench", "bench", t0.plusHours(3), null},
                {3, "nightly", "nightly", t0, null}};
        for (Object[] token : tokens) {
            jdbc.sql("INSERT INTO api_token (id, name, live_name, token_hash, token_prefix, role, created_by, "
                    + "created_at, revoked_at) VALUES (?, ?, ?, ?, 'plt_x', 'AGENT', 'admin', ?, ?)")
                    .params(token[0], token[1], token[2], String.valueOf(token[0]).repeat(64), token[3], token[4])
                    .update();
        }
        Object[][] agents = {{1, "token:bench", false, t0.plusHours(1)}, {2, "token:bench", false, t0.plusHours(4)},
                {3, "admin", false, t0.plusHours(1)}, {4, "service", true, t0.plusHours(1)},
                {5, "token:never-stored", false, t0.plusHours(1)}, {6, "token:nightly", false, t0.minusHours(1)}};
        for (Object[] agent : agents) {
            jdbc.sql("""
                    INSERT INTO agent (id, name, labels, built_in, runs_commands, host, environment, registered_by,
                        registered_at, last_heartbeat, status)
                    VALUES (?, ?, '', ?, FALSE, 'h', '{}', ?, ?, ?, 'IDLE')""")
                    .params(agent[0], "agent " + agent[0], agent[2], agent[1], agent[3], agent[3]).update();
        }

        Flyway.configure().dataSource(database).load().migrate();

        AgentRepository repository = new AgentRepository(jdbc, JsonMapper.builder().build());
        assertThat(java.util.stream.LongStream.rangeClosed(1, 6).mapToObj(id -> repository.find(id).orElseThrow()
                .registeredByToken())).containsExactly(1L, 2L, null, null, null, null);
        AgentCoordinator.Caller renewed = new AgentCoordinator.Caller("token:bench", false, 2L);
        assertThat(repository.find(2).orElseThrow().registeredBy(renewed)).as("its own token").isTrue();
        assertThat(repository.find(1).orElseThrow().registeredBy(renewed)).as("the revoked token's agent").isFalse();
        assertThat(repository.find(3).orElseThrow().registeredBy(new AgentCoordinator.Caller("admin", false)))
                .as("a user's agent, the same user").isTrue();
        assertThat(repository.find(3).orElseThrow().registeredBy(new AgentCoordinator.Caller("admin", false, 3L)))
                .as("no token acts as a user's agent").isFalse();
        assertThat(repository.find(4).orElseThrow().registeredBy(new AgentCoordinator.Caller("service", false)))
                .as("a built-in agent is no caller's").isFalse();
    }

    /**
     * V27 stores the token that started an experiment by its id, for experiments stored before too: the token of its
     * name that was live when it was created, as V25 does for agents. That token keeps controlling it; a token created
     * later with the name of a revoked one controls none of the revoked one's. On H2 and on PostgreSQL.
     */
    @Test
    void experimentsStoredBeforeTokenIdsKeepTheTokenThatStartedThemAndNoOtherOfItsName() {
        onH2AndPostgres("before-experiment-token-ids", "26", EmbeddedPostgres::newDatabase,
                MigrationTests::startersOfExperimentsStoredBefore);
    }

    private static void startersOfExperimentsStoredBefore(javax.sql.DataSource database) {
        JdbcClient jdbc = JdbcClient.create(database);
        java.time.OffsetDateTime t0 = java.time.OffsetDateTime.parse("2026-03-01T09:00:00Z");
        // 'ci' #1 revoked at t0+2h, and created again as #2 at t0+3h; 'nightly' #3 live since t0
        Object[][] tokens = {{1, "ci", null, t0, t0.plusHours(2)}, {2, "ci", "ci", t0.plusHours(3), null},
                {3, "nightly", "nightly", t0, null}};
        for (Object[] token : tokens) {
            jdbc.sql("INSERT INTO api_token (id, name, live_name, token_hash, token_prefix, role, created_by, "
                    + "created_at, revoked_at) VALUES (?, ?, ?, ?, 'plt_x', 'USER', 'admin', ?, ?)")
                    .params(token[0], token[1], token[2], String.valueOf(token[0]).repeat(64), token[3], token[4])
                    .update();
        }
        Object[][] experiments = {{1, "token:ci", t0.plusHours(1)}, {2, "token:ci", t0.plusHours(4)},
                {3, "admin", t0.plusHours(1)}, {4, "token:never-stored", t0.plusHours(1)},
                {5, "token:nightly", t0.minusHours(1)}, {6, null, t0.plusHours(1)},
                {7, "token:nightly", t0.plusHours(1)}};
        for (Object[] experiment : experiments) {
            jdbc.sql("""
                    INSERT INTO experiment (id, name, name_folded, kind, status, runs_per_variant, run_order, seed,
                        trial_timeout_seconds, max_failures, created_by, created_at, data_version)
                    VALUES (?, 'old', 'old', 'ENGINE', 'CANCELLED', 2, 'interleaved', 1, 120, 3, ?, ?, 0)""")
                    .params(experiment[0], experiment[1], experiment[2]).update();
        }

        Flyway.configure().dataSource(database).load().migrate();

        ExperimentRepository repository = new ExperimentRepository(jdbc, new JdbcTemplate(database),
                JsonMapper.builder().build());
        assertThat(java.util.stream.LongStream.rangeClosed(1, 7).mapToObj(id -> repository.find(id).orElseThrow()
                .createdByToken())).containsExactly(1L, 2L, null, null, null, null, 3L);
        ExperimentCaller renewed = new ExperimentCaller("token:ci", false, 2L);
        assertThat(controls(renewed, repository.find(2).orElseThrow())).as("its own").isTrue();
        assertThat(controls(renewed, repository.find(1).orElseThrow())).as("the revoked token's").isFalse();
        assertThat(controls(new ExperimentCaller("token:nightly", false, 3L), repository.find(7).orElseThrow()))
                .as("a live token's, started before").isTrue();
        assertThat(controls(new ExperimentCaller("admin", false), repository.find(3).orElseThrow()))
                .as("a user's, the same user").isTrue();
        assertThat(controls(new ExperimentCaller("admin", false, 3L), repository.find(3).orElseThrow()))
                .as("no token controls a user's").isFalse();
        assertThat(controls(new ExperimentCaller("token:never-stored", false, 4L), repository.find(4).orElseThrow()))
                .as("a token not found: an administrator's").isFalse();
    }

    private static boolean controls(ExperimentCaller caller, ExperimentRecord experiment) {
        return caller.controls(experiment.createdBy(), experiment.createdByToken());
    }

    @Test
    void agentsStoredBeforeTheirPlatformColumnsGetThePlatformTheirEnvironmentSays() {
        onH2AndPostgres("before-agent-platform", "28", EmbeddedPostgres::newDatabase,
                MigrationTests::platformsOfAgentsStoredBefore);
    }

    private static void platformsOfAgentsStoredBefore(javax.sql.DataSource database) {
        JdbcClient jdbc = JdbcClient.create(database);
        String[] environments = {"{\"kernel\":\"Linux 6.1.0-18-amd64 amd64\",\"host\":\"h\"}",
                "{\"kernel\":\"Mac OS X 14.1 aarch64\"}", "{\"host\":\"h\"}"};
        for (int i = 0; i < environments.length; i++) {
            jdbc.sql("""
                    INSERT INTO agent (id, name, labels, built_in, runs_commands, host, environment, registered_by,
                        registered_at, last_heartbeat, status)
                    VALUES (?, ?, '', FALSE, FALSE, 'h', ?, 'admin', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP, 'IDLE')""")
                    .params(i + 1, "agent " + (i + 1), environments[i]).update();
        }

        Flyway.configure().dataSource(database).load().migrate();

        AgentRepository repository = new AgentRepository(jdbc, JsonMapper.builder().build());
        assertThat(java.util.stream.LongStream.rangeClosed(1, 3).mapToObj(id -> repository.find(id).orElseThrow()
                .platform())).containsExactly(new io.perflab.agent.HostPlatform("Linux", "amd64"),
                        new io.perflab.agent.HostPlatform("Mac OS X", "aarch64"), null);
    }

    /**
     * V31 keeps whether an agent counts hardware events in a column of its own: an agent registered before said
     * nothing of it and keeps nothing (not given an experiment whose target needs hardware counters until it
     * registers again); one registered after keeps its answer. On H2 and on PostgreSQL.
     */
    @Test
    void agentsStoredBeforeTheHardwareCountersColumnSayNothingOfThemAndNewOnesKeepTheirAnswer() {
        onH2AndPostgres("before-agent-hardware-counters", "30", EmbeddedPostgres::newDatabase,
                MigrationTests::hardwareCountersOfAgentsStoredBefore);
    }

    private static void hardwareCountersOfAgentsStoredBefore(javax.sql.DataSource database) {
        JdbcClient jdbc = JdbcClient.create(database);
        jdbc.sql("""
                INSERT INTO agent (id, name, labels, built_in, runs_commands, host, environment, os_name, os_arch,
                    registered_by, registered_at, last_heartbeat, status)
                VALUES (900, 'agent 900', '', FALSE, FALSE, 'h', '{}', 'Linux', 'amd64', 'admin', CURRENT_TIMESTAMP,
                    CURRENT_TIMESTAMP, 'IDLE')""").update();

        Flyway.configure().dataSource(database).load().migrate();

        AgentRepository repository = new AgentRepository(jdbc, JsonMapper.builder().build());
        assertThat(repository.find(900).orElseThrow().counts()).isEqualTo(HostCounts.UNSAID);
        java.time.Instant now = java.time.Instant.now();
        long counts = repository.register("counts", io.perflab.agent.HostLabels.NONE, false, false, "h",
                java.util.Map.of(), new HostCounts(null, true), "admin", null, now);
        long refused = repository.register("refused", io.perflab.agent.HostLabels.NONE, false, false, "h",
                java.util.Map.of(), new HostCounts(null, false), "admin", null, now);
        assertThat(repository.find(counts).orElseThrow().counts().hardwareCounters()).isTrue();
        assertThat(repository.find(refused).orElseThrow().counts().hardwareCounters()).isFalse();
        assertThat(repository.hostGroups(now.minusSeconds(3600)))
                .extracting(group -> group.counts().hardwareCounters())
                .as("told apart as the queue tells hosts apart").containsExactlyInAnyOrder(null, true, false);
    }

    /**
     * V32 keeps whether an agent counts system calls in a column of its own, beside its hardware counters: an agent
     * registered before said nothing of it and keeps nothing, its answer of hardware counters kept; one registered
     * after keeps both answers, and the queue tells hosts apart by either. On H2 and on PostgreSQL.
     */
    @Test
    void agentsStoredBeforeTheSystemCallsColumnSayNothingOfThemAndNewOnesKeepTheirAnswer() {
        onH2AndPostgres("before-agent-system-calls", "31", EmbeddedPostgres::newDatabase,
                MigrationTests::systemCallsOfAgentsStoredBefore);
    }

    private static void systemCallsOfAgentsStoredBefore(javax.sql.DataSource database) {
        JdbcClient jdbc = JdbcClient.create(database);
        jdbc.sql("""
                INSERT INTO agent (id, name, labels, built_in, runs_commands, host, environment, os_name, os_arch,
                    hardware_counters, registered_by, registered_at, last_heartbeat, status)
                VALUES (900, 'agent 900', '', FALSE, FALSE, 'h', '{}', 'Linux', 'amd64', TRUE, 'admin',
                    CURRENT_TIMESTAMP, CURRENT_TIMESTAMP, 'IDLE')""").update();

        Flyway.configure().dataSource(database).load().migrate();

        AgentRepository repository = new AgentRepository(jdbc, JsonMapper.builder().build());
        assertThat(repository.find(900).orElseThrow().counts()).isEqualTo(new HostCounts(null, true));
        java.time.Instant now = java.time.Instant.now();
        long counts = repository.register("counts", io.perflab.agent.HostLabels.NONE, false, false, "h",
                java.util.Map.of(), new HostCounts(true, true), "admin", null, now);
        long refused = repository.register("refused", io.perflab.agent.HostLabels.NONE, false, false, "h",
                java.util.Map.of(), new HostCounts(false, true), "admin", null, now);
        assertThat(repository.find(counts).orElseThrow().counts()).isEqualTo(new HostCounts(true, true));
        assertThat(repository.find(refused).orElseThrow().counts()).isEqualTo(new HostCounts(false, true));
        assertThat(repository.hostGroups(now.minusSeconds(3600))).extracting(AgentRepository.HostGroup::counts)
                .as("told apart as the queue tells hosts apart")
                .containsExactlyInAnyOrder(new HostCounts(null, true), new HostCounts(true, true),
                        new HostCounts(false, true));
    }

    /**
     * V33 keeps each sequential look's futility bound: a look stored before reads back without one, which the page
     * shows as an empty cell and the verdict's reason leaves out; a bound stored reads back as it was. On H2 and on
     * PostgreSQL.
     */
    @Test
    void looksStoredBeforeTheFutilityBoundColumnReadBackWithoutOne() {
        onH2AndPostgres("before-look-futility", "32", EmbeddedPostgres::newDatabase,
                MigrationTests::futilityBoundsOfLooksStoredBefore);
    }

    private static void futilityBoundsOfLooksStoredBefore(javax.sql.DataSource database) {
        JdbcClient jdbc = JdbcClient.create(database);
        jdbc.sql("""
                INSERT INTO experiment (id, name, name_folded, kind, status, runs_per_variant, run_order, seed,
                    trial_timeout_seconds, max_failures, created_by, created_at, data_version)
                VALUES (1, 'old', 'old', 'ENGINE', 'COMPLETED', 20, 'interleaved', 1, 120, 3, 'admin',
                    CURRENT_TIMESTAMP, 0)""").update();
        jdbc.sql("""
                INSERT INTO sequential_look (experiment_id, metric_key, look, pairs, planned_pairs, target, percent,
                    ci_low_percent, ci_high_percent, half_width_percent, t, t_boundary, outcome, description)
                VALUES (1, 'cpu_us_per_req', 9, 10, 20, 'cpu_us_per_req:mde=2%', 0.1, -1.5, 1.7, 1.6, 0.2, 2.9,
                    'FUTILE', 'look 9 (10 pairs, 50 % of 20)')""").update();

        Flyway.configure().dataSource(database).load().migrate();

        SequentialLookRepository looks = new SequentialLookRepository(jdbc);
        assertThat(looks.looks(1)).singleElement().satisfies(l -> {
            assertThat(l.outcome()).isEqualTo("FUTILE");
            assertThat(l.tBoundary()).isEqualTo(2.9);
            assertThat(l.tFutility()).isNull();
        });
        jdbc.sql("UPDATE sequential_look SET t_futility = 0.625").update();
        assertThat(looks.looks(1)).singleElement().extracting(SequentialLookRepository.LookRecord::tFutility)
                .isEqualTo(0.625);
    }

    /**
     * Runs {@code check} on an H2 database named {@code name} and on a new PostgreSQL database from {@code postgres},
     * each migrated to {@code version}: the check stores rows as that version kept them, migrates the rest of the way
     * and reads them back.
     */
    private static void onH2AndPostgres(String name, String version,
                                        java.util.function.Supplier<EmbeddedPostgres.Database> postgres,
                                        java.util.function.Consumer<javax.sql.DataSource> check) {
        SingleConnectionDataSource h2 = migratedTo(name, version);
        try {
            check.accept(h2);
        } finally {
            h2.destroy();
        }
        EmbeddedPostgres.Database database = postgres.get();
        DriverManagerDataSource migrated = new DriverManagerDataSource(database.url(), database.username(),
                database.password());
        Flyway.configure().dataSource(migrated).target(MigrationVersion.fromVersion(version)).load().migrate();
        check.accept(migrated);
    }

    private static SingleConnectionDataSource migratedTo(String name, String version) {
        SingleConnectionDataSource database = new SingleConnectionDataSource(
                "jdbc:h2:mem:" + name + ";DB_CLOSE_DELAY=-1", "sa", "", true);
        Flyway.configure().dataSource(database).target(MigrationVersion.fromVersion(version)).load().migrate();
        return database;
    }

    /** Experiment 1's variants as every release stored them: monitor against notification completion. */
    private static void insertVariants(JdbcClient jdbc) {
        for (String side : new String[] {"without", "with"}) {
            jdbc.sql("INSERT INTO variant (experiment_id, name, options, jvm_args) VALUES (1, ?, ?, '[]')")
                    .params(side, side.equals("with") ? "{\"completion\":\"notification\"}"
                            : "{\"completion\":\"monitor\"}")
                    .update();
        }
    }
}
