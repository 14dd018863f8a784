package io.perflab.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import db.migration.V4__Workload_as_json_object;
import io.perflab.agent.HostCounts;
import io.perflab.paired.PairedFixtures;
import io.perflab.paired.SequentialStopping;
import io.perflab.rpc.EngineOptions;
import io.perflab.runner.experiment.ExperimentDesign;
import io.perflab.runner.experiment.PairResult;
import io.perflab.runner.experiment.EngineVariant;
import io.perflab.runner.experiment.ExperimentPlan;
import io.perflab.runner.experiment.TrialOrder;
import io.perflab.runner.experiment.VariantName;
import io.perflab.runner.json.RunnerJson;
import io.perflab.runner.rpcbench.CallMode;
import io.perflab.runner.rpcbench.Warmup;
import io.perflab.runner.rpcbench.Workload;
import io.perflab.runner.rpcbench.WorkloadSettings;
import io.perflab.runner.trial.TrialResult;
import io.perflab.runner.trial.TrialStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.data.jdbc.test.autoconfigure.DataJdbcTest;
import org.springframework.boot.jdbc.test.autoconfigure.AutoConfigureTestDatabase;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.json.JsonMapper;

/**
 * The experiment aggregate against the real schema, without the web layer: Flyway's migrations on the embedded H2
 * (this class) and on a real PostgreSQL ({@link ExperimentRepositoryPostgresTests}).
 */
@DataJdbcTest(properties = "spring.datasource.url=jdbc:h2:mem:repository-tests;DB_CLOSE_DELAY=-1")
@AutoConfigureTestDatabase(replace = AutoConfigureTestDatabase.Replace.NONE)
@Import({ExperimentRepository.class, SequentialLookRepository.class, ResultsDigestRepository.class,
        ExperimentRepositoryTests.Json.class})
class ExperimentRepositoryTests {

    @TestConfiguration
    static class Json {
        @Bean
        JsonMapper jsonMapper() {
            return JsonMapper.builder().build();
        }
    }

    @Autowired
    ExperimentRepository repository;

    @Autowired
    SequentialLookRepository looks;

    @Autowired
    ResultsDigestRepository digests;

    @Autowired
    JdbcClient jdbc;

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    @Test
    void anEngineExperimentsPlanReadsBackAsItWasQueued() {
        Workload workload = Workload.DEFAULTS.withMode(CallMode.ASYNC).withClientThreads(3)
                .withWarmup(Warmup.auto(Duration.ofSeconds(12))).withRun(Duration.ofMillis(1500)).withPayload(0, 2048);
        ExperimentPlan plan = ExperimentPlan.of(
                        EngineVariant.of(EngineOptions.defaults().withOption("completion", "monitor"), workload),
                        EngineVariant.of(EngineOptions.defaults(), workload).withJvmArgs(List.of("-Xbatch")), 4)
                .withOrder(TrialOrder.RANDOMIZED).withSeed(7);
        long id = StoredExperiments.insert(repository, new ExperimentSpec("round trip", null, ExperimentKind.ENGINE,
                null, plan), ExperimentStatus.QUEUED, "tester", T0);

        ExperimentPlan read = repository.plan(repository.find(id).orElseThrow());

        assertThat(read.without()).isEqualTo(plan.without());
        assertThat(read.with()).isEqualTo(plan.with());
        assertThat(read.order()).isEqualTo(TrialOrder.RANDOMIZED);
        assertThat(read.seed()).isEqualTo(7);
    }

    /**
     * The queue is taken in the order the database took the experiments: two service instances whose clocks differ
     * stamp their creation times apart, and the one queued later through the instance whose clock is behind went
     * first, in claims, in the next queued and in the queue positions alike.
     */
    @Test
    void theQueueGoesInTheOrderTheDatabaseTookTheExperimentsWhateverTheirInstancesClocksSaid() {
        jdbc.sql("UPDATE experiment SET status = 'CANCELLED' WHERE status IN ('QUEUED', 'INTERRUPTED')").update();
        ExperimentPlan plan = ExperimentPlan.of(EngineVariant.of(EngineOptions.defaults(), Workload.DEFAULTS),
                EngineVariant.of(EngineOptions.defaults().withOption("completion", "monitor"), Workload.DEFAULTS), 2);
        // queued first through an instance whose clock is a minute ahead, then through one on time
        long first = StoredExperiments.insert(repository, new ExperimentSpec("queued first", null,
                ExperimentKind.ENGINE, null, plan), ExperimentStatus.QUEUED, "tester", T0.plusSeconds(60));
        long second = StoredExperiments.insert(repository, new ExperimentSpec("queued second", null,
                ExperimentKind.ENGINE, null, plan), ExperimentStatus.QUEUED, "tester", T0.plusSeconds(1));

        assertThat(repository.nextQueued()).contains(first);
        assertThat(position(first)).isEqualTo(1);
        assertThat(position(second)).isEqualTo(2);
        Claimant builtIn = new Claimant(null, io.perflab.agent.HostLabels.NONE, true, false,
                io.perflab.agent.HostPlatform.current(), null);
        assertThat(repository.claimNext(builtIn, T0.plusSeconds(120))).map(ExperimentRecord::id).contains(first);
    }

