package io.perflab.experiment;

import io.perflab.paired.PlacementCheck;
import io.perflab.runner.experiment.ExperimentPlan;
import io.perflab.runner.experiment.VariantName;
import io.perflab.system.ConflictException;
import io.perflab.system.InvalidInputException;
import io.perflab.system.NotAllowedException;
import io.perflab.system.NotFoundException;
import java.time.Clock;
import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import org.springframework.stereotype.Service;

/**
 * What the API and the pages do with experiments, over the store, the scheduler and the statistics.
 *
 * <p>Over 300 lines: it is the one way in for every page, report and API controller, for an experiment's views and
 * its life (create, cancel, resume, re-run, delete), kept in one class so that each rule on who may do what to which
 * experiment is written once.
 */
@Service
public class ExperimentService {

    private final ExperimentRepository store;
    private final ExperimentScheduler scheduler;
    private final ExperimentResults results;
    private final ExperimentValidator validator;
    private final SequentialLookRepository looks;
    private final AgentRepository agents;
    private final AgentProperties agentSettings;
    private final Clock clock;

    ExperimentService(ExperimentRepository store, ExperimentScheduler scheduler, ExperimentResults results,
            ExperimentValidator validator, SequentialLookRepository looks, AgentRepository agents,
            AgentProperties agentSettings, Clock clock) {
        this.store = store;
        this.clock = clock;
        this.agents = agents;
        this.agentSettings = agentSettings;
        this.looks = looks;
        this.scheduler = scheduler;
        this.results = results;
        this.validator = validator;
    }

    /**
     * Validates and queues, as started by {@code caller}; returns the new id. Nothing is stored when validation fails.
     */
    public long create(ExperimentRequest request, ExperimentCaller caller) {
        ExperimentSpec spec = validator.validate(request, caller.admin());
        return scheduler.submit(spec, caller);
    }

    /** The output formats a command experiment may name, if this caller may create one; empty otherwise. */
    public Optional<Set<String>> commandFormats(boolean admin) {
        return validator.commandFormats(admin);
    }

    public ExperimentRecord get(long id) {
        return store.find(id).orElseThrow(() -> new NotFoundException("no experiment with id " + id));
    }

    /**
     * The full view: status, progress, variants, option diff and per-metric results, each with the warning of a
     * loaded host when its first trial recorded one ({@link HostLoadCheck}).
     */
    public ExperimentView view(long id) {
        ExperimentRecord e = get(id);
        List<MetricComparison> comparisons = results.compare(e);
        if (!comparisons.isEmpty() && e.kind() != ExperimentKind.UPLOAD) {
            comparisons = HostLoadCheck.withWarning(comparisons, HostLoadCheck.warning(store.firstTrial(e.id())));
        }
        return view(e, comparisons, agentRuns(e), this::hostGroups, null);
    }

    /**
     * The list entries of {@code records}: each one's view without per-metric results and agents, with the
     * {@link ExperimentView#summary() summary} of its results that a list shows ({@link ExperimentResults#digest}).
     * The live hosts, which a queued or resumable experiment's entry needs, are read once for the whole list, not once
     * per entry.
     */
    public List<ExperimentView> summaries(List<ExperimentRecord> records) {
        return summaries(records, true);
    }

    /** As {@link #summaries(List)}; without the summary of their results unless {@code withResults}. */
    public List<ExperimentView> summaries(List<ExperimentRecord> records, boolean withResults) {
        var hosts = new Object() {
            private List<AgentRepository.HostGroup> read;

            List<AgentRepository.HostGroup> get() {
                if (read == null) {
                    read = hostGroups();
                }
                return read;
            }
        };
        // what each row shows beside its record, read for the whole page at once rather than once a row
        RowReads listed = rowReads(records);
        Map<Long, ResultsDigest> digests = withResults ? results.digests(records) : Map.of();
        return records.stream().map(e -> view(e, List.of(), List.of(), hosts::get, digests.get(e.id()), listed))
                .toList();
    }

    /**
     * What the rows of a list show of its experiments beside their records: the store's {@link
     * ExperimentRepository.ListReads} and the looks of the stopping rules of those of a paired design.
     */
    private record RowReads(ExperimentRepository.ListReads store,
                            Map<Long, List<SequentialLookRepository.LookRecord>> looks) {
    }

    /** The {@link RowReads} of {@code records} (a list's page, or one experiment), read for all of them at once. */
    private RowReads rowReads(List<ExperimentRecord> records) {
        List<Long> paired = records.stream().filter(ExperimentRecord::paired).map(ExperimentRecord::id).toList();
        return new RowReads(store.listReads(records), paired.isEmpty() ? Map.of() : looks.looks(paired));
    }

