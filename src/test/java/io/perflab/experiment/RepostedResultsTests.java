package io.perflab.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import io.perflab.experiment.ExperimentRepository.StoredRun;
import io.perflab.rpc.EngineOptions;
import io.perflab.runner.experiment.EngineVariant;
import io.perflab.runner.experiment.ExperimentPlan;
import io.perflab.runner.experiment.PairPlacement;
import io.perflab.runner.experiment.PairResult;
import io.perflab.runner.experiment.VariantName;
import io.perflab.runner.rpcbench.Workload;
import io.perflab.runner.trial.PairPosition;
import io.perflab.runner.trial.ParsedMetric;
import io.perflab.runner.trial.TrialResult;
import io.perflab.runner.trial.TrialStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.flywaydb.core.Flyway;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;
import tools.jackson.databind.json.JsonMapper;

/**
 * A trial or pair an agent posts again as it was is the one stored, whatever its values: {@link RepostedResults}
 * compares the stored row with the posted result as {@link ExperimentRepository#asStored} makes it, so the two must
 * agree on every value the store keeps, or an agent's honest retry is refused 409. Stored on the embedded H2 with
 * Flyway's schema, values as awkward as a result may hold: NaN and infinite metrics (not stored), negative zero,
 * subnormal and extreme doubles, times to the nanosecond, errors longer than their column, NUL characters, empty
 * maps, a pid of -1, no pair or a pair's record without a window, metrics posted again in another order.
 */
class RepostedResultsTests {

    private static SingleConnectionDataSource database;
    private static ExperimentRepository repository;
    private static long experiment;

    @BeforeContainer
    static void migrate() {
        database = new SingleConnectionDataSource("jdbc:h2:mem:reposted-results;DB_CLOSE_DELAY=-1", "sa", "", true);
        Flyway.configure().dataSource(database).load().migrate();
        repository = new ExperimentRepository(JdbcClient.create(database), new JdbcTemplate(database),
                JsonMapper.builder().build());
        ExperimentPlan plan = ExperimentPlan.of(EngineVariant.of(EngineOptions.defaults(), Workload.DEFAULTS),
                EngineVariant.of(EngineOptions.defaults(), Workload.DEFAULTS), 2);
        experiment = StoredExperiments.insert(repository, new ExperimentSpec("reposted", null, ExperimentKind.ENGINE,
                null, plan), ExperimentStatus.RUNNING, "tester", Instant.parse("2026-01-01T00:00:00Z"));
    }

    @AfterContainer
    static void close() {
        database.destroy();
    }

    /** Each try's ordinals and pair indexes: never one stored before, so each try stores its own. */
    private static int next;

    @Property(tries = 300)
    void aTrialPostedAgainAsItWasIsTheOneStored(@ForAll("trials") TrialResult posted) {
        TrialResult trial = at(posted, next++);
        repository.saveRun(experiment, trial);

        StoredRun stored = repository.storedRun(experiment, trial.ordinal()).orElseThrow();

        assertThat(RepostedResults.difference(stored, repository.asStored(trial), "")).isEmpty();
        assertThat(RepostedResults.difference(stored, repository.asStored(reordered(trial)), ""))
                .as("its metrics in another order").isEmpty();
        assertThat(repository.runs(experiment)).filteredOn(run -> run.ordinal() == trial.ordinal())
                .as("as every run of the experiment reads it").containsExactly(stored.run());
    }

    @Property(tries = 200)
    void aTrialPostedAgainWithAnotherStoredValueIsNotTheOneStored(@ForAll("trials") TrialResult posted,
            @ForAll("changes") Change change) {
        TrialResult trial = at(posted, next++);
        repository.saveRun(experiment, trial);
        TrialResult other = change.of(trial);

        StoredRun stored = repository.storedRun(experiment, trial.ordinal()).orElseThrow();

        assertThat(RepostedResults.difference(stored, repository.asStored(other), "")).as(change.name())
                .hasValueSatisfying(difference -> assertThat(difference).startsWith(change.field()));
    }

    @Property(tries = 150)
    void aPairPostedAgainAsItWasIsTheOneStored(@ForAll("pairs") PairResult posted) {
        PairResult pair = at(posted, next++);
        repository.savePair(experiment, pair);

        ExperimentRepository.StoredPair stored = repository.storedPair(experiment, pair.index()).orElseThrow();

        assertThat(RepostedResults.difference(stored, ExperimentRepository.asStored(pair))).isEmpty();
        for (TrialResult window : pair.results()) {
            StoredRun run = repository.storedRun(experiment, window.ordinal()).orElseThrow();
            assertThat(RepostedResults.difference(run, repository.asStored(window), "")).isEmpty();
            assertThat(RepostedResults.difference(run, repository.asStored(reordered(window)), "")).isEmpty();
        }
    }

