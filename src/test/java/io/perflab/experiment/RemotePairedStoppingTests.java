package io.perflab.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import io.perflab.agent.AgentProtocol.Assignment;
import io.perflab.agent.AgentProtocol.Finish;
import io.perflab.agent.AgentProtocol.PairAnswer;
import io.perflab.agent.AgentProtocol.PostedPair;
import io.perflab.agent.AgentProtocol.Registration;
import io.perflab.paired.SequentialStopping;
import io.perflab.rpc.EngineOptions;
import io.perflab.runner.experiment.EngineVariant;
import io.perflab.runner.experiment.ExperimentDesign;
import io.perflab.runner.experiment.ExperimentPlan;
import io.perflab.runner.experiment.PairListener;
import io.perflab.runner.experiment.PairPlacement;
import io.perflab.runner.experiment.PairResult;
import io.perflab.runner.experiment.PairStoppingRule;
import io.perflab.runner.experiment.PairedOutcome;
import io.perflab.runner.experiment.TrialLauncher;
import io.perflab.runner.experiment.VariantName;
import io.perflab.runner.rpcbench.Workload;
import io.perflab.runner.trial.PairPosition;
import io.perflab.runner.trial.TrialResult;
import io.perflab.runner.trial.TrialStatus;
import io.perflab.stats.ComparisonOptions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.data.jdbc.test.autoconfigure.DataJdbcTest;
import org.springframework.boot.jdbc.test.autoconfigure.AutoConfigureTestDatabase;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/**
 * A paired design with a stopping rule run by remote agents: the service takes the rule's looks as each posted pair
 * is stored and tells the agent to stop in its answer. The looks, the stop and the results are those of the
 * built-in agent's rule on the same pairs; a retried post takes no second look; an experiment interrupted in the
 * middle goes on, on another agent, from the looks stored; a pair posted after the stop is not stored. The agents
 * are driven by hand through {@link AgentCoordinator}; the built-in agent's runner is stood in for, as in
 * {@link PairedResumeTests}.
 */
@DataJdbcTest(properties = "spring.datasource.url=jdbc:h2:mem:remote-paired-stopping-tests;DB_CLOSE_DELAY=-1")
@AutoConfigureTestDatabase(replace = AutoConfigureTestDatabase.Replace.NONE)
@Import({ExperimentRepository.class, SequentialLookRepository.class, AgentRepository.class,
        ExperimentRepositoryTests.Json.class})
@Transactional(propagation = Propagation.NOT_SUPPORTED)
class RemotePairedStoppingTests {

    private static final String METRIC = "cpu_us_per_req";
    private static final int PAIRS = 12;
    private static final int WINDOWS = 2;
    private static final Instant T0 = Instant.parse("2026-03-01T09:00:00Z");

    @Autowired
    ExperimentRepository store;

    @Autowired
    SequentialLookRepository looks;

    @Autowired
    AgentRepository agentRepository;

    @Autowired
    PlatformTransactionManager transactions;

    @Autowired
    JdbcClient jdbc;

    /** The service's clock, which the budget test moves by hand. */
    private Instant now = T0;