    /**
     * @param hosts every group of registered hosts, with whether one is live (read only for an experiment that
     *     waits for a claim)
     * @param summary what a list shows of its results; null in other views
     */
    private ExperimentView view(ExperimentRecord e, List<MetricComparison> comparisons,
                                List<ExperimentView.AgentRun> agentRuns,
                                Supplier<List<AgentRepository.HostGroup>> hosts, ResultsDigest summary) {
        return view(e, comparisons, agentRuns, hosts, summary, rowReads(List.of(e)));
    }

    /**
     * @param read what it shows beside its record (runs, pairs, looks, place in the queue …), read with its list's
     *     page or alone
     */
    private ExperimentView view(ExperimentRecord e, List<MetricComparison> comparisons,
                                List<ExperimentView.AgentRun> agentRuns,
                                Supplier<List<AgentRepository.HostGroup>> hosts, ResultsDigest summary,
                                RowReads read) {
        ExperimentRepository.ListReads listed = read.store();
        List<ExperimentRepository.RunTiming> runs = listed.runTimings().getOrDefault(e.id(), List.of());
        int failed = (int) runs.stream().filter(r -> !"OK".equals(r.status()) && !"CANCELLED".equals(r.status()))
                .count();
        int completed = (int) runs.stream().filter(r -> !"CANCELLED".equals(r.status())).count();
        int total = e.totalRuns();
        if (e.kind() == ExperimentKind.UPLOAD) {
            // an upload is stored whole: its runs are what it holds (one side may hold none, or fewer values)
            completed += listed.packedRuns().getOrDefault(e.id(), 0);
            total = completed;
        }
        ExperimentView.Paired paired = null;
        Long eta = TimeLeft.ofTrials(e, runs, completed);
        if (e.paired()) {
            List<ExperimentRepository.RunTiming> pairs = listed.pairTimings().getOrDefault(e.id(), List.of());
            int failedPairs = (int) pairs.stream().filter(p -> !"OK".equals(p.status())).count();
            int perPair = 2 * e.windowsPerPair();
            completed = pairs.size() * perPair;
            failed = failedPairs * perPair;
            eta = TimeLeft.ofPairs(e, pairs, clock.instant());
            paired = new ExperimentView.Paired(e.runsPerVariant(), e.windowsPerPair(), pairs.size(), failedPairs,
                    e.stopping().targetTexts(), e.stopping().budget().map(b -> (int) b.toSeconds()).orElse(null),
                    e.stopReason(), read.looks().getOrDefault(e.id(), List.of()),
                    PlacementCheck.of(listed.pairWindows().getOrDefault(e.id(), List.of())));
        }
        // a claim could take it now (queued, or interrupted with its agent lost): where it stands in the queue of the
        // live hosts that can run it, or why none can
        Optional<ExperimentRepository.QueuePlace> waiting = Optional.ofNullable(listed.queue().get(e.id()));
        List<AgentRepository.HostGroup> hostsNow = waiting.isPresent() ? hosts.get() : List.of();
        Long position = waiting.map(place -> place.position(hostsNow)).orElse(null);
        HostWait hostWait = waiting.flatMap(place -> HostWait.of(place.claimable(), hostsNow)).orElse(null);
        Map<String, VariantRecord> variants = listed.variants().getOrDefault(e.id(), Map.of());
        return new ExperimentView(e.id(), e.name(), e.description(), e.kind().name().toLowerCase(Locale.ROOT),
                e.status().name(), e.preset(), e.benchmark(), position,
                new ExperimentView.Progress(completed, total, failed), eta,
                e.createdAt(), e.startedAt(), e.finishedAt(), e.createdBy(), e.createdByToken(), e.error(),
                new ExperimentView.Plan(e.runsPerVariant(), e.runOrder(), e.seed(), e.trialTimeoutSeconds(),
                        e.maxFailures()),
                listed.workloads().getOrDefault(e.id(), Map.of()),
                variants, optionDiff(variants),
                comparisons, e.design().label(), paired, e.hostLabels().labels(), agentRuns, hostWait, summary);
    }

    /** Every group of registered hosts, live when heard within the heartbeat timeout. */
    private List<AgentRepository.HostGroup> hostGroups() {
        Instant cutoff = agents.databaseNow().minus(agentSettings.heartbeatTimeout());
        return agents.hostGroups(cutoff);
    }