    @Property(tries = 100)
    void aPairPostedAgainWithAnotherErrorOrTimeIsNotTheOneStored(@ForAll("pairs") PairResult posted) {
        PairResult pair = at(posted, next++);
        int index = pair.index();
        repository.savePair(experiment, pair);
        PairResult otherError = new PairResult(index, pair.status(), pair.placement(), pair.results(), pair.start(),
                pair.end(), pair.setup(), pair.measuring(), pair.error() == null ? "" : null);
        PairResult otherSetup = new PairResult(index, pair.status(), pair.placement(), pair.results(), pair.start(),
                pair.end(), pair.setup().minusSeconds(1), pair.measuring(), pair.error());

        ExperimentRepository.StoredPair stored = repository.storedPair(experiment, index).orElseThrow();

        assertThat(RepostedResults.difference(stored, ExperimentRepository.asStored(otherError)))
                .contains("error is not the one stored");
        assertThat(RepostedResults.difference(stored, ExperimentRepository.asStored(otherSetup)))
                .hasValueSatisfying(difference -> assertThat(difference).startsWith("setupSeconds: "));
    }

    /** {@code trial} at ordinal {@code 1000 + n}, on its side of the plan. */
    private static TrialResult at(TrialResult trial, int n) {
        int ordinal = 1000 + n;
        return new TrialResult(ordinal % 2 == 0 ? "without" : "with", ordinal, trial.status(), trial.start(),
                trial.end(), trial.pid(), trial.metrics(), trial.environment(), trial.error(), trial.pair(),
                trial.parsedMetrics());
    }

    /** {@code pair} as pair {@code 1000 + index}, its records at ordinals of their own, each in the pair. */
    private static PairResult at(PairResult pair, int index) {
        List<TrialResult> results = new ArrayList<>();
        for (int i = 0; i < pair.results().size(); i++) {
            TrialResult window = at(pair.results().get(i), 100_000 + index * 10 + i);
            PairPosition position = window.pair();
            results.add(window.withPair(new PairPosition(1000 + index, position == null ? null : position.window(),
                    position == null ? null : position.cpus(), position == null ? null : position.startNanos(),
                    position == null ? null : position.skewNanos(), position != null && position.startedFirst())));
        }
        return new PairResult(1000 + index, pair.status(), pair.placement(), results, pair.start(), pair.end(),
                pair.setup(), pair.measuring(), pair.error());
    }

    /** {@code trial} with its metrics in reverse order. */
    private static TrialResult reordered(TrialResult trial) {
        List<Map.Entry<String, Double>> entries = new ArrayList<>(trial.metrics().entrySet());
        Collections.reverse(entries);
        Map<String, Double> metrics = new LinkedHashMap<>();
        entries.forEach(entry -> metrics.put(entry.getKey(), entry.getValue()));
        return trial.withMetrics(metrics);
    }

    @Provide
    Arbitrary<TrialResult> trials() {
        Arbitrary<TrialStatus> status = Arbitraries.of(TrialStatus.class);
        Arbitrary<Long> pid = Arbitraries.oneOf(Arbitraries.of(-1L, -2L, 0L, 1L, Long.MAX_VALUE),
                Arbitraries.longs());
        Arbitrary<Map<String, Double>> metrics = Arbitraries.maps(keys(), values()).ofMaxSize(8);
        Arbitrary<Map<String, String>> environment = Arbitraries.maps(text(1, 40), text(0, 60)).ofMaxSize(5);
        Arbitrary<Map<String, ParsedMetric>> parsed = Arbitraries.maps(keys(), parsedMetrics()).ofMaxSize(3);
        return Combinators.combine(status, instants(), instants(), pid, metrics, environment, errors(),
                positions().injectNull(0.4)).flatAs((s, start, end, p, m, env, error, pair) ->
                parsed.map(output -> new TrialResult("without", 0, s, start, end, p, m, env, error, pair, output)));
    }

    @Provide
    Arbitrary<PairResult> pairs() {
        Arbitrary<PairPlacement> placement = Combinators.combine(cpus(), cpus(), Arbitraries.of(VariantName.class))
                .as(PairPlacement::new);
        Arbitrary<Duration> duration = Arbitraries.oneOf(Arbitraries.of(0L, 1L, 999L, 1_000_000_001L, Long.MAX_VALUE),
                Arbitraries.longs().greaterOrEqual(0)).map(Duration::ofNanos);
        return Combinators.combine(Arbitraries.of(TrialStatus.class), placement, trials().list().ofMaxSize(4),
                instants(), instants(), duration, duration, errors())
                .as((status, where, results, start, end, setup, measuring, error) -> new PairResult(0, status, where,
                        results, start, end, setup, measuring, error));
    }