    private AgentCoordinator coordinator() {
        Clock clock = new Clock() {
            @Override
            public ZoneOffset getZone() {
                return ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(java.time.ZoneId zone) {
                return this;
            }

            @Override
            public Instant instant() {
                return now;
            }
        };
        return new AgentCoordinator(store, agentRepository, looks, new ExperimentEvents(), clock,
                new AgentProperties(Duration.ofHours(1), Duration.ofHours(2), Duration.ZERO, false, null, ""),
                transactions, new CommandExperimentsPolicy(false), JvmFlagPolicies.of(false),
                new io.perflab.security.ApiTokens(jdbc, clock), io.perflab.runner.experiment.MetricsReader.NONE);
    }

    @Test
    void aRemoteRunStopsWhereTheBuiltInRuleStopsWithTheSameLooksRetriesAndAResumeIncluded() {
        PairedStopping target = new PairedStopping(List.of(SequentialStopping.Target.parse(METRIC + ":2%")),
                Optional.empty());
        long builtIn = builtInRun(target);
        ExperimentRecord reference = store.find(builtIn).orElseThrow();
        List<Integer> referencePairs = store.storedPairs(builtIn);
        assertThat(reference.status()).isEqualTo(ExperimentStatus.COMPLETED);
        assertThat(reference.stopReason()).as("the rule stops it early").startsWith("every target is settled: ");
        assertThat(referencePairs.size()).isBetween(5, PAIRS - 1);
        int stop = referencePairs.size() - 1;

        AgentCoordinator service = coordinator();
        long id = queued(target);
        long first = register(service, "first");
        Assignment assignment = service.poll(first, TESTER, Duration.ZERO).orElseThrow();
        assertThat(assignment.experimentId()).isEqualTo(id);
        assertThat(assignment.pendingPairs()).hasSize(PAIRS);
        int kept = stop - 2;
        for (int i = 0; i < kept; i++) {
            PairAnswer answer = service.recordPair(first, TESTER, id, PostedPair.of(pair(i)));
            assertThat(answer.stored()).isTrue();
            assertThat(answer.stop()).as("pair " + i).isFalse();
        }
        List<SequentialLookRepository.LookRecord> before = looks.looks(id);
        assertThat(before).as("looks are taken as the pairs come in").isNotEmpty();
        PairAnswer retried = service.recordPair(first, TESTER, id, PostedPair.of(pair(kept - 1)));
        assertThat(retried).isEqualTo(new PairAnswer(false, false, false, null));
        assertThat(looks.looks(id)).as("a retry takes no second look").isEqualTo(before);

        // the first agent stops in the middle: the experiment is handed back, another agent resumes it
        service.finish(first, TESTER, id, new Finish("INTERRUPTED", "the agent was stopped"));
        assertThat(store.find(id).orElseThrow().status()).isEqualTo(ExperimentStatus.INTERRUPTED);
        long second = register(service, "second");
        Assignment resumed = service.poll(second, TESTER, Duration.ZERO).orElseThrow();
        assertThat(resumed.pendingPairs()).first().isEqualTo(kept);
        PairAnswer answer = null;
        int i = kept;
        while (answer == null || !answer.stop()) {
            answer = service.recordPair(second, TESTER, id, PostedPair.of(pair(i++)));
            assertThat(answer.stored()).isTrue();
        }
        assertThat(i - 1).as("the pair the rule stops after").isEqualTo(stop);
        assertThat(answer.stopReason()).isEqualTo(reference.stopReason());

        assertThat(service.recordPair(second, TESTER, id, PostedPair.of(pair(stop))))
                .as("a retry of the last pair")
                .isEqualTo(new PairAnswer(false, false, true, reference.stopReason()));
        assertThat(service.recordPair(second, TESTER, id, PostedPair.of(pair(stop + 1))))
                .as("a pair after the stop")
                .isEqualTo(new PairAnswer(false, false, true, reference.stopReason()));
        assertThat(store.storedPairs(id)).isEqualTo(referencePairs);
        service.finish(second, TESTER, id, new Finish("COMPLETED", null));

        ExperimentRecord done = store.find(id).orElseThrow();
        assertThat(done.status()).isEqualTo(ExperimentStatus.COMPLETED);
        assertThat(done.error()).isNull();
        assertThat(done.stopReason()).isEqualTo(reference.stopReason());
        assertThat(looks.looks(id)).as("the built-in rule's looks").isEqualTo(looks.looks(builtIn));
        assertThat(PairedResults.compare(store.runs(id), List.of(METRIC), store.metricDefinitions(id)))
                .isEqualTo(PairedResults.compare(store.runs(builtIn), List.of(METRIC),
                        store.metricDefinitions(builtIn)));
        assertThat(store.claims(id)).extracting(ExperimentRepository.Claim::outcome)
                .containsExactly("INTERRUPTED", "COMPLETED");
    }

    /**
     * The service's answer told the agent its rule stopped the experiment, and the agent was lost before it posted
     * the end: the experiment waited INTERRUPTED, and resumed, queued, for a host to run nothing. The stop is the
     * experiment's end: it completes as the agent's finish would have made it, with the rule's reason, whether its
     * agent is lost or it is resumed.
     */
    @Test
    void anExperimentItsRuleStoppedCompletesWhenItsAgentIsLostBeforeItsFinishOrWhenResumed() {
        PairedStopping target = new PairedStopping(List.of(SequentialStopping.Target.parse(METRIC + ":2%")),
                Optional.empty());
        long reference = builtInRun(target);
        AgentCoordinator service = coordinator();
        long lost = queued(target);
        long agent = register(service, "lost after the stop");
        assertThat(service.poll(agent, TESTER, Duration.ZERO).orElseThrow().experimentId()).isEqualTo(lost);
        stopByRule(service, agent, lost);

        jdbc.sql("UPDATE agent SET last_heartbeat = ? WHERE id = ?")
                .params(ExperimentRepository.timestamp(agentRepository.databaseNow().minus(Duration.ofHours(3))),
                        agent).update();
        service.watch();

        ExperimentRecord done = store.find(lost).orElseThrow();
        assertThat(done.status()).isEqualTo(ExperimentStatus.COMPLETED);
        assertThat(done.error()).isNull();
        assertThat(done.stopReason()).isEqualTo(store.find(reference).orElseThrow().stopReason());
        assertThat(store.claims(lost)).extracting(ExperimentRepository.Claim::outcome).containsExactly("COMPLETED");
        assertThat(PairedResults.compare(store.runs(lost), List.of(METRIC), store.metricDefinitions(lost)))
                .isEqualTo(PairedResults.compare(store.runs(reference), List.of(METRIC),
                        store.metricDefinitions(reference)));

        // stopped by its rule, then interrupted as before (or cancelled): a resume completes it
        long interrupted = queued(target);
        long other = register(service, "interrupted after the stop");
        assertThat(service.poll(other, TESTER, Duration.ZERO).orElseThrow().experimentId()).isEqualTo(interrupted);
        stopByRule(service, other, interrupted);
        service.finish(other, TESTER, interrupted, new Finish("INTERRUPTED", "the agent was stopped"));
        ExperimentScheduler scheduler = new ExperimentScheduler(store, looks, new ExperimentEvents(),
                Clock.systemUTC(), JvmFlagPolicies.of(false), io.perflab.runner.experiment.MetricsReader.NONE,
                transactions, new TrialLauncher(List.of("-cp", "none", "None")), (runner, plan, pairs, earlier,
                        listener, rule) -> {
                    throw new AssertionError("nothing is left to run");
                });
        assertThat(scheduler.resume(interrupted)).contains(ExperimentStatus.COMPLETED);
        assertThat(store.find(interrupted).orElseThrow().stopReason()).isEqualTo(done.stopReason());
        assertThat(store.find(interrupted).orElseThrow().status()).isEqualTo(ExperimentStatus.COMPLETED);
    }

    /** {@code agent} posts the pairs of experiment {@code id} until the service's answer says its rule stops it. */
    private void stopByRule(AgentCoordinator service, long agent, long id) {
        PairAnswer answer = null;
        for (int i = 0; i < PAIRS && (answer == null || !answer.stop()); i++) {
            answer = service.recordPair(agent, TESTER, id, PostedPair.of(pair(i)));
        }
        assertThat(answer.stop()).as("the rule stops it early").isTrue();
        assertThat(store.storedPairs(id).size()).isLessThan(PAIRS);
    }

    @Test
    void aBudgetCountsTheClaimsTimeAndWhatEarlierClaimsPairsTookAsTheBuiltInRuleDoes() {
        // no change, a target that never settles, and a budget for five pairs of 20 s each
        PairedStopping budget = new PairedStopping(List.of(SequentialStopping.Target.parse(METRIC + ":0.001%")),
                Optional.of(Duration.ofSeconds(100)));
        AgentCoordinator service = coordinator();
        long id = queued(budget);
        long first = register(service, "first");
        service.poll(first, TESTER, Duration.ZERO).orElseThrow();
        List<Long> readings = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            now = now.plusSeconds(20);
            readings.add(nanos(now));
            assertThat(service.recordPair(first, TESTER, id, PostedPair.of(stillNow(i))).stop()).isFalse();
        }
        service.finish(first, TESTER, id, new Finish("INTERRUPTED", null));

        // an hour later, the next claim: the 40 s the first pairs took count, the hour in between does not
        now = now.plus(Duration.ofHours(1));
        long second = register(service, "second");
        service.poll(second, TESTER, Duration.ZERO).orElseThrow();
        long resumedAt = nanos(now);
        PairAnswer answer = null;
        int i = 2;
        while (answer == null || !answer.stop()) {
            now = now.plusSeconds(20);
            answer = service.recordPair(second, TESTER, id, PostedPair.of(stillNow(i++)));
        }
        assertThat(i).as("five pairs fill the budget").isEqualTo(5);
        // the experiment's budget, of which the earlier pairs spent 40 s
        assertThat(answer.stopReason()).startsWith("the time budget of 1 min 40 s would be overrun by another pair "
                + "after 5 pairs");

        // the built-in agent's rule over the same pairs at the same times, in two runs
        List<List<SequentialStopping.Look>> made = new ArrayList<>();
        long[] clock = {nanos(T0)};
        SequentialStopping firstRun = new SequentialStopping(budget.targets(), PAIRS,
                ComparisonOptions.defaults().alpha(), budget.budget(), () -> clock[0], made::add);
        List<PairResult> pairs = new ArrayList<>();
        for (int p = 0; p < 2; p++) {
            pairs.add(still(p));
            clock[0] = readings.get(p);
            firstRun.afterPair(pairs);
        }
        clock[0] = resumedAt;
        SequentialStopping secondRun = new SequentialStopping(budget.targets(), PAIRS,
                ComparisonOptions.defaults().alpha(), budget.budget(), () -> clock[0], made::add)
                .spentBefore(Duration.ofSeconds(40))
                .continuing(made.stream().flatMap(List::stream).map(l -> new SequentialStopping.EarlierLook(
                        l.target().metric(), l.look().look(), l.look().pairs(), 0, 0, 0, 0, l.look().outcome()))
                        .toList(), firstRun.plannedPairs());
        PairStoppingRule.Decision decision = PairStoppingRule.Decision.CONTINUE;
        for (int p = 2; !decision.stop(); p++) {
            pairs.add(still(p));
            clock[0] += Duration.ofSeconds(20).toNanos();
            decision = secondRun.afterPair(pairs);
        }
        assertThat(decision.reason()).isEqualTo(answer.stopReason());
        assertThat(looks.looks(id)).extracting(l -> l.look() + "/" + l.pairs() + "/" + l.plannedPairs() + "/"
                + l.outcome() + "/" + l.t()).containsExactlyElementsOf(made.stream().flatMap(List::stream)
                .map(l -> l.look().look() + "/" + l.look().pairs() + "/"
                        + Math.round(l.look().pairs() / l.look().informationFraction()) + "/" + l.look().outcome()
                        + "/" + l.look().t()).toList());
        assertThat(looks.looks(id)).last().extracting(SequentialLookRepository.LookRecord::outcome)
                .isEqualTo("LAST_LOOK");
    }