    /** The agents of an experiment: those that claimed it, in order, then any other that stored its trials. */
    private List<ExperimentView.AgentRun> agentRuns(ExperimentRecord e) {
        Map<Long, Integer> trials = store.runsPerAgent(e.id());
        Set<Long> ids = new LinkedHashSet<>();
        store.claims(e.id()).forEach(c -> ids.add(c.agentId()));
        ids.addAll(trials.keySet());
        if (e.agentId() != null) {
            ids.add(e.agentId());
        }
        Map<Long, AgentRecord> known = agents.byIds(ids);
        return ids.stream().filter(known::containsKey).map(known::get)
                .map(a -> new ExperimentView.AgentRun(a.id(), a.name(), a.host(), a.labels().canonical(),
                        a.environment().getOrDefault("cpu_model", ""), trials.getOrDefault(a.id(), 0),
                        e.status() == ExperimentStatus.RUNNING && Long.valueOf(a.id()).equals(e.agentId())))
                .toList();
    }

    /**
     * Every setting whose value differs between the variants — engine options, JVM flags, a command experiment's
     * command, metrics format, working directory and environment: name → {without: …, with: …}.
     */
    static Map<String, Map<String, String>> optionDiff(Map<String, VariantRecord> variants) {
        VariantRecord without = variants.get(VariantName.WITHOUT.label());
        VariantRecord with = variants.get(VariantName.WITH.label());
        Map<String, Map<String, String>> diff = new LinkedHashMap<>();
        if (without == null || with == null) {
            return diff;
        }
        Set<String> names = new LinkedHashSet<>(without.options().keySet());
        names.addAll(with.options().keySet());
        for (String name : names) {
            String a = without.options().get(name);
            String b = with.options().get(name);
            if (!Objects.equals(a, b)) {
                diff.put(name, pair(a, b));
            }
        }
        if (!without.jvmArgs().equals(with.jvmArgs())) {
            diff.put("jvmArgs", Map.of(VariantName.WITHOUT.label(), String.join(" ", without.jvmArgs()),
                    VariantName.WITH.label(), String.join(" ", with.jvmArgs())));
        }
        if (!Objects.equals(without.command(), with.command())) {
            diff.put("command", pair(without.command(), with.command()));
        }
        if (!Objects.equals(without.metricsFormat(), with.metricsFormat())) {
            diff.put("metricsFormat", pair(without.metricsFormat(), with.metricsFormat()));
        }
        if (!Objects.equals(without.directory(), with.directory())) {
            diff.put("directory", pair(without.directory(), with.directory()));
        }
        if (!Objects.equals(without.environment(), with.environment())) {
            diff.put("environment", pair(assignments(without.environment()), assignments(with.environment())));
        }
        return diff;
    }

    /** {@code without} → a, {@code with} → b; either may be null. */
    private static Map<String, String> pair(String a, String b) {
        Map<String, String> pair = new LinkedHashMap<>();
        pair.put(VariantName.WITHOUT.label(), a);
        pair.put(VariantName.WITH.label(), b);
        return pair;
    }

    /** {@code NAME=value NAME=value}, as a shell would take them. */
    static String assignments(Map<String, String> environment) {
        return environment.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                .collect(java.util.stream.Collectors.joining(" "));
    }

    public List<ExperimentRecord> list(ExperimentFilter filter, int page, int size) {
        return store.list(filter, (long) page * size, size);
    }

    public long count(ExperimentFilter filter) {
        return store.count(filter);
    }

    public List<RunRecord> runs(long id) {
        get(id);
        return store.runs(id);
    }

    /** Every sample of the experiment, as {@link ExperimentRepository#forEachSample} hands them out. */
    public void forEachSample(long id, ExperimentRepository.SampleSink sink) {
        store.forEachSample(id, sink);
    }

    /** Every run with the samples of {@code metrics} only: what a page that shows a few metrics needs. */
    public List<RunRecord> runs(long id, Collection<String> metrics) {
        get(id);
        return store.runs(id, metrics);
    }

    /** The failed pairs of a paired experiment, one each; none for the fresh design. */
    public List<FailedPair> failedPairs(long id) {
        return store.failedPairs(id);
    }

    /** What an uploaded experiment's benchmark tool said besides its samples; nothing for other experiments. */
    public UploadDetails uploadDetails(long id) {
        return store.uploadDetails(id);
    }

    public Map<String, MetricDefinition> metricDefinitions(long id) {
        return store.metricDefinitions(id);
    }

    /**
     * Cancels a queued or running experiment, or an interrupted one that an agent would resume on its own; only whoever
     * started it or an administrator may ({@link #checkStartedBy}).
     */
    public void cancel(long id, ExperimentCaller caller) {
        ExperimentRecord e = get(id);
        checkStartedBy(e, caller, "cancel");
        boolean cancellable = !e.status().finished() || e.status() == ExperimentStatus.INTERRUPTED;
        if (!cancellable || !scheduler.cancel(id)) {
            throw new ConflictException("experiment " + id + " is " + statusNow(e) + "; only QUEUED or RUNNING "
                    + "experiments, "
                    + "and INTERRUPTED ones an agent would resume on its own, can be cancelled");
        }
    }