    /**
     * An experiment with completion=futex was claimed by any host, and on one not Linux on amd64 or aarch64 every
     * trial failed as its engine client started, until the experiment failed. The built-in agent of a service on
     * such a host claims as a remote agent does, through the same claim: it passes over the experiment and takes the
     * next, and a host of the platform takes it.
     */
    @Test
    void aHostNotOfThePlatformAnEngineOptionNeedsPassesOverItsExperiment() {
        jdbc.sql("UPDATE experiment SET status = 'CANCELLED' WHERE status IN ('QUEUED', 'INTERRUPTED')").update();
        ExperimentPlan futex = ExperimentPlan.of(
                EngineVariant.of(EngineOptions.defaults().withOption("completion", "condvar"), Workload.DEFAULTS),
                EngineVariant.of(EngineOptions.defaults().withOption("completion", "futex"), Workload.DEFAULTS), 2);
        ExperimentPlan monitor = ExperimentPlan.of(EngineVariant.of(EngineOptions.defaults(), Workload.DEFAULTS),
                EngineVariant.of(EngineOptions.defaults().withOption("completion", "monitor"), Workload.DEFAULTS), 2);
        long needsLinux = queued(futex, "");
        long anywhere = queued(monitor, "");
        Claimant mac = new Claimant(null, io.perflab.agent.HostLabels.NONE, true, false,
                new io.perflab.agent.HostPlatform("Mac OS X", "aarch64"), null);
        Claimant unknown = new Claimant(null, io.perflab.agent.HostLabels.NONE, true, false, null, null);
        Claimant linux = new Claimant(null, io.perflab.agent.HostLabels.NONE, true, false,
                new io.perflab.agent.HostPlatform("Linux", "aarch64"), null);

        assertThat(repository.claim(needsLinux, mac, T0)).isFalse();
        assertThat(repository.claim(needsLinux, unknown, T0)).as("a platform not registered is none").isFalse();
        assertThat(repository.claimNext(mac, T0)).map(ExperimentRecord::id).contains(anywhere);
        assertThat(repository.claimNext(unknown, T0)).isEmpty();
        assertThat(repository.find(needsLinux).orElseThrow().status()).isEqualTo(ExperimentStatus.QUEUED);
        assertThat(repository.claimNext(linux, T0)).map(ExperimentRecord::id).contains(needsLinux);
    }

    /**
     * An experiment whose stopping target is instructions_per_req was claimed by any host, and on one without hardware
     * counters stopped after its first pair, its target unmeasured. A host that said it has none, or said nothing,
     * passes over it and takes the next; a host that has them takes it.
     */
    @Test
    void aHostWithoutHardwareCountersPassesOverAnExperimentWhoseTargetNeedsThem() {
        jdbc.sql("UPDATE experiment SET status = 'CANCELLED' WHERE status IN ('QUEUED', 'INTERRUPTED')").update();
        long counted = insertDuet(List.of(SequentialStopping.Target.parse("cpu_us_per_req:2%"),
                SequentialStopping.Target.parse("instructions_per_req:settled")));
        long anywhere = insertDuet();
        io.perflab.agent.HostPlatform linux = new io.perflab.agent.HostPlatform("Linux", "amd64");
        Claimant guest = host(linux, new HostCounts(true, false));
        Claimant older = host(linux, HostCounts.UNSAID);
        Claimant bareMetal = host(linux, new HostCounts(true, true));

        assertThat(repository.queuePlaces(List.of(counted)).get(counted).claimable().needs()
                .countedTargets()).as("read from the stored targets").containsExactly("instructions_per_req");
        assertThat(repository.claim(counted, guest, T0)).isFalse();
        assertThat(repository.claim(counted, older, T0)).as("a host that said nothing has none").isFalse();
        assertThat(repository.claimNext(guest, T0)).map(ExperimentRecord::id).contains(anywhere);
        assertThat(repository.claimNext(older, T0)).isEmpty();
        assertThat(repository.find(counted).orElseThrow().status()).isEqualTo(ExperimentStatus.QUEUED);
        assertThat(repository.claimNext(bareMetal, T0)).map(ExperimentRecord::id).contains(counted);
    }