    @Test
    void anAgentThatClaimsTheExperimentAgainGoesOnAsAnotherAgentWould() {
        // the budget test's experiment: five pairs of 20 s fill it, two of them run in the first claim
        String anotherAgent = stopAfterTwoClaims(METRIC + ":0.001%", 2, false);
        assertThat(stopAfterTwoClaims(METRIC + ":0.001%", 2, true)).as("the stop of the same agent's second claim")
                .isEqualTo(anotherAgent);
    }

    @Test
    void aRunResumedBeforeTheFirstLookPlansAndStopsAsTheUninterruptedRunDoes() {
        // five pairs of 20 s fill the budget; the first claim runs none, or pair 0 only, before any look
        String uninterrupted = stopAfterTwoClaims(METRIC + ":settled", 0, false);
        assertThat(uninterrupted).startsWith("the time budget of 1 min 40 s would be overrun by another pair after "
                + "5 pairs");
        assertThat(stopAfterTwoClaims(METRIC + ":settled", 1, false)).as("the resumed run's stop")
                .isEqualTo(uninterrupted);
    }

    /**
     * An experiment with {@code target} and a budget of 100 s, run in pairs of 20 s: a first claim posts pairs 0 to
     * {@code inFirst} − 1 and is interrupted (with none, one claim runs it all), then a second, by the same agent or
     * another, posts pairs until the rule stops. Asserts that five pairs fill the budget and that every look planned
     * five; returns the stop reason.
     */
    private String stopAfterTwoClaims(String target, int inFirst, boolean sameAgent) {
        now = T0;
        PairedStopping budget = new PairedStopping(List.of(SequentialStopping.Target.parse(target)),
                Optional.of(Duration.ofSeconds(100)));
        AgentCoordinator service = coordinator();
        long id = queued(budget);
        long agent = register(service, "first");
        service.poll(agent, TESTER, Duration.ZERO).orElseThrow();
        int i = 0;
        if (inFirst > 0) {
            for (; i < inFirst; i++) {
                now = now.plusSeconds(20);
                assertThat(service.recordPair(agent, TESTER, id, PostedPair.of(stillNow(i))).stop()).isFalse();
            }
            service.finish(agent, TESTER, id, new Finish("INTERRUPTED", null));
            now = now.plus(Duration.ofHours(1));
            agent = sameAgent ? agent : register(service, "second");
            assertThat(service.poll(agent, TESTER, Duration.ZERO).orElseThrow().experimentId()).isEqualTo(id);
        }
        PairAnswer answer = null;
        while (i < PAIRS && (answer == null || !answer.stop())) {
            now = now.plusSeconds(20);
            answer = service.recordPair(agent, TESTER, id, PostedPair.of(stillNow(i++)));
        }
        assertThat(i).as("five pairs fill the budget (%s in the first claim, same agent: %s)", inFirst, sameAgent)
                .isEqualTo(5);
        assertThat(looks.looks(id)).as("α spent over five pairs").allSatisfy(l ->
                assertThat(l.plannedPairs()).isEqualTo(5));
        service.finish(agent, TESTER, id, new Finish("COMPLETED", null));
        return answer.stopReason();
    }

