package io.perflab.experiment;

import io.perflab.runner.experiment.VariantName;
import io.perflab.stats.ComparisonOptions;
import io.perflab.stats.ConstantChange;
import io.perflab.stats.ComparisonResult;
import io.perflab.stats.Direction;
import io.perflab.stats.ExperimentAnalysis;
import io.perflab.stats.MetricInput;
import io.perflab.stats.MetricOutcome;
import io.perflab.stats.Power;
import io.perflab.stats.RelativeChange;
import io.perflab.stats.Sample;
import io.perflab.stats.StatWarning;
import io.perflab.stats.Summary;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.LongFunction;
import java.util.function.Supplier;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * The per-metric comparison of an experiment, computed from its stored samples with Holm's adjustment across
 * its metrics. Results are cached per experiment and data version, so they are recomputed only when runs were
 * added, up to {@value #CACHED_COMPARISONS} metric comparisons in all (about 50 MB; the least recently used
 * experiments' are forgotten first).
 */
@Component
public class ExperimentResults {

    /** The most metric comparisons kept for all experiments together (each about 500 bytes, measured). */
    static final long CACHED_COMPARISONS = 100_000;

    /** Where no uploads are taken: no experiment has a base to be compared with. */
    private static final BaseComparison.Source NO_BASES = id -> Optional.empty();

    private final ExperimentRepository store;
    private final ResultsDigestRepository digests;
    /** An experiment's stored sequential looks, by its id. */
    private final LongFunction<List<SequentialLookRepository.LookRecord>> looks;
    /** An upload's comparison with its base; found when first needed, since the uploads' service needs this one. */
    private final Supplier<BaseComparison.Source> bases;
    private final ComparisonCache cache;

    @Autowired
    ExperimentResults(ExperimentRepository store, ResultsDigestRepository digests, SequentialLookRepository looks,
                      ObjectProvider<BaseComparison.Source> bases) {
        this(store, digests, looks::looks, () -> bases.getIfAvailable(() -> NO_BASES), CACHED_COMPARISONS);
    }

    /** Results of a store that holds no sequential looks: every experiment's as if its length was fixed. */
    ExperimentResults(ExperimentRepository store, ResultsDigestRepository digests) {
        this(store, digests, CACHED_COMPARISONS);
    }

    ExperimentResults(ExperimentRepository store, ResultsDigestRepository digests, long cachedComparisons) {
        this(store, digests, id -> List.of(), () -> NO_BASES, cachedComparisons);
    }

    /** Results whose uploads' comparisons with their bases are made by {@code bases}. */
    ExperimentResults(ExperimentRepository store, ResultsDigestRepository digests, BaseComparison.Source bases) {
        this(store, digests, id -> List.of(), () -> bases, CACHED_COMPARISONS);
    }

    private ExperimentResults(ExperimentRepository store, ResultsDigestRepository digests,
                              LongFunction<List<SequentialLookRepository.LookRecord>> looks,
                              Supplier<BaseComparison.Source> bases, long cachedComparisons) {
        this.store = store;
        this.digests = digests;
        this.looks = looks;
        this.bases = bases;
        this.cache = new ComparisonCache(cachedComparisons);
    }

    /** Headline metrics first (DESIGN's order), then the rest by name. */
    public List<MetricComparison> compare(ExperimentRecord experiment) {
        return compare(experiment, null);
    }

    /**
     * As {@link #compare(ExperimentRecord)} with the experiment's runs already loaded (after {@code experiment}
     * was read), so that a cache miss does not read them again; null to load them when needed.
     */
    public List<MetricComparison> compare(ExperimentRecord experiment, List<RunRecord> runs) {
        Optional<List<MetricComparison>> cached = cache.get(experiment.id(), experiment.dataVersion());
        if (cached.isPresent()) {
            return cached.get();
        }
        // a run with targets: its looks are stored with the pair they follow, so this data version holds them
        SequentialVerdicts sequential = experiment.paired() && !experiment.stopping().targets().isEmpty()
                ? new SequentialVerdicts(looks.apply(experiment.id())) : SequentialVerdicts.NONE;
        List<MetricComparison> comparisons = compute(experiment.id(),
                runs != null ? runs : store.runs(experiment.id()), sequential);
        cache.put(experiment.id(), experiment.dataVersion(), comparisons);
        if (experiment.baseExperimentId() == null) {
            // an upload with a base is digested by its comparison with the base: this one would replace that
            digests.store(experiment.id(), experiment.dataVersion(), ResultsDigest.of(comparisons));
        }
        return comparisons;
    }

    /**
     * What a list shows of the experiment's results: from its comparisons when they are cached, else the digest
     * stored for its data version, else compared now (which stores the digest). For an upload of one side with a
     * base, the digest of its comparison with that base: stored when it came in ({@link #comparedWithBase}), or made
     * again from the runs of both and stored. A stored digest counts only if it is against the base the experiment
     * has now, so one made against a base deleted since (the experiment's base is then null) is computed again, from
     * the experiment's own sides.
     */
    public ResultsDigest digest(ExperimentRecord experiment) {
        return digest(experiment, () -> digests.find(experiment.id(), experiment.dataVersion()));
    }

    /** {@link #digest} of each of {@code experiments} (a list's page) by id, their stored digests read at once. */
    public Map<Long, ResultsDigest> digests(List<ExperimentRecord> experiments) {
        Map<Long, ResultsDigest> stored = digests.findAll(experiments);
        Map<Long, ResultsDigest> all = new HashMap<>();
        for (ExperimentRecord e : experiments) {
            all.put(e.id(), digest(e, () -> Optional.ofNullable(stored.get(e.id()))));
        }
        return all;
    }

    private ResultsDigest digest(ExperimentRecord experiment, Supplier<Optional<ResultsDigest>> stored) {
        Long base = experiment.baseExperimentId();
        if (base == null) {
            Optional<List<MetricComparison>> cached = cache.get(experiment.id(), experiment.dataVersion());
            if (cached.isPresent()) {
                return ResultsDigest.of(cached.get());
            }
        }
        return stored.get()
                .filter(digest -> Objects.equals(digest.baseExperimentId(), base))
                .orElseGet(() -> computeDigest(experiment));
    }

    private ResultsDigest computeDigest(ExperimentRecord experiment) {
        Optional<BaseComparison> base = experiment.baseExperimentId() == null ? Optional.empty()
                : bases.get().of(experiment.id());
        if (base.isEmpty()) {
            ResultsDigest own = ResultsDigest.of(compare(experiment));
            if (experiment.baseExperimentId() != null) {
                // its base was deleted after the experiment was read: compare() left the digest to this
                digests.store(experiment.id(), experiment.dataVersion(), own);
            }
            return own;
        }
        ResultsDigest digest = ResultsDigest.of(base.get());
        digests.store(experiment.id(), experiment.dataVersion(), digest);
        return digest;
    }

    /**
     * Keeps the comparison of upload {@code experiment} with its base, made when it came in, as what lists show of
     * its results, so that no list makes it again.
     */
    public void comparedWithBase(ExperimentRecord experiment, BaseComparison comparison) {
        digests.store(experiment.id(), experiment.dataVersion(), ResultsDigest.of(comparison));
    }

    /** Forgets a deleted experiment. */
    public void evict(long experimentId) {
        cache.remove(experimentId);
    }

    /**
     * Compares {@code runs} (variants {@code with} and {@code without}) without caching, with the metric units and
     * directions of experiment {@code experimentId}. Uploads use it to compare with runs of another experiment.
     */
    public List<MetricComparison> compute(long experimentId, List<RunRecord> stored) {
        return compute(experimentId, stored, SequentialVerdicts.NONE);
    }

    private List<MetricComparison> compute(long experimentId, List<RunRecord> stored, SequentialVerdicts sequential) {
        Optional<String> mixedSplit = CpuSplitSources.mixed(stored);
        List<RunRecord> runs = asCompared(stored);
        Map<String, MetricDefinition> definitions = store.metricDefinitions(experimentId);
        TreeSet<String> keys = new TreeSet<>();
        runs.stream().filter(RunRecord::ok).forEach(r -> keys.addAll(r.metrics().keySet()));
        List<String> ordered = new ArrayList<>(keys);
        ordered.sort(Comparator.comparingInt((String k) -> definitions.containsKey(k)
                ? definitions.get(k).displayOrder() : Integer.MAX_VALUE).thenComparing(k -> k));

        if (PairedResults.paired(runs)) {
            return withSplitWarning(PairedResults.compare(runs, ordered, definitions, sequential), mixedSplit);
        }
        List<MetricInput> inputs = new ArrayList<>();
        for (String key : ordered) {
            MetricDefinition definition = definitions.get(key);
            Direction direction = definition != null && definition.higherIsBetter()
                    ? Direction.HIGHER_IS_BETTER : Direction.LOWER_IS_BETTER;
            inputs.add(new MetricInput(key, direction, sample(runs, VariantName.WITH, key),
                    sample(runs, VariantName.WITHOUT, key)));
        }
        List<MetricOutcome> outcomes = ExperimentAnalysis.analyze(inputs, ComparisonOptions.defaults());
        List<MetricComparison> comparisons = new ArrayList<>();
        for (int i = 0; i < outcomes.size(); i++) {
            MetricInput input = inputs.get(i);
            comparisons.add(view(input, outcomes.get(i), definitions.get(input.name())));
        }
        return withSplitWarning(comparisons, mixedSplit);
    }

    /**
     * {@code stored} as the comparison takes them: where the trials split user and system CPU in different ways,
     * each on the kernel's tick split ({@link CpuSplitSources}). What shows the samples beside the results (plots,
     * R's print-out, a report's embedded samples) shows these, so that it agrees with them.
     */
    public static List<RunRecord> asCompared(List<RunRecord> stored) {
        return CpuSplitSources.mixed(stored).isPresent() ? CpuSplitSources.onTickSplit(stored) : stored;
    }

    /** {@code comparisons} with the warning that their runs mixed CPU-split sources on the split metrics. */
    private static List<MetricComparison> withSplitWarning(List<MetricComparison> comparisons,
                                                           Optional<String> mixedSplit) {
        return comparisons.stream().map(c -> mixedSplit.isPresent() && CpuSplitSources.splitMetric(c.key())
                ? c.withWarning(mixedSplit.get()) : c).toList();
    }

    /** What a metric is, as the results show it. */
    static MetricComparison.Metric metric(String key, Direction direction, MetricDefinition definition) {
        return new MetricComparison.Metric(key, definition == null ? "" : definition.unit(),
                direction.label(),
                definition == null ? "" : definition.description());
    }

    /** The OK runs' values of one metric and variant, with run ordinals for the drift check. */
    private static Sample sample(List<RunRecord> runs, VariantName variant, String key) {
        return Sample.of(runs.stream()
                .filter(r -> r.ok() && r.variant().equals(variant.label()) && r.metrics().containsKey(key))
                .toList(), r -> r.metrics().get(key), RunRecord::ordinal);
    }

    private static MetricComparison view(MetricInput input, MetricOutcome outcome, MetricDefinition definition) {
        MetricComparison.Metric metric = metric(input.name(), input.direction(), definition);
        if (outcome.constant().isPresent()) {
            ConstantChange c = outcome.constant().get();
            Double percent = c.percent().orElse(null);
            return new MetricComparison(metric, new MetricComparison.Groups(c.withoutRuns(), c.withRuns(),
                    c.without(), c.with(), 0.0, 0.0),
                    new MetricComparison.Change(c.difference(), c.difference(), c.difference(), percent, percent,
                            percent),
                    new MetricComparison.Tests(null, null, null, null, null, null, null), c.verdict().label(),
                    c.reason(), List.of(), new MetricComparison.Sensitivity(null, null), null);
        }
        if (outcome.result().isEmpty()) {
            String why = outcome.error().orElse("not comparable");
            return new MetricComparison(metric, new MetricComparison.Groups(input.without().size(),
                    input.with().size(), mean(input.without()), mean(input.with()), null, null),
                    new MetricComparison.Change(null, null, null, null, null, null),
                    new MetricComparison.Tests(null, null, null, null, null, null, null), MetricComparison.NOT_COMPARED,
                    why, List.of(), new MetricComparison.Sensitivity(null, null), outcome.error().orElse(null));
        }
        ComparisonResult r = outcome.result().get();
        Optional<RelativeChange> relative = r.relativeChange();
        Optional<Power> power = r.power();
        return new MetricComparison(metric,
                new MetricComparison.Groups(r.without().n(), r.with().n(), r.without().mean(), r.with().mean(),
                        r.without().sd(), r.with().sd()),
                new MetricComparison.Change(r.welch().difference(), finite(r.welch().ciLow()),
                        finite(r.welch().ciHigh()), relative.map(c -> finite(c.percent())).orElse(null),
                        relative.map(c -> finite(c.ciLowPercent())).orElse(null),
                        relative.map(c -> finite(c.ciHighPercent())).orElse(null)),
                new MetricComparison.Tests(finite(r.welch().t()), finite(r.welch().df()), finite(r.welch().pValue()),
                        finite(r.decision().pValue()), finite(r.mannWhitney().pValue()),
                        finite(r.mannWhitney().estimate()), finite(r.effectSize().cohenD())),
                r.verdict().label(), r.decision().reason(), r.warnings().stream().map(StatWarning::message).toList(),
                new MetricComparison.Sensitivity(power.map(p -> finite(p.minimumDetectableEffectPercent()))
                        .orElse(null), power.map(Power::runsPerVariantForTarget).orElse(null)),
                null);
    }

    /** The sample's mean; none when it is empty or holds a value no analysis takes, which the outcome names. */
    private static Double mean(Sample sample) {
        double[] values = sample.values();
        boolean analysable = java.util.Arrays.stream(values).allMatch(v -> Sample.problem(v) == null);
        return values.length == 0 || !analysable ? null : Summary.of(values, "").mean();
    }

    private static Double finite(double value) {
        return Double.isFinite(value) ? value : null;
    }

    /** Counts of each verdict, for badges. */
    public static Map<String, Long> verdictCounts(List<MetricComparison> comparisons) {
        Map<String, Long> counts = new LinkedHashMap<>();
        comparisons.forEach(c -> counts.merge(c.verdict(), 1L, Long::sum));
        return counts;
    }
}