    /**
     * An experiment whose stopping target was syscalls_per_req went to any host, and on one whose trials count no
     * system calls (the kernel refusing the tracepoint, or the agent's trial JVMs told not to) stopped after its
     * first pair, its target unmeasured. Such a host, or one that said nothing, passes over it; one that counts
     * them takes it, whatever it said of hardware counters.
     */
    @Test
    void aHostThatCountsNoSystemCallsPassesOverAnExperimentWhoseTargetNeedsThem() {
        jdbc.sql("UPDATE experiment SET status = 'CANCELLED' WHERE status IN ('QUEUED', 'INTERRUPTED')").update();
        long counted = insertPaired(ExperimentDesign.ALTERNATING,
                List.of(SequentialStopping.Target.parse("syscalls_per_req:settled")));
        long anywhere = insertDuet();
        io.perflab.agent.HostPlatform linux = new io.perflab.agent.HostPlatform("Linux", "amd64");
        Claimant unprivileged = host(linux, new HostCounts(false, true));
        Claimant older = host(linux, new HostCounts(null, true));
        Claimant guest = host(linux, new HostCounts(true, false));

        assertThat(repository.queuePlaces(List.of(counted)).get(counted).claimable().needs()
                .countedTargets()).as("read from the stored targets").containsExactly("syscalls_per_req");
        assertThat(repository.claim(counted, unprivileged, T0)).isFalse();
        assertThat(repository.claim(counted, older, T0)).as("a host that said nothing counts none").isFalse();
        assertThat(repository.claimNext(unprivileged, T0)).map(ExperimentRecord::id).contains(anywhere);
        assertThat(repository.claimNext(older, T0)).isEmpty();
        assertThat(repository.find(counted).orElseThrow().status()).isEqualTo(ExperimentStatus.QUEUED);
        assertThat(repository.claimNext(guest, T0)).map(ExperimentRecord::id).contains(counted);
    }

    /** A host of {@code platform} without labels whose agent said {@code counts}. */
    private static Claimant host(io.perflab.agent.HostPlatform platform, HostCounts counts) {
        return new Claimant(null, io.perflab.agent.HostLabels.NONE, true, false, platform, counts);
    }

    /**
     * A queued experiment's position counts the experiments ahead of it that the hosts able to run it could take
     * first: not those that ask for labels none of its hosts carries, nor an interrupted one that only the hosts it
     * ran on resume.
     */
    @Test
    void theQueuePositionCountsOnlyTheExperimentsAheadThatItsHostsCouldRun() {
        jdbc.sql("UPDATE experiment SET status = 'CANCELLED' WHERE status IN ('QUEUED', 'INTERRUPTED')").update();
        ExperimentPlan plan = ExperimentPlan.of(EngineVariant.of(EngineOptions.defaults(), Workload.DEFAULTS),
                EngineVariant.of(EngineOptions.defaults().withOption("completion", "monitor"), Workload.DEFAULTS), 2);
        long gpu = queued(plan, "pool=gpu");
        long anyHost = queued(plan, "");
        long resumedOnGpu = queued(plan, "");
        jdbc.sql("UPDATE experiment SET status = 'INTERRUPTED', resume_on_claim = TRUE, run_labels = 'pool=gpu' "
                + "WHERE id = ?").param(resumedOnGpu).update();
        long cpu = queued(plan, "pool=cpu");
        long cpuInZoneA = queued(plan, "pool=cpu,zone=a");

        assertThat(position(gpu)).isEqualTo(1);
        assertThat(position(anyHost)).as("a gpu host may take the gpu experiment first").isEqualTo(2);
        assertThat(position(cpu)).as("behind the one for any host only").isEqualTo(2);
        assertThat(position(cpuInZoneA)).as("behind the one for any host and the one for cpu hosts").isEqualTo(3);
        assertThat(repository.queuePlaces(List.of(cpuInZoneA, gpu, cpu, anyHost))).as("read for a page at once")
                .extractingFromEntries(e -> e.getKey() + ":" + e.getValue().position())
                .containsExactlyInAnyOrder(gpu + ":1", anyHost + ":2", cpu + ":2", cpuInZoneA + ":3");
    }

    private long queued(ExperimentPlan plan, String hostLabels) {
        return StoredExperiments.insert(repository, new ExperimentSpec("queued", null, ExperimentKind.ENGINE, null,
                plan, PairedStopping.NONE, io.perflab.agent.HostLabels.parse(hostLabels)), ExperimentStatus.QUEUED,
                "tester", T0);
    }