    @Test
    void aBuiltInRunKilledRightAfterStoringAPairKeepsThatPairsLooksAndTheStopTheyMade() {
        PairedStopping target = new PairedStopping(List.of(SequentialStopping.Target.parse(METRIC + ":2%")),
                Optional.empty());
        long reference = builtInRun(target);
        List<Integer> referencePairs = store.storedPairs(reference);
        assertThat(referencePairs.size()).isBetween(5, PAIRS - 1);
        int last = referencePairs.get(referencePairs.size() - 1);

        // the server dies once the last pair is stored, before the runner asks the rule about it
        long id = builtInRun(target, (runner, plan, indexes, earlier, listener, rule) ->
                runPairs(runner, plan, indexes, earlier, new PairListener() {
                    @Override
                    public void pairFinished(PairResult pair) {
                        listener.pairFinished(pair);
                        if (pair.index() == last) {
                            throw new IllegalStateException("killed");
                        }
                    }
                }, rule));

        assertThat(store.storedPairs(id)).isEqualTo(referencePairs);
        assertThat(looks.looks(id)).extracting(l -> l.metric() + "/" + l.look() + "/" + l.pairs() + "/"
                + l.outcome()).containsExactlyElementsOf(looks.looks(reference).stream()
                .map(l -> l.metric() + "/" + l.look() + "/" + l.pairs() + "/" + l.outcome()).toList());
        assertThat(store.find(id).orElseThrow().stopReason()).as("the stop the last pair's looks made")
                .isEqualTo(store.find(reference).orElseThrow().stopReason());
    }