    @Provide
    Arbitrary<Change> changes() {
        return Arbitraries.of(
                new Change("a metric nudged", "metrics.", trial -> {
                    Map<String, Double> metrics = new LinkedHashMap<>(trial.metrics());
                    metrics.put("nudged", Double.valueOf(1.0).equals(metrics.get("nudged")) ? 2.0 : 1.0);
                    return trial.withMetrics(metrics);
                }),
                new Change("another pid", "pid: ", trial -> new TrialResult(trial.variant(), trial.ordinal(),
                        trial.status(), trial.start(), trial.end(), trial.pid() < 0 ? 4242 : -1, trial.metrics(),
                        trial.environment(), trial.error(), trial.pair(), trial.parsedMetrics())),
                new Change("another error", "error ", trial -> new TrialResult(trial.variant(), trial.ordinal(),
                        trial.status(), trial.start(), trial.end(), trial.pid(), trial.metrics(),
                        trial.environment(), trial.error() == null ? "" : null, trial.pair(),
                        trial.parsedMetrics())),
                new Change("another environment", "environment.", trial -> {
                    Map<String, String> environment = new LinkedHashMap<>(trial.environment());
                    environment.merge("host", "x", (was, x) -> was + x);
                    return new TrialResult(trial.variant(), trial.ordinal(), trial.status(), trial.start(),
                            trial.end(), trial.pid(), trial.metrics(), environment, trial.error(), trial.pair(),
                            trial.parsedMetrics());
                }),
                new Change("an end a millisecond later", "end: ", trial -> new TrialResult(trial.variant(),
                        trial.ordinal(), trial.status(), trial.start(),
                        trial.end() == null ? Instant.EPOCH : trial.end().plusMillis(1), trial.pid(),
                        trial.metrics(), trial.environment(), trial.error(), trial.pair(), trial.parsedMetrics())));
    }

    /** A stored value changed by {@code of}, which the difference names from {@code field} on. */
    record Change(String name, String field, java.util.function.UnaryOperator<TrialResult> of) {

        TrialResult of(TrialResult trial) {
            return of.apply(trial);
        }

        @Override
        public String toString() {
            return name;
        }
    }

    /** Metric keys of 1 to 100 characters, a few of them shared so that a map's order varies between tries. */
    private static Arbitrary<String> keys() {
        return Arbitraries.oneOf(Arbitraries.of("cpu_us_per_req", "reqs_per_sec", "a", "Z", "é", "ä_é", "b"),
                text(1, 100));
    }

    private static Arbitrary<Double> values() {
        return Arbitraries.oneOf(
                Arbitraries.of(Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, -0.0, 0.0,
                        Double.MIN_VALUE, -Double.MIN_VALUE, Double.MIN_NORMAL, Double.MAX_VALUE, -Double.MAX_VALUE,
                        1e-310, 0.1, 1.5, 41.7, 1e300),
                Arbitraries.longs().map(Double::longBitsToDouble),
                Arbitraries.doubles());
    }

    private static Arbitrary<ParsedMetric> parsedMetrics() {
        Arbitrary<Double> finite = values().filter(Double::isFinite);
        return Combinators.combine(text(0, 40).injectNull(0.2), Arbitraries.of(true, false),
                finite.list().ofMinSize(1).ofMaxSize(5)).as(ParsedMetric::new);
    }

    /** Times in 1970 to 2199, to the nanosecond, some on a second's last nanoseconds; or none. */
    private static Arbitrary<Instant> instants() {
        Arbitrary<Long> seconds = Arbitraries.longs().between(0, 7_258_118_400L);
        Arbitrary<Integer> nanos = Arbitraries.oneOf(Arbitraries.of(0, 500, 999, 1000, 999_999_499, 999_999_500,
                999_999_999), Arbitraries.integers().between(0, 999_999_999));
        return Combinators.combine(seconds, nanos).as(Instant::ofEpochSecond).injectNull(0.2);
    }

    /** Errors of none to more than their column holds, some cut inside a character, some with NUL. */
    private static Arbitrary<String> errors() {
        Arbitrary<String> long_ = Arbitraries.integers().between(7990, 8010)
                .map(n -> "e".repeat(n - 1) + "\uD83D\uDE00" + "tail\u0000");
        return Arbitraries.oneOf(text(0, 200), long_, Arbitraries.of("", "\u0000", "boom\u0000 at\n\tline"))
                .injectNull(0.3);
    }

    private static Arbitrary<String> cpus() {
        return Arbitraries.oneOf(Arbitraries.of("0", "1", "0-1", "0,2-3"), text(0, 200)).injectNull(0.3);
    }

    private static Arbitrary<PairPosition> positions() {
        return Combinators.combine(Arbitraries.integers().between(0, 999).injectNull(0.3), cpus(),
                Arbitraries.longs().injectNull(0.3), Arbitraries.longs().injectNull(0.3), Arbitraries.of(true, false))
                .as((window, cpus, start, skew, first) -> new PairPosition(0, window, cpus, start, skew, first));
    }

    /** Text of any characters of the Basic Multilingual Plane, NUL and controls too, or ending in an emoji. */
    private static Arbitrary<String> text(int min, int max) {
        Arbitrary<String> withEmoji = plain(Math.max(0, min - 2), max - 2).map(text -> text + "\uD83D\uDE00");
        return Arbitraries.oneOf(plain(min, max), withEmoji);
    }

    private static Arbitrary<String> plain(int min, int max) {
        return Arbitraries.strings().withCharRange('\u0000', '\uD7FF').withCharRange('\uE000', '\uFFFF')
                .ofMinLength(min).ofMaxLength(max);
    }
}