    /**
     * What a loaded-host warning is judged on ({@link HostLoadCheck}): the first trial that read the host's load, and
     * when the agent that ran it last ended another experiment before.
     */
    @Test
    void theFirstTrialToReadTheLoadComesWithWhenItsAgentLastEndedAnotherExperiment() {
        ExperimentPlan plan = ExperimentPlan.of(EngineVariant.of(Map.of(), Workload.DEFAULTS),
                EngineVariant.of(Map.of("completion", "monitor"), Workload.DEFAULTS), 2);
        long earlier = queued(plan, "");
        long later = queued(plan, "");
        jdbc.sql("""
                INSERT INTO agent (name, labels, built_in, runs_commands, host, environment, registered_by,
                    registered_at, last_heartbeat, status)
                VALUES ('bench-1', '', FALSE, FALSE, 'bench-1', '{}', 'tester', ?, ?, 'IDLE')""")
                .params(ExperimentRepository.timestamp(T0), ExperimentRepository.timestamp(T0)).update();
        long agent = jdbc.sql("SELECT MAX(id) FROM agent").query(Long.class).single();
        jdbc.sql("INSERT INTO experiment_claim (experiment_id, claim, agent_id, claimed_at, ended_at) "
                        + "VALUES (?, 1, ?, ?, ?)")
                .params(earlier, agent, ExperimentRepository.timestamp(T0),
                        ExperimentRepository.timestamp(T0.plusSeconds(60))).update();
        repository.saveRun(later, agent, new TrialResult("without", 0, TrialStatus.FAILED, T0.plusSeconds(100),
                T0.plusSeconds(101), 1, Map.of(), Map.of("host", "bench-1"), "no JVM"));
        repository.saveRun(later, agent, new TrialResult("with", 1, TrialStatus.OK, T0.plusSeconds(180),
                T0.plusSeconds(200), 3, Map.of("m", 1.0), Map.of("load_average", "6.00", "cpu_count", "2"), null));
        repository.saveRun(later, agent, new TrialResult("without", 2, TrialStatus.OK, T0.plusSeconds(120),
                T0.plusSeconds(140), 2, Map.of("m", 1.0), Map.of("load_average", "0.20", "cpu_count", "2"), null));

        ExperimentRepository.FirstTrial first = repository.firstTrial(later).orElseThrow();

        assertThat(first.environment()).containsEntry("load_average", "0.20");
        assertThat(first.startedAt()).isEqualTo(T0.plusSeconds(120));
        assertThat(first.hostLastBusy()).isEqualTo(T0.plusSeconds(60));
        assertThat(repository.firstTrial(earlier)).isEmpty();
    }

    /**
     * A list reads what its rows show beside their records for the whole page at once (a query a row for each was
     * up to 1,000 queries a page of 200): each experiment's runs, packed runs, variants, workload and stored digest,
     * the same as its own reads give.
     */
    @Test
    void aListReadsEachRowsRunsVariantsWorkloadAndDigestForItsWholePage() {
        ExperimentPlan plan = ExperimentPlan.of(EngineVariant.of(Map.of(), Workload.DEFAULTS.withClientThreads(3))
                        .withJvmArgs(List.of("-Xbatch")),
                EngineVariant.of(Map.of("completion", "monitor"), Workload.DEFAULTS), 2);
        long engine = queued(plan, "");
        repository.saveRun(engine, null, new TrialResult("without", 0, TrialStatus.FAILED, T0, T0.plusSeconds(1), 1,
                Map.of(), Map.of(), "no JVM"));
        repository.saveRun(engine, null, new TrialResult("with", 1, TrialStatus.OK, T0.plusSeconds(2),
                T0.plusSeconds(9), 2, Map.of("m", 1.0), Map.of(), null));
        long untouched = queued(plan, "");
        long upload = repository.insert(new RecordedExperiment("listed", "listed", "ci", T0,
                new SourceRevision(null, null, null, null, null, null), Map.of(), List.of(), Map.of(),
                Map.of("m1", new MetricDefinition("m1", "ns", false, 0, "")), List.of(
                        new RecordedExperiment.Run(VariantName.WITHOUT, 0, Map.of("m1", 1.0)),
                        new RecordedExperiment.Run(VariantName.WITHOUT, 1, Map.of("m1", 2.0)),
                        new RecordedExperiment.Run(VariantName.WITH, 2, Map.of("m1", 3.0))))).id();
        ResultsDigest digest = new ResultsDigest(List.of(), 3, 0);
        digests.store(upload, repository.find(upload).orElseThrow().dataVersion(), digest);
        digests.store(engine, 999, digest);                      // of another data version: not the engine's now
        List<Long> ids = List.of(engine, untouched, upload);

        ExperimentRepository.ListReads listed = repository.listReads(ids.stream()
                .map(id -> repository.find(id).orElseThrow()).toList());

        for (long id : ids) {
            assertThat(listed.runTimings().getOrDefault(id, List.of())).as("runs of " + id)
                    .containsExactlyInAnyOrderElementsOf(repository.runTimings(id));
            assertThat(listed.variants().getOrDefault(id, Map.of())).as("variants of " + id)
                    .containsExactlyEntriesOf(repository.variants(id));
        }
        assertThat(listed.runTimings().get(engine)).extracting(ExperimentRepository.RunTiming::status)
                .containsExactlyInAnyOrder("FAILED", "OK");
        assertThat(listed.runTimings()).doesNotContainKeys(untouched, upload);
        assertThat(listed.packedRuns()).isEqualTo(Map.of(upload, 3));
        assertThat(listed.variants().get(engine)).containsOnlyKeys("with", "without");
        assertThat(listed.variants().get(engine).get("without").jvmArgs()).containsExactly("-Xbatch");
        assertThat(listed.workloads().get(engine)).containsEntry("clientThreads", "3");
        assertThat(listed.workloads()).doesNotContainKey(upload);
        assertThat(digests.findAll(ids.stream().map(id -> repository.find(id).orElseThrow()).toList()))
                .isEqualTo(Map.of(upload, digest));
        assertThat(repository.listReads(List.of()).variants()).isEmpty();
        assertThat(listed.pairTimings()).as("of no paired design").isEmpty();
        assertThat(listed.queue()).containsOnlyKeys(engine, untouched);
    }