    @Test
    void aBuiltInAgentDeclaredLostHeartbeatsAgainOnceItsServiceWakes() {
        AgentCoordinator service = coordinator();
        long builtIn = service.registerBuiltIn(experiment -> { }).agentId();
        // its service stalls past the heartbeat timeout (2 h here), and another instance declares it lost; the
        // heartbeats are stamped, and compared, by the database's clock
        Instant stalled = agentRepository.databaseNow().minus(Duration.ofHours(3));
        jdbc.sql("UPDATE agent SET last_heartbeat = ? WHERE id = ?")
                .params(ExperimentRepository.timestamp(stalled), builtIn).update();
        assertThat(agentRepository.declareLost(builtIn, stalled.plus(Duration.ofHours(1)))).isTrue();

        service.watch();

        AgentRecord after = agentRepository.find(builtIn).orElseThrow();
        assertThat(after.status()).isEqualTo("IDLE");
        assertThat(after.lastHeartbeat()).isAfter(stalled.plus(Duration.ofHours(2)));
        assertThat(after.experimentId()).isNull();
    }

    /** Runs the pairs through the built-in agent (its runner stood in for) until its rule stops; returns the id. */
    private long builtInRun(PairedStopping stopping) {
        return builtInRun(stopping, RemotePairedStoppingTests::runPairs);
    }

    /** As {@link #builtInRun(PairedStopping)}, the pairs run by {@code execution}. */
    private long builtInRun(PairedStopping stopping, PairedExperimentRun.PairExecution execution) {
        long id = StoredExperiments.insert(store, spec(stopping), ExperimentStatus.INTERRUPTED, "tester", T0);
        ExperimentScheduler scheduler = new ExperimentScheduler(store, looks, new ExperimentEvents(),
                Clock.systemUTC(), JvmFlagPolicies.of(false), io.perflab.runner.experiment.MetricsReader.NONE,
                transactions, new TrialLauncher(List.of("-cp", "none", "None")), execution);
        assertThat(scheduler.resume(id)).contains(ExperimentStatus.QUEUED);
        scheduler.runExperiment(id);
        return id;
    }