    /**
     * Queues a stopped experiment again. What it runs is checked as a re-run of it would be: a command experiment's
     * commands, or JVM flags beyond the allow-list, run again only for a caller who may queue them anew; and only
     * whoever started it or an administrator may resume it ({@link #checkStartedBy}).
     *
     * @return QUEUED, or COMPLETED or FAILED for an experiment that had nothing left to run
     *     ({@link ExperimentScheduler#resume})
     */
    public ExperimentStatus resume(long id, ExperimentCaller caller) {
        ExperimentRecord e = get(id);
        checkStartedBy(e, caller, "resume");
        if (e.kind() != ExperimentKind.UPLOAD) {
            validator.checkRerun(e.kind(), store.plan(e), e.hostLabels(), caller.admin());
        }
        return scheduler.resume(id).orElseThrow(() -> new ConflictException("experiment " + id + " is "
                + statusNow(e) + "; only INTERRUPTED, CANCELLED or FAILED experiments can be resumed"));
    }

    /**
     * Queues a new experiment with the same variants, workload and plan; returns its id. The caller must be allowed
     * to create it: a re-run is a new experiment, so a command experiment needs an administrator on a server that
     * runs them, and JVM flags beyond the allow-list an administrator on a server that allows them, as when created.
     * Only whoever started it or an administrator may re-run it ({@link #checkStartedBy}); the copy is the caller's.
     */
    public long rerun(long id, ExperimentCaller caller) {
        ExperimentRecord e = get(id);
        checkStartedBy(e, caller, "re-run");
        if (e.kind() == ExperimentKind.UPLOAD) {
            throw new ConflictException("experiment " + id + " holds uploaded samples; PerfLab cannot run it again");
        }
        ExperimentPlan plan = store.plan(e);
        validator.checkRerun(e.kind(), plan, e.hostLabels(), caller.admin());
        ExperimentSpec spec = new ExperimentSpec(e.name(), e.description(), e.kind(), e.preset(), plan,
                e.stopping(), e.hostLabels());
        return scheduler.submit(spec, caller);
    }

    /** Refuses (403) a caller who does not {@link ExperimentCaller#controls control} {@code e}. */
    private static void checkStartedBy(ExperimentRecord e, ExperimentCaller caller, String action) {
        if (caller.controls(e.createdBy(), e.createdByToken())) {
            return;
        }
        throw new NotStarterException(e.createdBy() == null
                ? "experiment " + e.id() + " does not record who started it; only an administrator may " + action
                        + " it"
                : "experiment " + e.id() + " was started by someone else; only they or an administrator may "
                        + action + " it");
    }

    /**
     * A caller refused for not having started the experiment: the pages answer it 403, where a refusal of what it
     * would run (a command, a JVM flag) is said on the experiment's page.
     */
    static final class NotStarterException extends NotAllowedException {

        NotStarterException(String message) {
            super(message);
        }
    }

    /**
     * Why this caller may not run experiment {@code id} again, by {@link #rerun} or {@link #resume}, if they may
     * not: the refusal either would give, so that a page can say it beside buttons it disables. Empty for an upload,
     * which never runs.
     */
    public Optional<String> runAgainRefusal(long id, boolean admin) {
        ExperimentRecord e = get(id);
        if (e.kind() == ExperimentKind.UPLOAD) {
            return Optional.empty();
        }
        try {
            validator.checkRerun(e.kind(), store.plan(e), e.hostLabels(), admin);
            return Optional.empty();
        } catch (NotAllowedException | InvalidInputException refused) {
            return Optional.of(refused.getMessage());
        }
    }

    /** {@code e}'s status as stored now, for a refusal: an agent or another instance may have moved it since. */
    private ExperimentStatus statusNow(ExperimentRecord e) {
        return store.find(e.id()).map(ExperimentRecord::status).orElse(e.status());
    }

    /** The experiment running on this host now, if any. */
    public Optional<ExperimentView> running() {
        return scheduler.runningExperiment().flatMap(store::find)
                .map(e -> view(e, List.of(), List.of(), this::hostGroups, null));
    }

    public void delete(long id) {
        ExperimentRecord e = get(id);
        if (!e.status().finished()) {
            throw new ConflictException("experiment " + id + " is " + e.status() + "; cancel it before deleting it");
        }
        if (!store.delete(id) && store.find(id).isPresent()) {
            throw new ConflictException("experiment " + id + " is " + statusNow(e) + "; cancel it before deleting it");
        }
        results.evict(id);
    }
}