    /**
     * Every run of an experiment reads back with the pid it was stored with, as the run at its ordinal does: a run
     * that never started (pid -1, stored as none) but ended read as pid 0, and one with a pid but no end as none.
     */
    @Test
    void everyRunReadsBackWithThePidItWasStoredWith() {
        long id = queued(ExperimentPlan.of(EngineVariant.of(Map.of(), Workload.DEFAULTS),
                EngineVariant.of(Map.of("completion", "monitor"), Workload.DEFAULTS), 2), "");
        repository.saveRun(id, new TrialResult("without", 0, TrialStatus.FAILED, T0, T0.plusSeconds(1), -1,
                Map.of(), Map.of(), "could not start the JVM"));
        repository.saveRun(id, new TrialResult("with", 1, TrialStatus.CANCELLED, T0.plusSeconds(2), null, 4242,
                Map.of(), Map.of(), "cancelled"));

        assertThat(repository.runs(id)).extracting(RunRecord::pid).containsExactly(null, 4242L);
        assertThat(repository.runs(id, List.of("m"))).extracting(RunRecord::pid).containsExactly(null, 4242L);
        assertThat(repository.runs(id)).containsExactly(repository.storedRun(id, 0).orElseThrow().run(),
                repository.storedRun(id, 1).orElseThrow().run());
    }

    private long position(long id) {
        return repository.queuePlaces(List.of(id)).get(id).position();
    }

    @Test
    void aPairedExperimentKeepsItsDesignTargetsAndBudget() {
        long id = insertDuet();

        ExperimentRecord record = repository.find(id).orElseThrow();
        assertThat(record.design()).isEqualTo(ExperimentDesign.DUET);
        assertThat(record.windowsPerPair()).isEqualTo(2);
        assertThat(record.totalRuns()).isEqualTo(3 * 2 * 2);
        assertThat(record.stopping().targetTexts())
                .containsExactly("cpu_us_per_req:1.5%", "user_cpu_us_per_req:settled");
        assertThat(record.stopping().budget()).contains(Duration.ofSeconds(360));
        ExperimentPlan plan = repository.plan(record);
        assertThat(plan.design()).isEqualTo(ExperimentDesign.DUET);
        assertThat(plan.pairs()).isEqualTo(3);
        assertThat(plan.windowsPerPair()).isEqualTo(2);
    }

    @Test
    void aTargetReadsBackAsTheVeryNumberItWasQueuedWith() {
        long id = insertDuet(List.of(SequentialStopping.Target.parse("cpu_us_per_req:1.7976e308%"),
                SequentialStopping.Target.parse("user_cpu_us_per_req:0.12345%")));

        assertThat(repository.find(id).orElseThrow().stopping().targets()).containsExactly(
                new SequentialStopping.Target("cpu_us_per_req", 1.7976e308),
                new SequentialStopping.Target("user_cpu_us_per_req", 0.12345));
    }

    /**
     * A target stored in a form that does not read back (1.798e+308 % overflows) made every read of its row throw:
     * the list of experiments failed for everyone, and the row could not even be deleted. It is left out of what
     * is read; the rest of the row, and every other row, reads as before.
     */
    @Test
    void aStoredTargetThatCannotBeReadLeavesItsRowListedAndDeletable() {
        long id = insertDuet();
        jdbc.sql("UPDATE experiment SET targets = ?, status = 'FAILED' WHERE id = ?")
                .params("[\"cpu_us_per_req:1.798e+308%\", \"user_cpu_us_per_req:settled\"]", id).update();

        ExperimentRecord read = repository.find(id).orElseThrow();

        assertThat(read.stopping().targetTexts()).containsExactly("user_cpu_us_per_req:settled");
        assertThat(read.stopping().budget()).contains(Duration.ofMinutes(6));
        assertThat(repository.list(ExperimentFilter.ALL, 0, 1000)).extracting(ExperimentRecord::id).contains(id);
        assertThat(repository.delete(id)).isTrue();
        assertThat(repository.find(id)).isEmpty();
    }