    /** The runner's loop over pairs, as {@code PairedRuns} runs it, with the pairs made up here. */
    private static PairedOutcome runPairs(io.perflab.runner.experiment.ExperimentRunner runner, ExperimentPlan plan,
                                          Collection<Integer> indexes, List<PairResult> earlier,
                                          PairListener listener, PairStoppingRule rule) {
        List<PairResult> all = new ArrayList<>(earlier);
        List<PairResult> ran = new ArrayList<>();
        for (int index : indexes) {
            PairResult pair = pair(index);
            listener.pairStarted(index, pair.placement());
            pair.results().forEach(listener::windowFinished);
            listener.pairFinished(pair);
            all.add(pair);
            ran.add(pair);
            PairStoppingRule.Decision decision = rule.afterPair(List.copyOf(all));
            if (decision.stop()) {
                return new PairedOutcome(ran, PairedOutcome.Stop.STOPPED_BY_RULE, decision.reason());
            }
        }
        return new PairedOutcome(ran, PairedOutcome.Stop.COMPLETED, "");
    }

    /**
     * Pair {@code index} as an agent posts it: two windows of each variant, 20 s from start to end, the change about
     * −2 % with some noise.
     */
    private static PairResult pair(int index) {
        return pair(index, new double[] {30.0 + index % 3 * 0.2, 30.4},
                new double[] {29.4 + index % 2 * 0.3, 29.8 - 0.05 * (index % 4)});
    }

    /** Pair {@code index} as {@link #pair(int)}, without a change: each window ±0.4 % off the baseline's. */
    private static PairResult still(int index) {
        double off = index % 2 == 0 ? 1.004 : 0.996;
        return pair(index, new double[] {30.0, 30.4}, new double[] {30.0 * off, 30.4 * off});
    }

    /** {@link #still(int)} as an agent posts it: the pair of 20 s that ends now, within the agent's claim. */
    private PairResult stillNow(int index) {
        double off = index % 2 == 0 ? 1.004 : 0.996;
        return pair(index, now.minusSeconds(20), new double[] {30.0, 30.4}, new double[] {30.0 * off, 30.4 * off});
    }

    private static PairResult pair(int index, double[] without, double[] with) {
        return pair(index, T0.plusSeconds(20L * index), without, with);
    }

    private static PairResult pair(int index, Instant start, double[] without, double[] with) {
        List<TrialResult> results = new ArrayList<>();
        for (int j = 0; j < WINDOWS; j++) {
            for (VariantName side : VariantName.values()) {
                double value = side == VariantName.WITH ? with[j] : without[j];
                results.add(new TrialResult(side.label(), (index * WINDOWS + j) * 2 + side.ordinal(), TrialStatus.OK,
                        start.plusSeconds(5L * j), start.plusSeconds(5L * j + 4), 100 + side.ordinal(),
                        Map.of(METRIC, value), Map.of(), null,
                        new PairPosition(index, j, null, 1_000L * j, null, side == VariantName.WITHOUT)));
            }
        }
        return new PairResult(index, TrialStatus.OK, new PairPlacement(null, null, VariantName.WITHOUT), results,
                start, start.plusSeconds(20), Duration.ofSeconds(2), Duration.ofSeconds(18), null);
    }

    private long queued(PairedStopping stopping) {
        return StoredExperiments.insert(store, spec(stopping), ExperimentStatus.QUEUED, "tester", T0);
    }

    private static ExperimentSpec spec(PairedStopping stopping) {
        Workload workload = Workload.DEFAULTS.withRun(Duration.ofMillis(300));
        ExperimentPlan plan = ExperimentPlan.of(
                        EngineVariant.of(EngineOptions.defaults().withOption("completion", "monitor"), workload),
                        EngineVariant.of(EngineOptions.defaults(), workload), PAIRS)
                .withDesign(ExperimentDesign.ALTERNATING, WINDOWS);
        return new ExperimentSpec("paired with a rule", null, ExperimentKind.ENGINE, null, plan, stopping);
    }

    /** Who the agents of these tests send their messages as: the principal that registers them. */
    private static final AgentCoordinator.Caller TESTER = new AgentCoordinator.Caller("tester", false);

    private static long register(AgentCoordinator service, String name) {
        return service.register(new Registration(name, Map.of(), Map.of("host", name), false, null, null), TESTER)
                .agentId();
    }

    private static long nanos(Instant instant) {
        return instant.getEpochSecond() * 1_000_000_000L + instant.getNano();
    }
}