    @Test
    void aPairIsStoredWholeAndReadsBackAsTheRunnerReportedIt() {
        long id = insertDuet();
        PairResult first = PairedFixtures.pair(0, "cpu_us_per_req", new double[] {30.0, 31.0},
                new double[] {29.0, 30.5});
        PairResult failed = PairedFixtures.failedPair(1);

        repository.savePair(id, first);
        repository.savePair(id, failed);

        assertThat(repository.storedPairs(id)).containsExactly(0, 1);
        List<PairResult> read = repository.pairs(id);
        assertThat(read).hasSize(2);
        assertThat(read.get(0).status()).isEqualTo(TrialStatus.OK);
        assertThat(read.get(0).placement()).isEqualTo(first.placement());
        assertThat(read.get(0).setup()).isEqualTo(Duration.ofSeconds(14));
        assertThat(read.get(0).measuring()).isEqualTo(Duration.ofSeconds(6));
        assertThat(read.get(0).start()).isEqualTo(first.start());
        assertThat(read.get(0).results()).extracting(TrialResult::pair)
                .containsExactlyInAnyOrderElementsOf(first.results().stream().map(TrialResult::pair).toList());
        assertThat(read.get(0).windows(VariantName.WITH)).extracting(r -> r.metrics().get("cpu_us_per_req"))
                .containsExactly(29.0, 30.5);
        assertThat(read.get(0).results()).allSatisfy(r -> assertThat(r.environment())
                .containsEntry("pair_setup_seconds", "14.000"));
        assertThat(read.get(1).status()).isEqualTo(TrialStatus.FAILED);
        assertThat(read.get(1).error()).isEqualTo("the with JVM: crashed");
        assertThat(read.get(1).results()).hasSize(2).allSatisfy(r -> {
            assertThat(r.pair().index()).isEqualTo(1);
            assertThat(r.pair().window()).isNull();
        });
        assertThat(repository.runs(id)).hasSize(6).filteredOn(r -> r.pair().window() != null)
                .extracting(r -> r.pair().cpus()).containsOnly("0", "1");
        assertThat(repository.pairTimings(id)).extracting(ExperimentRepository.RunTiming::status)
                .containsExactlyInAnyOrder("OK", "FAILED");
        assertThat(repository.find(id).orElseThrow().dataVersion()).isEqualTo(2);
    }

    @Test
    void theLooksOfTheStoppingRuleAreKeptForThePageAndForAResume() {
        long id = insertDuet();
        SequentialStopping rule = new SequentialStopping(List.of(SequentialStopping.Target.parse("cpu_us_per_req:1%")),
                10, 0.05, java.util.Optional.empty(), () -> 0L, made -> looks.save(id, made));
        List<PairResult> pairs = new java.util.ArrayList<>();
        double[][] changes = {{30.0, 29.1}, {31.0, 30.2}, {30.5, 29.4}};
        for (int i = 0; i < changes.length; i++) {
            pairs.add(PairedFixtures.pair(i, "cpu_us_per_req", new double[] {changes[i][0]},
                    new double[] {changes[i][1]}));
            rule.afterPair(List.copyOf(pairs));
        }

        List<SequentialLookRepository.LookRecord> stored = looks.looks(id);
        assertThat(stored).extracting(SequentialLookRepository.LookRecord::look).containsExactly(1, 2);
        assertThat(stored).extracting(SequentialLookRepository.LookRecord::pairs).containsExactly(2, 3);
        assertThat(stored).extracting(SequentialLookRepository.LookRecord::plannedPairs).containsOnly(10);
        assertThat(looks.plannedPairs(id)).contains(10);
        assertThat(stored).allSatisfy(l -> {
            assertThat(l.target()).isEqualTo("cpu_us_per_req:1%");
            assertThat(l.percent()).isNegative();
            assertThat(l.description()).startsWith("look " + l.look() + " (" + l.pairs() + " pairs");
        });
        assertThat(looks.pairsAtLooks(id)).containsExactly(java.util.Map.entry("cpu_us_per_req", List.of(2, 3)));
    }

    @Test
    void aPairCannotBeStoredTwice() {
        long id = insertDuet();
        PairResult pair = PairedFixtures.pair(0, "cpu_us_per_req", new double[] {30.0}, new double[] {29.0});
        repository.savePair(id, pair);

        assertThatThrownBy(() -> repository.savePair(id, pair)).isInstanceOf(DataAccessException.class);
    }

    @Test
    void aResultsDigestIsFoundForItsDataVersionOnlyAndGoesWithItsExperiment() {
        long id = insertDuet();
        ResultsDigest digest = new ResultsDigest(List.of(
                new ResultsDigest.Badge("cpu_us_per_req", "regressed", "p = 0.001 < 0.05", 2.5),
                new ResultsDigest.Badge("ctx_switches_per_req", "inconclusive", "too few pairs", null)), 12, 1);

        digests.store(id, 3, digest);
        assertThat(digests.find(id, 3)).contains(digest);
        assertThat(digests.find(id, 4)).isEmpty();

        ResultsDigest next = new ResultsDigest(List.of(), 12, 0);
        digests.store(id, 4, next);
        assertThat(digests.find(id, 4)).contains(next);
        assertThat(digests.find(id, 3)).isEmpty();

        digests.store(id + 1_000, 1, digest);                   // no such experiment: nothing stored
        assertThat(digests.find(id + 1_000, 1)).isEmpty();

        jdbc.sql("UPDATE results_digest SET digest = '{\"headline\": [' WHERE experiment_id = ?").param(id).update();
        assertThat(digests.find(id, 4)).as("a damaged digest is computed again, not an error").isEmpty();

        assertThat(repository.delete(id)).as("a queued experiment is not deleted").isFalse();
        jdbc.sql("UPDATE experiment SET status = 'COMPLETED' WHERE id = ?").param(id).update();
        assertThat(repository.delete(id)).isTrue();
        assertThat(jdbc.sql("SELECT COUNT(*) FROM results_digest WHERE experiment_id = ?").param(id)
                .query(Long.class).single()).isZero();
    }

    /**
     * The name filter folds the case of the text typed as it folded the names it stores, both in Java: a name typed
     * exactly as it is shown is found whatever its letters ({@code NameFilterTests} types them in other cases).
     */
    @Test
    void theNameFilterFindsANameTypedAsItIsShownWhateverItsLetters() {
        Workload workload = Workload.DEFAULTS.withRun(Duration.ofMillis(300));
        ExperimentPlan plan = ExperimentPlan.of(EngineVariant.of(EngineOptions.defaults(), workload),
                EngineVariant.of(EngineOptions.defaults().withOption("completion", "monitor"), workload), 2);
        long id = StoredExperiments.insert(repository, new ExperimentSpec("Ölfass-İzmir 100%_\\ run", null,
                ExperimentKind.ENGINE, null, plan), ExperimentStatus.COMPLETED, "tester", T0);
        StoredExperiments.insert(repository, new ExperimentSpec("Olfass-Izmir 100x  run", null, ExperimentKind.ENGINE,
                null, plan), ExperimentStatus.COMPLETED, "tester", T0);

        for (String typed : List.of("Ölfass-İzmir", "ÖLFASS-İZMIR 100%_\\", "fass-İzmir 100%")) {
            ExperimentFilter filter = new ExperimentFilter(null, typed, null, null, false);
            assertThat(repository.list(filter, 0, 10)).as(typed).extracting(ExperimentRecord::id).containsExactly(id);
            assertThat(repository.count(filter)).as(typed).isEqualTo(1);
        }
    }

    private long insertDuet() {
        return insertDuet(List.of(SequentialStopping.Target.parse("cpu_us_per_req:1.5%"),
                SequentialStopping.Target.parse("user_cpu_us_per_req:settled")));
    }

    private long insertDuet(List<SequentialStopping.Target> targets) {
        return insertPaired(ExperimentDesign.DUET, targets);
    }

    private long insertPaired(ExperimentDesign design, List<SequentialStopping.Target> targets) {
        Workload workload = Workload.DEFAULTS.withRun(Duration.ofMillis(300));
        ExperimentPlan plan = ExperimentPlan.of(
                        EngineVariant.of(EngineOptions.defaults().withOption("completion", "monitor"), workload),
                        EngineVariant.of(EngineOptions.defaults(), workload), 3)
                .withDesign(design, 2);
        PairedStopping stopping = new PairedStopping(targets, java.util.Optional.of(Duration.ofMinutes(6)));
        return StoredExperiments.insert(repository, new ExperimentSpec("duet", null, ExperimentKind.ENGINE, null, plan,
                stopping), ExperimentStatus.QUEUED, "tester", T0);
    }

    @Test
    void aRecordedExperimentIsStoredWholeWithItsRunsAndUnits() {
        RecordedExperiment upload = new RecordedExperiment("parser @ abc", "parser", "ci", T0,
                new SourceRevision("repo", "main", "abc", null, null, T0), Map.of("goos", "linux"), List.of("nightly"),
                Map.of(VariantName.WITH, "feature"), Map.of("ns_per_op",
                        new MetricDefinition("ns_per_op", "ns", false, 0, "")),
                List.of(new RecordedExperiment.Run(VariantName.WITHOUT, 0, Map.of("ns_per_op", 12.0)),
                        new RecordedExperiment.Run(VariantName.WITH, 1, Map.of("ns_per_op", 11.0)),
                        new RecordedExperiment.Run(VariantName.WITH, 2, Map.of("ns_per_op", 11.5))));

        ExperimentRepository.Recorded stored = repository.insert(upload);

        ExperimentRecord record = repository.find(stored.id()).orElseThrow();
        assertThat(record.kind()).isEqualTo(ExperimentKind.UPLOAD);
        assertThat(record.status()).isEqualTo(ExperimentStatus.COMPLETED);
        assertThat(record.runsPerVariant()).isEqualTo(2);
        assertThat(repository.runs(stored.id())).extracting(RunRecord::variant, r -> r.metrics().get("ns_per_op"))
                .containsExactly(org.assertj.core.groups.Tuple.tuple("without", 12.0),
                        org.assertj.core.groups.Tuple.tuple("with", 11.0),
                        org.assertj.core.groups.Tuple.tuple("with", 11.5));
        assertThat(repository.variants(stored.id()).get("with").label()).isEqualTo("feature");
        assertThat(repository.metricDefinitions(stored.id()).get("ns_per_op").unit()).isEqualTo("ns");
        assertThat(stored.runs()).hasSize(3);
    }

    @Test
    void aRecordedExperimentsSamplesArePackedPerSideAndMetricAndReadBackPerRun() {
        // m2 is missing from run 1: its series has a gap, so it is stored as two blocks; the runs have no rows
        List<RecordedExperiment.Run> runs = List.of(
                new RecordedExperiment.Run(VariantName.WITHOUT, 0, Map.of("m1", 1.0, "m2", 0.1)),
                new RecordedExperiment.Run(VariantName.WITHOUT, 1, Map.of("m1", 2.0)),
                new RecordedExperiment.Run(VariantName.WITHOUT, 2, Map.of("m1", Math.PI, "m2", -0.3)),
                new RecordedExperiment.Run(VariantName.WITH, 3, Map.of("m1", 1e-300, "m2", Double.MAX_VALUE)));
        RecordedExperiment upload = new RecordedExperiment("packed", "packed", "ci", T0,
                new SourceRevision(null, null, null, null, null, null), Map.of(), List.of(), Map.of(),
                Map.of("m1", new MetricDefinition("m1", "ns", false, 0, ""),
                        "m2", new MetricDefinition("m2", "ns", false, 0, "")),
                runs);

        long id = repository.insert(upload).id();

        assertThat(jdbc.sql("SELECT COUNT(*) FROM sample_series WHERE experiment_id = ?").param(id)
                .query(Long.class).single()).isEqualTo(5);
        assertThat(jdbc.sql("SELECT COUNT(*) FROM trial_run WHERE experiment_id = ?").param(id)
                .query(Long.class).single()).isZero();
        assertThat(repository.runs(id)).extracting(RunRecord::ordinal, RunRecord::variant, RunRecord::metrics)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(0, "without", Map.of("m1", 1.0, "m2", 0.1)),
                        org.assertj.core.groups.Tuple.tuple(1, "without", Map.of("m1", 2.0)),
                        org.assertj.core.groups.Tuple.tuple(2, "without", Map.of("m1", Math.PI, "m2", -0.3)),
                        org.assertj.core.groups.Tuple.tuple(3, "with", Map.of("m1", 1e-300, "m2",
                                Double.MAX_VALUE)));
        assertThat(repository.runs(id, List.of("m2"))).extracting(RunRecord::metrics)
                .containsExactly(Map.of("m2", 0.1), Map.of(), Map.of("m2", -0.3), Map.of("m2", Double.MAX_VALUE));
    }

    @Test
    void aRecordedExperimentWhoseRunsAreNotPositionsIsRefusedAndNothingIsStored() {
        long before = jdbc.sql("SELECT COUNT(*) FROM experiment").query(Long.class).single();
        Map<String, MetricDefinition> metrics = Map.of("m", new MetricDefinition("m", "ns", false, 0, ""));
        SourceRevision none = new SourceRevision(null, null, null, null, null, null);
        RecordedExperiment gap = new RecordedExperiment("gap", "gap", "ci", T0, none, Map.of(), List.of(), Map.of(),
                metrics, List.of(new RecordedExperiment.Run(VariantName.WITH, 0, Map.of("m", 1.0)),
                        new RecordedExperiment.Run(VariantName.WITH, 2, Map.of("m", 2.0))));
        RecordedExperiment empty = new RecordedExperiment("empty", "empty", "ci", T0, none, Map.of(), List.of(),
                Map.of(), metrics, List.of(new RecordedExperiment.Run(VariantName.WITH, 0, Map.of())));

        assertThatThrownBy(() -> repository.insert(gap)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("run 2 of 'with'");
        assertThatThrownBy(() -> repository.insert(empty)).isInstanceOf(IllegalArgumentException.class);
        assertThat(jdbc.sql("SELECT COUNT(*) FROM experiment").query(Long.class).single()).isEqualTo(before);
    }

    @Test
    void aWorkloadStoredAsFlagsByEarlierReleasesReadsBackTheSame() {
        // what releases before the typed workload stored: Workload.toArguments() of that time
        List<String> legacy = List.of("--stack", "perflab", "--mode", "async", "--client-threads", "3",
                "--async-concurrency", "60", "--worker-threads", "1", "--server-reactors", "4", "--request-bytes",
                "0", "--response-bytes", "2048", "--warmup-seconds", "auto:12", "--run-seconds", "1.5",
                "--encryption");

        String converted = JsonMapper.builder().build().writeValueAsString(
                V4__Workload_as_json_object.toObject(JsonMapper.builder().build(), legacy));
        Workload read = RunnerJson.mapper().readValue(converted, WorkloadSettings.class).applyTo(Workload.DEFAULTS);

        assertThat(read).isEqualTo(Workload.DEFAULTS.withMode(CallMode.ASYNC).withClientThreads(3)
                .withPayload(0, 2048).withWarmup(Warmup.auto(Duration.ofSeconds(12))).withRun(Duration.ofMillis(1500))
                .withEncryption(true));
    }
}
