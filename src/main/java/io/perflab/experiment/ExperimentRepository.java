package io.perflab.experiment;

import io.perflab.agent.AgentProtocol.AssignedVariant;
import io.perflab.agent.AgentProtocol.Assignment;
import io.perflab.agent.HostLabels;
import io.perflab.paired.PlacementCheck;
import io.perflab.paired.SequentialStopping;
import io.perflab.runner.experiment.CommandVariant;
import io.perflab.runner.experiment.EngineVariant;
import io.perflab.runner.experiment.ExperimentDesign;
import io.perflab.runner.experiment.ExperimentPlan;
import io.perflab.runner.experiment.PairPlacement;
import io.perflab.runner.experiment.PairResult;
import io.perflab.runner.experiment.Variant;
import io.perflab.runner.experiment.VariantName;
import io.perflab.runner.json.RunnerJson;
import io.perflab.runner.rpcbench.Workload;
import io.perflab.runner.rpcbench.WorkloadSettings;
import io.perflab.runner.trial.PairPosition;
import io.perflab.runner.trial.TrialResult;
import io.perflab.runner.trial.TrialStatus;
import io.perflab.system.SqlPatterns;
import io.perflab.system.Texts;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.support.GeneratedKeyHolder;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.annotation.Transactional;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * The experiment aggregate in the database: experiments with their variants, runs, samples and per-experiment
 * metric units, the metric catalog they refer to, and the queue the agents claim from, with the claims (tables of
 * {@code V2__experiments.sql}, {@code V3__uploads_and_tokens.sql} and {@code V10__agents.sql}). Engine, command
 * and uploaded experiments are all written here and nowhere else. Over 300 lines because the aggregate's reads and
 * writes belong together.
 */
@Repository
public class ExperimentRepository {

    private static final Logger log = LoggerFactory.getLogger(ExperimentRepository.class);

    private static final String EXPERIMENT_COLUMNS = "id, name, description, kind, status, preset, benchmark, "
            + "runs_per_variant, run_order, seed, trial_timeout_seconds, max_failures, created_by, created_by_token, "
            + "created_at, started_at, finished_at, data_version, error, design, windows_per_pair, targets, "
            + "budget_seconds, stop_reason, host_labels, agent_id, base_experiment_id";

    /** The columns of a {@code trial_run} row that {@link #run} reads into a {@link RunRecord}. */
    private static final String RUN_COLUMNS = "id, variant, ordinal, status, started_at, finished_at, pid, "
            + "environment, error, pair_index, window_index, cpu_set, start_nanos, skew_nanos, started_first";

    /** The size of {@code trial_run.output_values}. */
    private static final int OUTPUT_VALUES_CHARS = 1_000_000;

    /** The size of {@code trial_run.error} and {@code experiment_pair.error}: a longer error is cut. */
    private static final int ERROR_CHARS = 8000;

    private final JdbcClient jdbc;
    private final JdbcTemplate jdbcTemplate;
    private final JsonMapper json;

    ExperimentRepository(JdbcClient jdbc, JdbcTemplate jdbcTemplate, JsonMapper json) {
        this.jdbc = jdbc;
        this.jdbcTemplate = jdbcTemplate;
        this.json = json;
    }

    /**
     * Stores a new experiment in status {@code status} with its two variants; returns its id.
     *
     * @param createdBy who starts it ({@link ExperimentRecord#createdBy})
     * @param createdByToken the stored API token that starts it ({@link ExperimentRecord#createdByToken}), or null
     */
    @Transactional
    public long insert(ExperimentSpec spec, ExperimentStatus status, String createdBy, Long createdByToken,
            Instant now) {
        ExperimentPlan plan = spec.plan();
        String workload = plan.without() instanceof EngineVariant engine
                ? RunnerJson.mapper().writeValueAsString(engine.workload()) : null;
        GeneratedKeyHolder keys = new GeneratedKeyHolder();
        jdbc.sql("""
                INSERT INTO experiment (name, name_folded, description, kind, status, preset, runs_per_variant,
                    run_order, seed, trial_timeout_seconds, max_failures, workload, created_by, created_by_token,
                    created_at, data_version, design, windows_per_pair, targets, budget_seconds, host_labels)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?)""")
                .params(spec.name(), SqlPatterns.caseFolded(spec.name()), spec.description(), spec.kind().name(),
                        status.name(), spec.preset(), plan.runsPerVariant(), plan.order().label(), plan.seed(),
                        (int) Math.min(Integer.MAX_VALUE, plan.trialTimeout().toSeconds()), plan.maxFailures(),
                        workload, createdBy, createdByToken, timestamp(now), plan.design().label(),
                        plan.design().paired() ? plan.windowsPerPair() : null,
                        spec.stopping().targets().isEmpty() ? null
                                : json.writeValueAsString(spec.stopping().targetTexts()),
                        spec.stopping().budget().map(b -> (int) Math.min(Integer.MAX_VALUE, b.toSeconds()))
                                .orElse(null),
                        spec.hostLabels().isEmpty() ? null : spec.hostLabels().canonical())
                .update(keys, "id");
        long id = keys.getKey().longValue();
        insertVariant(id, VariantName.WITHOUT, plan.without());
        insertVariant(id, VariantName.WITH, plan.with());
        return id;
    }

    private void insertVariant(long experimentId, VariantName name, Variant variant) {
        String options = null;
        String jvmArgs = null;
        String command = null;
        String metricsFormat = null;
        String directory = null;
        String environment = null;
        if (variant instanceof EngineVariant engine) {
            options = RunnerJson.mapper().writeValueAsString(engine.engineOptions());
            jvmArgs = json.writeValueAsString(engine.jvmArgs());
        } else if (variant instanceof CommandVariant cmd) {
            command = cmd.command();
            metricsFormat = cmd.metricsFormat().orElse(null);
            directory = cmd.directory().map(Path::toString).orElse(null);
            environment = cmd.environment().isEmpty() ? null : json.writeValueAsString(cmd.environment());
        }
        jdbc.sql("""
                INSERT INTO variant (experiment_id, name, options, jvm_args, command, metrics_format, directory,
                    environment)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)""")
                .params(experimentId, name.label(), options, jvmArgs, command, metricsFormat, directory, environment)
                .update();
    }

    /**
     * Stores a recorded experiment — its row, both variants, its metrics' units, and its samples packed per side and
     * metric ({@link SampleSeries}) — with multi-row statements of {@value #ROWS_PER_INSERT} rows (callers hold the
     * transaction); returns its id and its runs. Its runs have no rows of their own: a run of a recorded experiment is
     * a position in its values, so run {@code i} of a side is read back from the {@code i}-th value of each of the
     * side's series.
     *
     * @throws IllegalArgumentException if a side's runs are not consecutive ordinals, or a run has no samples
     */
    public Recorded insert(RecordedExperiment e) {
        checkPositions(e.runs());
        SourceRevision git = e.revision();
        GeneratedKeyHolder keys = new GeneratedKeyHolder();
        OffsetDateTime now = timestamp(e.createdAt());
        jdbc.sql("""
                INSERT INTO experiment (name, name_folded, kind, status, benchmark, benchmark_folded,
                    runs_per_variant, run_order, seed, trial_timeout_seconds, max_failures, created_by,
                    created_by_token, created_at, started_at, finished_at, data_version, git_repository, git_branch,
                    git_commit, git_base_commit, git_pull_request, commit_time, machine, tags)
                VALUES (?, ?, 'UPLOAD', 'COMPLETED', ?, ?, ?, 'blocked', 0, 0, 0, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?,
                    ?, ?)""")
                .params(e.name(), SqlPatterns.caseFolded(e.name()), e.benchmark(),
                        SqlPatterns.caseFolded(e.benchmark()), e.runsPerVariant(), e.createdBy(), e.createdByToken(),
                        now, now, now,
                        git.repository(), git.branch(), git.commit(), git.baseCommit(), git.pullRequest(),
                        timestamp(git.commitTime()),
                        e.machine().isEmpty() ? null : json.writeValueAsString(e.machine()),
                        e.tags().isEmpty() ? null : json.writeValueAsString(e.tags()))
                .update(keys, "id");
        long id = keys.getKey().longValue();
        for (VariantName side : VariantName.values()) {
            jdbc.sql("INSERT INTO variant (experiment_id, name, label) VALUES (?, ?, ?)")
                    .params(id, side.label(), e.labels().get(side))
                    .update();
        }
        insertUploadDetails(id, e);
        List<Object[]> metricRows = new ArrayList<>();
        e.metrics().forEach((key, m) -> metricRows.add(new Object[] {id, key, m.unit(),
                m.higherIsBetter() ? "HIGHER" : "LOWER"}));
        insertRows("experiment_metric (experiment_id, metric_key, unit, direction)", 4, metricRows);
        List<RunRecord> stored = new ArrayList<>();
        for (RecordedExperiment.Run run : e.runs()) {
            stored.add(packedRun(run.variant().label(), run.ordinal(), run.samples()));
        }
        List<Object[]> seriesRows = new ArrayList<>();
        for (SampleSeries series : SampleSeries.pack(e.runs())) {
            seriesRows.add(new Object[] {id, series.variant(), series.metric(), series.block(), series.firstOrdinal(),
                    series.values().length, series.text()});
        }
        insertRows("sample_series (experiment_id, variant, metric_key, block, first_ordinal, value_count, "
                + "sample_values)", 7, seriesRows);
        return new Recorded(id, List.copyOf(stored));
    }

    /** Each side's runs must be consecutive ordinals, each with samples: what a packed experiment can read back. */
    private static void checkPositions(List<RecordedExperiment.Run> runs) {
        Map<VariantName, Integer> next = new HashMap<>();
        for (RecordedExperiment.Run run : runs) {
            Integer expected = next.get(run.variant());
            if ((expected != null && run.ordinal() != expected) || run.samples().isEmpty()) {
                throw new IllegalArgumentException("A recorded experiment's runs of a side are consecutive ordinals "
                        + "with samples; run " + run.ordinal() + " of '" + run.variant().label() + "' is not");
            }
            next.put(run.variant(), run.ordinal() + 1);
        }
    }

    /** A run of a recorded (uploaded) experiment, which has no row of its own: id 0, no times. */
    private static RunRecord packedRun(String variant, int ordinal, Map<String, Double> samples) {
        return new RunRecord(0, variant, ordinal, "OK", null, null, null, Map.of(), null, samples, null);
    }

    /** Rows per multi-row INSERT: one statement per 500 rows is what makes large uploads fast on H2 and PostgreSQL. */
    private static final int ROWS_PER_INSERT = 500;

    /**
     * Inserts {@code rows} into {@code table (columns…)} with multi-row {@code INSERT … VALUES (…), (…)} statements:
     * a JDBC batch still sends one statement per row to H2, and one per row to PostgreSQL unless its driver
     * rewrites batches.
     */
    private void insertRows(String tableAndColumns, int columns, List<Object[]> rows) {
        String one = "(" + String.join(", ", java.util.Collections.nCopies(columns, "?")) + ")";
        for (int from = 0; from < rows.size(); from += ROWS_PER_INSERT) {
            List<Object[]> chunk = rows.subList(from, Math.min(rows.size(), from + ROWS_PER_INSERT));
            List<Object> params = new ArrayList<>(chunk.size() * columns);
            chunk.forEach(row -> params.addAll(java.util.Arrays.asList(row)));
            jdbc.sql("INSERT INTO " + tableAndColumns + " VALUES "
                    + String.join(", ", java.util.Collections.nCopies(chunk.size(), one)))
                    .params(params).update();
        }
    }

    /** Warnings longer than this are cut: they are sentences for people, not logs. */
    private static final int MAX_WARNING_LENGTH = 1000;

    /**
     * Stores what a recorded experiment's source said besides its samples (V6): its warnings, cut to fit their
     * column with a last one that says how many were left out, and each side's configuration, as far as it fits.
     */
    private void insertUploadDetails(long id, RecordedExperiment e) {
        if (!e.warnings().isEmpty()) {
            List<String> kept = new ArrayList<>();
            for (String warning : e.warnings()) {
                kept.add(Texts.cut(warning, MAX_WARNING_LENGTH));
                if (json.writeValueAsString(kept).length() > 15_000) {
                    kept.set(kept.size() - 1, (e.warnings().size() - kept.size() + 1) + " more warnings left out");
                    break;
                }
            }
            jdbc.sql("UPDATE experiment SET upload_warnings = ? WHERE id = ?")
                    .params(json.writeValueAsString(kept), id).update();
        }
        e.configurations().forEach((side, settings) -> {
            Map<String, String> kept = new LinkedHashMap<>();
            for (Map.Entry<String, String> setting : settings.entrySet()) {
                kept.put(setting.getKey(), Texts.cut(setting.getValue(), 200));
                if (json.writeValueAsString(kept).length() > 4000) {
                    kept.remove(setting.getKey());
                    break;
                }
            }
            if (!kept.isEmpty()) {
                jdbc.sql("UPDATE variant SET configuration = ? WHERE experiment_id = ? AND name = ?")
                        .params(json.writeValueAsString(kept), id, side.label()).update();
            }
        });
    }

    /** What an uploaded experiment's source said besides its samples; {@link UploadDetails#NONE} for others. */
    public UploadDetails uploadDetails(long experimentId) {
        Map<String, String> machine = new LinkedHashMap<>();
        List<String> warnings = new ArrayList<>();
        jdbc.sql("SELECT machine, upload_warnings FROM experiment WHERE id = ?").param(experimentId)
                .query((ResultSet rs) -> {
                    String machineJson = rs.getString(1);
                    if (machineJson != null) {
                        json.readValue(machineJson, new TypeReference<Map<String, Object>>() { })
                                .forEach((key, value) -> machine.put(key, value instanceof String text ? text
                                        : json.writeValueAsString(value)));
                    }
                    String warningsJson = rs.getString(2);
                    if (warningsJson != null) {
                        warnings.addAll(json.readValue(warningsJson, new TypeReference<List<String>>() { }));
                    }
                });
        Map<String, Map<String, String>> configuration = new LinkedHashMap<>();
        jdbc.sql("SELECT name, configuration FROM variant WHERE experiment_id = ? AND configuration IS NOT NULL "
                        + "ORDER BY name DESC")
                .param(experimentId)
                .query((ResultSet rs) -> {
                    configuration.put(rs.getString(1), json.readValue(rs.getString(2),
                            new TypeReference<LinkedHashMap<String, String>>() { }));
                });
        return new UploadDetails(machine, warnings, configuration);
    }

    /**
     * Every run of an experiment in plan order, with the samples of {@code metrics} only: what a page that shows a
     * few of an experiment's metrics needs, without reading every sample of a large upload.
     */
    public List<RunRecord> runs(long experimentId, Collection<String> metrics) {
        Map<Long, Map<String, Double>> samples = new HashMap<>();
        Map<Integer, Map<String, Double>> packed = new HashMap<>();
        if (!metrics.isEmpty()) {
            List<Object> params = new ArrayList<>();
            params.add(experimentId);
            params.addAll(metrics);
            String keys = String.join(", ", Collections.nCopies(metrics.size(), "?"));
            jdbc.sql("SELECT s.run_id, s.metric_key, s.metric_value FROM sample s JOIN trial_run r ON r.id = s.run_id "
                            + "WHERE r.experiment_id = ? AND s.metric_key IN (" + keys + ")")
                    .params(params)
                    .query((ResultSet rs) -> {
                        samples.computeIfAbsent(rs.getLong(1), k -> new LinkedHashMap<>())
                                .put(rs.getString(2), rs.getDouble(3));
                    });
            readSeries("experiment_id = ? AND metric_key IN (" + keys + ")", params, packed);
        }
        return runs(experimentId, samples, packed);
    }

    /**
     * Adds the packed samples of the {@code sample_series} rows {@code where} selects to {@code byOrdinal} (run
     * ordinal → metric → value), metrics in key order.
     */
    private void readSeries(String where, List<Object> params, Map<Integer, Map<String, Double>> byOrdinal) {
        jdbc.sql("SELECT metric_key, first_ordinal, value_count, sample_values FROM sample_series WHERE " + where
                        + " ORDER BY metric_key, variant, block")
                .params(params)
                .query((ResultSet rs) -> {
                    String key = rs.getString(1);
                    int first = rs.getInt(2);
                    double[] values = SampleSeries.values(rs.getString(4), rs.getInt(3));
                    for (int i = 0; i < values.length; i++) {
                        byOrdinal.computeIfAbsent(first + i, k -> new LinkedHashMap<>()).put(key, values[i]);
                    }
                });
    }

    /** A recorded experiment as stored: its id and its runs, which have no rows of their own (id 0). */
    public record Recorded(long id, List<RunRecord> runs) {
    }

    public Optional<ExperimentRecord> find(long id) {
        return jdbc.sql("SELECT " + EXPERIMENT_COLUMNS + " FROM experiment WHERE id = ?")
                .param(id)
                .query(this::experiment)
                .optional();
    }

    /** One page of the experiments {@code filter} selects, newest first unless it says otherwise. */
    public List<ExperimentRecord> list(ExperimentFilter filter, long offset, int limit) {
        StringBuilder sql = new StringBuilder("SELECT " + EXPERIMENT_COLUMNS + " FROM experiment WHERE 1 = 1");
        List<Object> params = new ArrayList<>();
        appendFilters(sql, params, filter);
        sql.append(filter.oldestFirst() ? " ORDER BY created_at, id" : " ORDER BY created_at DESC, id DESC");
        sql.append(" OFFSET ? ROWS FETCH NEXT ? ROWS ONLY");
        params.add(offset);
        params.add(limit);
        return jdbc.sql(sql.toString()).params(params).query(this::experiment).list();
    }

    public long count(ExperimentFilter filter) {
        StringBuilder sql = new StringBuilder("SELECT COUNT(*) FROM experiment WHERE 1 = 1");
        List<Object> params = new ArrayList<>();
        appendFilters(sql, params, filter);
        return jdbc.sql(sql.toString()).params(params).query(Long.class).single();
    }

    private static void appendFilters(StringBuilder sql, List<Object> params, ExperimentFilter filter) {
        if (filter.status() != null) {
            sql.append(" AND status = ?");
            params.add(filter.status().name());
        }
        if (filter.kind() != null) {
            sql.append(" AND kind = ?");
            params.add(filter.kind().name());
        }
        String benchmarkContains = filter.benchmarkContains();
        if (benchmarkContains != null && !benchmarkContains.isBlank()) {
            sql.append(" AND benchmark_folded LIKE ? ESCAPE '\\'");
            params.add(SqlPatterns.contains(SqlPatterns.caseFolded(benchmarkContains)));
        }
        String nameContains = filter.nameContains();
        if (nameContains != null && !nameContains.isBlank()) {
            sql.append(" AND name_folded LIKE ? ESCAPE '\\'");
            params.add(SqlPatterns.contains(SqlPatterns.caseFolded(nameContains)));
        }
    }

    /** The plan of a stored engine or command experiment, as the runner needs it to run (or resume) it. */
    public ExperimentPlan plan(ExperimentRecord experiment) {
        return assignment(experiment, false).toPlan();
    }

    /**
     * A stored engine or command experiment as an agent runs it: its plan as stored and, in the fresh design, the
     * trials it still misses. The built-in agent and remote ones run the same {@link Assignment#toPlan()}.
     */
    public Assignment assignment(ExperimentRecord experiment) {
        return assignment(experiment, true);
    }

    private Assignment assignment(ExperimentRecord experiment, boolean pending) {
        Map<String, AssignedVariant> variants = new LinkedHashMap<>();
        jdbc.sql("SELECT name, options, jvm_args, command, metrics_format, directory, environment FROM variant "
                        + "WHERE experiment_id = ?")
                .param(experiment.id())
                .query((ResultSet rs) -> {
                    String command = rs.getString("command");
                    String jvmArgs = rs.getString("jvm_args");
                    variants.put(rs.getString("name"), new AssignedVariant(
                            command == null ? stringMap(rs.getString("options")) : null,
                            command != null || jvmArgs == null ? null
                                    : json.readValue(jvmArgs, new TypeReference<List<String>>() { }),
                            command, rs.getString("metrics_format"), rs.getString("directory"),
                            command == null ? null : stringMap(rs.getString("environment"))));
                });
        String workloadJson = jdbc.sql("SELECT workload FROM experiment WHERE id = ?").param(experiment.id())
                .query(String.class).optional().orElse(null);
        Assignment stored = new Assignment(experiment.id(), experiment.name(), experiment.kind().name(),
                experiment.design().label(), experiment.runsPerVariant(), experiment.runOrder(), experiment.seed(),
                experiment.trialTimeoutSeconds(), experiment.maxFailures(), experiment.windowsPerPair(),
                workloadJson, variants.get(VariantName.WITHOUT.label()), variants.get(VariantName.WITH.label()),
                List.of(), List.of());
        if (!pending) {
            return stored;
        }
        if (experiment.paired()) {
            java.util.Set<Integer> missing = new java.util.TreeSet<>();
            for (int pair = 0; pair < experiment.runsPerVariant(); pair++) {
                missing.add(pair);
            }
            missing.removeAll(storedPairs(experiment.id()));
            if (experiment.stopReason() != null) {
                missing.clear(); // its stopping rule stopped it: no pair is pending any more
            }
            return new Assignment(stored.experimentId(), stored.name(), stored.kind(), stored.design(),
                    stored.runsPerVariant(), stored.order(), stored.seed(), stored.trialTimeoutSeconds(),
                    stored.maxFailures(), stored.windowsPerPair(), stored.workload(), stored.without(), stored.with(),
                    List.of(), List.copyOf(missing));
        }
        java.util.Set<Integer> missing = new java.util.TreeSet<>();
        stored.toPlan().trials().forEach(t -> missing.add(t.ordinal()));
        missing.removeAll(storedOrdinals(experiment.id()));
        return new Assignment(stored.experimentId(), stored.name(), stored.kind(), stored.design(),
                stored.runsPerVariant(), stored.order(), stored.seed(), stored.trialTimeoutSeconds(),
                stored.maxFailures(), stored.windowsPerPair(), stored.workload(), stored.without(), stored.with(),
                List.copyOf(missing), List.of());
    }

    /**
     * Whether {@code experiment} has nothing left to run: every trial of its plan is stored (a trial a cancel cut
     * short is not), or every pair of a paired design, or its stopping rule stopped it. It ends as its agent's
     * finish would have ended it ({@link #endWithNothingLeft}). Never an upload's.
     */
    public boolean nothingLeftToRun(ExperimentRecord experiment) {
        if (experiment.kind() == ExperimentKind.UPLOAD) {
            return false;
        }
        Assignment left = assignment(experiment);
        return left.pendingOrdinals().isEmpty() && left.pendingPairs().isEmpty();
    }

    /** How an experiment with nothing left to run ends, and the error it ends with (null for none). */
    public record End(ExperimentStatus status, String error) {
    }

    /**
     * How {@code experiment} ends when it has nothing left to run ({@link #nothingLeftToRun}), as its agent's finish
     * would have ended it: FAILED when the run of its last claim had more failed trials (in a paired design, failed
     * pairs) than its plan's maxFailures, since an agent's run stops FAILED at the failure past them, even at the
     * last trial; else COMPLETED. The end of an experiment whose agent is lost, and of a resume, with nothing left.
     */
    public End endWithNothingLeft(ExperimentRecord experiment) {
        long failures = experiment.paired()
                ? jdbc.sql("""
                        SELECT COUNT(*) FROM experiment_pair WHERE experiment_id = ? AND status <> 'OK'
                            AND claim = (SELECT MAX(claim) FROM experiment_claim WHERE experiment_id = ?)""")
                        .params(experiment.id(), experiment.id()).query(Long.class).single()
                : jdbc.sql("""
                        SELECT COUNT(*) FROM trial_run WHERE experiment_id = ? AND status IN ('FAILED', 'TIMED_OUT')
                            AND claim = (SELECT MAX(claim) FROM experiment_claim WHERE experiment_id = ?)""")
                        .params(experiment.id(), experiment.id()).query(Long.class).single();
        if (failures <= experiment.maxFailures()) {
            return new End(ExperimentStatus.COMPLETED, null);
        }
        return new End(ExperimentStatus.FAILED, "stopped after " + failures + " failed "
                + (experiment.paired() ? "pairs" : "trials") + " (more than maxFailures, " + experiment.maxFailures()
                + ")");
    }

    /** A stored workload; settings a release before them did not store keep rpc-bench's defaults. */
    private static Workload workload(String workloadJson) {
        return workloadJson == null ? Workload.DEFAULTS
                : RunnerJson.mapper().readValue(workloadJson, WorkloadSettings.class).applyTo(Workload.DEFAULTS);
    }

    /** The engine options and JVM flags of each variant, keyed {@code without}/{@code with}. */
    public Map<String, VariantRecord> variants(long experimentId) {
        Map<String, VariantRecord> variants = new LinkedHashMap<>();
        jdbc.sql("SELECT " + VARIANT_COLUMNS + " FROM variant WHERE experiment_id = ? ORDER BY name DESC")
                .param(experimentId)
                .query((ResultSet rs) -> {
                    variants.put(rs.getString("name"), variant(rs));
                });
        return variants;
    }

    private static final String VARIANT_COLUMNS = "name, label, options, jvm_args, command, metrics_format, directory, "
            + "environment";

    private VariantRecord variant(ResultSet rs) throws SQLException {
        String jvmArgs = rs.getString("jvm_args");
        return new VariantRecord(rs.getString("name"), rs.getString("label"), stringMap(rs.getString("options")),
                jvmArgs == null ? List.of() : json.readValue(jvmArgs, new TypeReference<List<String>>() { }),
                rs.getString("command"), rs.getString("metrics_format"), rs.getString("directory"),
                stringMap(rs.getString("environment")));
    }

    /**
     * What the rows of a list show of each experiment beside its record, read for the whole page at once: its runs'
     * status and times ({@link #runTimings}), how many runs an upload's packed series hold, both sides together (run
     * i of a side is the i-th value of each of its series), its variants ({@link #variants}) and an engine
     * experiment's workload as rpc-bench's named parameters; of a paired design, its pairs' status and times
     * ({@link #pairTimings}) and its measured windows ({@link PlacementCheck.Window}); of one a claim could take now,
     * its {@link QueuePlace}. Each missing entry none (0 packed runs for experiments whose runs have rows).
     */
    record ListReads(Map<Long, List<RunTiming>> runTimings, Map<Long, Integer> packedRuns,
                     Map<Long, Map<String, VariantRecord>> variants, Map<Long, Map<String, String>> workloads,
                     Map<Long, List<RunTiming>> pairTimings, Map<Long, List<PlacementCheck.Window>> pairWindows,
                     Map<Long, QueuePlace> queue) {
    }

    /**
     * {@link ListReads} of {@code experiments}: four queries however many they are, two more if any is of a paired
     * design, and one more if any is queued or interrupted (it may wait for a claim).
     */
    ListReads listReads(Collection<ExperimentRecord> experiments) {
        if (experiments.isEmpty()) {
            return new ListReads(Map.of(), Map.of(), Map.of(), Map.of(), Map.of(), Map.of(), Map.of());
        }
        List<Long> ids = experiments.stream().map(ExperimentRecord::id).distinct().toList();
        Map<Long, Integer> packed = new HashMap<>();
        jdbc.sql("""
                SELECT experiment_id, variant, MAX(first_ordinal + value_count) - MIN(first_ordinal) AS runs
                FROM sample_series WHERE experiment_id IN (:ids) GROUP BY experiment_id, variant""")
                .param("ids", ids)
                .query((ResultSet rs) -> {
                    packed.merge(rs.getLong("experiment_id"), rs.getInt("runs"), Integer::sum);
                });
        Map<Long, Map<String, VariantRecord>> variants = new HashMap<>();
        jdbc.sql("SELECT experiment_id, " + VARIANT_COLUMNS + " FROM variant WHERE experiment_id IN (:ids) "
                        + "ORDER BY experiment_id, name DESC")
                .param("ids", ids)
                .query((ResultSet rs) -> {
                    variants.computeIfAbsent(rs.getLong("experiment_id"), id -> new LinkedHashMap<>())
                            .put(rs.getString("name"), variant(rs));
                });
        Map<Long, Map<String, String>> workloads = new HashMap<>();
        jdbc.sql("SELECT id, workload FROM experiment WHERE id IN (:ids) AND workload IS NOT NULL")
                .param("ids", ids)
                .query((ResultSet rs) -> {
                    workloads.put(rs.getLong("id"), workload(rs.getString("workload")).describe());
                });
        List<Long> paired = experiments.stream().filter(ExperimentRecord::paired).map(ExperimentRecord::id)
                .distinct().toList();
        // queued, or interrupted with its agent lost and waiting for the next claim to resume it
        List<Long> waiting = experiments.stream().filter(e -> e.status() == ExperimentStatus.QUEUED
                || e.status() == ExperimentStatus.INTERRUPTED).map(ExperimentRecord::id).distinct().toList();
        return new ListReads(timings("trial_run", ids), packed, variants, workloads,
                paired.isEmpty() ? Map.of() : timings("experiment_pair", paired),
                paired.isEmpty() ? Map.of() : pairWindows(paired), queuePlaces(waiting));
    }

    /** A JSON object of strings as stored; empty for null. */
    private Map<String, String> stringMap(String stored) {
        return stored == null ? Map.of() : json.readValue(stored, new TypeReference<Map<String, String>>() { });
    }


    /**
     * Stores one finished trial — its run row and every sample — in one transaction and bumps the experiment's
     * data version. Non-finite values are not stored (the runner never produces them; this guards the table). The
     * unit and direction of each metric a command run read from its output are the experiment's from the first run
     * that read it.
     */
    @Transactional
    public void saveRun(long experimentId, TrialResult result) {
        saveRun(experimentId, null, result);
    }

    /**
     * As {@link #saveRun(long, Long, TrialResult)} unless the experiment has a run at that ordinal already: a trial
     * posted twice (an agent's retry) is stored once. Returns whether it was stored now; two posts racing each other
     * meet the ordinal's unique key, and the loser's transaction fails with a {@code DuplicateKeyException}.
     */
    @Transactional
    public boolean saveRunOnce(long experimentId, Long agentId, TrialResult result) {
        return storeOnce("SELECT COUNT(*) FROM trial_run WHERE experiment_id = ? AND ordinal = ?", experimentId,
                result.ordinal(), () -> saveRun(experimentId, agentId, result));
    }

    /** As {@link #saveRun(long, TrialResult)}, recording the agent the trial ran on (null: none registered). */
    @Transactional
    public void saveRun(long experimentId, Long agentId, TrialResult result) {
        insertRun(experimentId, agentId, result);
        jdbc.sql("UPDATE experiment SET data_version = data_version + 1 WHERE id = ?").param(experimentId).update();
    }

    /**
     * Stores one finished pair of a paired design whole — its row, every window's run and samples (with pair, window,
     * CPU set, start and skew), or the failure records of a pair that failed — in one transaction, and bumps the
     * experiment's data version: a pair is stored whole or not at all. Storing a pair twice fails (its key).
     */
    @Transactional
    public void savePair(long experimentId, PairResult pair) {
        savePair(experimentId, null, pair);
    }

    /**
     * As {@link #savePair(long, Long, PairResult)} unless that pair is stored already: a pair posted twice (an
     * agent's retry) is stored once. Returns whether it was stored now; two posts racing each other meet the pair's
     * key, and the loser's transaction fails with a {@code DuplicateKeyException}.
     */
    @Transactional
    public boolean savePairOnce(long experimentId, Long agentId, PairResult pair) {
        return storeOnce("SELECT COUNT(*) FROM experiment_pair WHERE experiment_id = ? AND pair_index = ?",
                experimentId, pair.index(), () -> savePair(experimentId, agentId, pair));
    }

    /** Runs {@code store} unless {@code countSql} finds the experiment's row with that key; whether it ran. */
    private boolean storeOnce(String countSql, long experimentId, int key, Runnable store) {
        boolean stored = jdbc.sql(countSql).params(experimentId, key).query(Long.class).single() > 0;
        if (!stored) {
            store.run();
        }
        return !stored;
    }

    /** As {@link #savePair(long, PairResult)}, recording the agent the pair ran on (null: none registered). */
    @Transactional
    public void savePair(long experimentId, Long agentId, PairResult pair) {
        StoredPair stored = asStored(pair);
        PairPlacement placement = stored.placement();
        jdbc.sql("""
                INSERT INTO experiment_pair (experiment_id, pair_index, status, without_cpus, with_cpus, first_variant,
                    started_at, finished_at, setup_seconds, measuring_seconds, error, agent_id, claim)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,
                    (SELECT MAX(claim) FROM experiment_claim WHERE experiment_id = ?))""")
                .params(experimentId, stored.index(), stored.status(), placement.withoutCpus(),
                        placement.withCpus(), placement.first().label(), timestamp(stored.start()),
                        timestamp(stored.end()), stored.setupSeconds(), stored.measuringSeconds(), stored.error(),
                        agentId, experimentId)
                .update();
        pair.results().forEach(result -> insertRun(experimentId, agentId, result));
        jdbc.sql("UPDATE experiment SET data_version = data_version + 1 WHERE id = ?").param(experimentId).update();
    }

    /**
     * The pairs of a paired experiment stored so far, in pair order, each with its results as the runner reported
     * them: what a resumed experiment's stopping rule sees first.
     */
    public List<PairResult> pairs(long experimentId) {
        Map<Integer, List<TrialResult>> results = new HashMap<>();
        for (RunRecord run : runs(experimentId)) {
            if (run.pair() != null) {
                results.computeIfAbsent(run.pair().index(), k -> new ArrayList<>()).add(run.toTrialResult());
            }
        }
        return jdbc.sql("SELECT " + PAIR_COLUMNS + " FROM experiment_pair WHERE experiment_id = ? ORDER BY pair_index")
                .param(experimentId)
                .query((rs, n) -> storedPair(rs, Set.of()))
                .list().stream()
                .map(stored -> {
                    List<TrialResult> measured = new ArrayList<>(results.getOrDefault(stored.index(), List.of()));
                    measured.sort(java.util.Comparator.comparing((TrialResult r) -> r.pair().startNanos(),
                            java.util.Comparator.nullsLast(java.util.Comparator.naturalOrder()))
                            .thenComparingInt(TrialResult::ordinal));
                    return new PairResult(stored.index(), TrialStatus.valueOf(stored.status()), stored.placement(),
                            measured, stored.start(), stored.end(), seconds(stored.setupSeconds()),
                            seconds(stored.measuringSeconds()), stored.error());
                })
                .toList();
    }

    /** The pairs of a paired design that failed, by index: one each, where their runs are a record per variant. */
    public List<FailedPair> failedPairs(long experimentId) {
        return jdbc.sql("""
                SELECT pair_index, status, started_at, error FROM experiment_pair
                WHERE experiment_id = ? AND status <> 'OK' ORDER BY pair_index""")
                .param(experimentId)
                .query((rs, n) -> new FailedPair(rs.getInt("pair_index"), rs.getString("status"),
                        instant(rs, "started_at"), rs.getString("error")))
                .list();
    }

    /**
     * A run as it is stored: its row and samples, and the values its command printed (JSON, or null where it read
     * none or they did not fit their column).
     */
    public record StoredRun(RunRecord run, String outputValues) {
    }

    /**
     * The run stored at {@code ordinal}, or empty: what a trial posted again is compared with
     * ({@link RepostedResults}).
     */
    public Optional<StoredRun> storedRun(long experimentId, int ordinal) {
        return jdbc.sql("SELECT " + RUN_COLUMNS + ", output_values FROM trial_run "
                        + "WHERE experiment_id = ? AND ordinal = ?")
                .params(experimentId, ordinal)
                .query((rs, n) -> new StoredRun(run(rs, samples(rs.getLong("id"))), rs.getString("output_values")))
                .optional();
    }

    /** The samples of run {@code runId}, metrics in key order. */
    private Map<String, Double> samples(long runId) {
        Map<String, Double> samples = new LinkedHashMap<>();
        jdbc.sql("SELECT metric_key, metric_value FROM sample WHERE run_id = ? ORDER BY metric_key")
                .param(runId).query((ResultSet rs) -> {
                    samples.put(rs.getString(1), rs.getDouble(2));
                });
        return samples;
    }

    /**
     * Trial {@code result} as {@link #saveRun} stores it, row and samples, the row's id aside: the values
     * {@link #insertRun} writes, so that a trial posted again is compared with the stored one as the store keeps
     * both. The store keeps times to the microsecond ({@link RepostedResults} compares them so).
     */
    StoredRun asStored(TrialResult result) {
        Map<String, Double> samples = new LinkedHashMap<>();
        result.metrics().forEach((key, value) -> {
            if (value != null && Double.isFinite(value)) {
                samples.put(key, value);
            }
        });
        return new StoredRun(new RunRecord(-1, result.variant(), result.ordinal(), result.status().name(),
                result.start(), result.end(), result.pid() < 0 ? null : result.pid(), result.environment(),
                Texts.storable(result.error(), ERROR_CHARS), samples, result.pair()), outputValues(result));
    }

    /**
     * A pair's row as it is stored, and the ordinals of its runs.
     *
     * @param setupSeconds its setup time, as stored: in seconds
     * @param measuringSeconds its measuring time, as stored: in seconds
     * @param error as stored: cut to its column, a NUL replaced
     */
    public record StoredPair(int index, String status, PairPlacement placement, Instant start, Instant end,
                             double setupSeconds, double measuringSeconds, String error, Set<Integer> ordinals) {
    }

    /** Pair {@code index} as stored, or empty: what a pair posted again is compared with. */
    public Optional<StoredPair> storedPair(long experimentId, int index) {
        Set<Integer> ordinals = Set.copyOf(jdbc.sql("SELECT ordinal FROM trial_run WHERE experiment_id = ? "
                + "AND pair_index = ?").params(experimentId, index).query(Integer.class).list());
        return jdbc.sql("SELECT " + PAIR_COLUMNS + " FROM experiment_pair WHERE experiment_id = ? AND pair_index = ?")
                .params(experimentId, index)
                .query((rs, n) -> storedPair(rs, ordinals))
                .optional();
    }

    /** The columns of an {@code experiment_pair} row that {@link #storedPair(ResultSet, Set)} reads. */
    private static final String PAIR_COLUMNS = "pair_index, status, without_cpus, with_cpus, first_variant, "
            + "started_at, finished_at, setup_seconds, measuring_seconds, error";

    /** One {@code experiment_pair} row of {@link #PAIR_COLUMNS}, with the ordinals of its runs. */
    private static StoredPair storedPair(ResultSet rs, Set<Integer> ordinals) throws SQLException {
        return new StoredPair(rs.getInt("pair_index"), rs.getString("status"),
                new PairPlacement(rs.getString("without_cpus"), rs.getString("with_cpus"),
                        VariantName.parse(rs.getString("first_variant"))),
                instant(rs, "started_at"), instant(rs, "finished_at"), rs.getDouble("setup_seconds"),
                rs.getDouble("measuring_seconds"), rs.getString("error"), ordinals);
    }

    /**
     * Pair {@code pair} as {@link #savePair} stores it: the values of the row it writes, so that a pair posted again
     * is compared with the stored one as the store keeps both, and the ordinals of its runs, whose rows
     * {@link #insertRun} writes ({@link #asStored(TrialResult)}).
     */
    static StoredPair asStored(PairResult pair) {
        Set<Integer> ordinals = new java.util.HashSet<>();
        pair.results().forEach(result -> ordinals.add(result.ordinal()));
        return new StoredPair(pair.index(), pair.status().name(), pair.placement(), pair.start(), pair.end(),
                pair.setup().toNanos() / 1e9, pair.measuring().toNanos() / 1e9,
                Texts.storable(pair.error(), ERROR_CHARS), Set.copyOf(ordinals));
    }

    /** The indexes of the pairs stored whole: a resumed experiment runs the others. */
    public List<Integer> storedPairs(long experimentId) {
        return jdbc.sql("SELECT pair_index FROM experiment_pair WHERE experiment_id = ? ORDER BY pair_index")
                .param(experimentId).query(Integer.class).list();
    }

    /**
     * The indexes of the pairs stored in the experiment's last claim: the run of the agent that holds it now. An
     * agent keeps its id when it claims the same experiment again, so the pairs it ran on do not tell.
     */
    public Set<Integer> pairsOfLastClaim(long experimentId) {
        return Set.copyOf(jdbc.sql("""
                SELECT pair_index FROM experiment_pair WHERE experiment_id = ?
                    AND claim = (SELECT MAX(claim) FROM experiment_claim WHERE experiment_id = ?)""")
                .params(experimentId, experimentId).query(Integer.class).list());
    }

    private static Duration seconds(double seconds) {
        return Duration.ofNanos(Math.round(seconds * 1e9));
    }

    /** Why its stopping rule stopped a paired experiment: early, or at its plan's last look. */
    public void recordStopReason(long experimentId, String reason) {
        jdbc.sql("UPDATE experiment SET stop_reason = ? WHERE id = ?")
                .params(Texts.storable(reason, 4000), experimentId).update();
    }

    /**
     * Inserts one result's run row and samples, as {@link #asStored(TrialResult)} makes them; the caller holds the
     * transaction and bumps the data version.
     */
    private void insertRun(long experimentId, Long agentId, TrialResult result) {
        StoredRun stored = asStored(result);
        RunRecord run = stored.run();
        GeneratedKeyHolder keys = new GeneratedKeyHolder();
        PairPosition pair = run.pair();
        jdbc.sql("""
                INSERT INTO trial_run (experiment_id, variant, ordinal, status, started_at, finished_at, pid,
                    environment, error, output_values, pair_index, window_index, cpu_set, start_nanos, skew_nanos,
                    started_first, agent_id, claim)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,
                    (SELECT MAX(claim) FROM experiment_claim WHERE experiment_id = ?))""")
                .params(experimentId, run.variant(), run.ordinal(), run.status(), timestamp(run.startedAt()),
                        timestamp(run.finishedAt()), run.pid(), json.writeValueAsString(run.environment()),
                        run.error(), stored.outputValues(), pair == null ? null : pair.index(),
                        pair == null ? null : pair.window(), pair == null ? null : pair.cpus(),
                        pair == null ? null : pair.startNanos(), pair == null ? null : pair.skewNanos(),
                        pair == null ? null : pair.startedFirst(), agentId, experimentId)
                .update(keys, "id");
        if (!result.parsedMetrics().isEmpty()) {
            List<String> known = jdbc.sql("SELECT metric_key FROM experiment_metric WHERE experiment_id = ?")
                    .param(experimentId).query(String.class).list();
            result.parsedMetrics().forEach((key, metric) -> {
                if (!known.contains(key)) {
                    jdbc.sql("INSERT INTO experiment_metric (experiment_id, metric_key, unit, direction) "
                                    + "VALUES (?, ?, ?, ?)")
                            .params(experimentId, key, metric.unit(), metric.higherIsBetter() ? "HIGHER" : "LOWER")
                            .update();
                }
            });
        }
        long runId = keys.getKey().longValue();
        List<Object[]> rows = new ArrayList<>();
        run.metrics().forEach((key, value) -> rows.add(new Object[] {runId, key, value}));
        if (!rows.isEmpty()) {
            jdbcTemplate.batchUpdate("INSERT INTO sample (run_id, metric_key, metric_value) VALUES (?, ?, ?)", rows);
        }
    }

    /**
     * The values a command run printed per metric, as JSON; null when it read none, or when they would not fit the
     * column (the means, its samples, are stored all the same).
     */
    private String outputValues(TrialResult result) {
        if (result.parsedMetrics().isEmpty()) {
            return null;
        }
        Map<String, List<Double>> values = new LinkedHashMap<>();
        result.parsedMetrics().forEach((key, metric) -> values.put(key, metric.values()));
        String text = json.writeValueAsString(values);
        return text.length() > OUTPUT_VALUES_CHARS ? null : text;
    }

    /** Every run of an experiment with its samples, in plan order. */
    public List<RunRecord> runs(long experimentId) {
        Map<Long, Map<String, Double>> samples = new LinkedHashMap<>();
        jdbc.sql("""
                SELECT s.run_id, s.metric_key, s.metric_value FROM sample s JOIN trial_run r ON r.id = s.run_id
                WHERE r.experiment_id = ? ORDER BY s.run_id, s.metric_key""")
                .param(experimentId)
                .query((ResultSet rs) -> {
                    samples.computeIfAbsent(rs.getLong(1), k -> new LinkedHashMap<>())
                            .put(rs.getString(2), rs.getDouble(3));
                });
        Map<Integer, Map<String, Double>> packed = new HashMap<>();
        readSeries("experiment_id = ?", List.of(experimentId), packed);
        return runs(experimentId, samples, packed);
    }

    /** Receives the samples of {@link #forEachSample}, one at a time. */
    @FunctionalInterface
    public interface SampleSink {
        /**
         * One sample of the run {@code ordinal} of {@code variant}, whose status is {@code status} ({@code OK}, or
         * why the analysis leaves it out). {@code cpuSplit} says how user or system CPU was split, {@code sampled} or
         * {@code tick}, and is null for other metrics and runs that recorded no split; {@code pair} and
         * {@code window} are null outside a paired design.
         */
        void sample(String variant, int ordinal, String status, String metric, double value, String cpuSplit,
                    Integer pair, Integer window);
    }

    /**
     * Every sample of an experiment, handed to {@code sink} as it is read and never all held at once (an upload may
     * hold millions): the samples of runs with rows in run order, metrics in key order within a run; those of a
     * recorded experiment (an upload) metric by metric, in key order, each side's runs in order within a metric.
     * Failed runs' samples are handed out too, with their status. User and system CPU are the values the comparison
     * takes ({@link ExperimentResults#asCompared}): on the tick split where the trials split them in different ways.
     */
    public void forEachSample(long experimentId, SampleSink sink) {
        Map<Long, Map<String, String>> environments = new HashMap<>();
        List<Map<String, String>> okEnvironments = new ArrayList<>();
        jdbc.sql("SELECT id, status, environment FROM trial_run WHERE experiment_id = ?")
                .param(experimentId)
                .query((ResultSet rs) -> {
                    String stored = rs.getString("environment");
                    Map<String, String> environment = stored == null ? Map.of()
                            : json.readValue(stored, new TypeReference<Map<String, String>>() { });
                    environments.put(rs.getLong("id"), environment);
                    if (TrialStatus.OK.name().equals(rs.getString("status"))) {
                        okEnvironments.add(environment);
                    }
                });
        boolean onTick = CpuSplitSources.mixedSplits(okEnvironments).isPresent();
        jdbc.sql("""
                SELECT r.id, r.variant, r.ordinal, r.status, r.pair_index, r.window_index, s.metric_key, s.metric_value
                FROM trial_run r JOIN sample s ON s.run_id = r.id
                WHERE r.experiment_id = ? ORDER BY r.ordinal, r.id, s.metric_key""")
                .param(experimentId)
                .query((ResultSet rs) -> {
                    String metric = rs.getString(7);
                    CpuSplitSources.SplitValue compared = CpuSplitSources.asCompared(environments.get(rs.getLong(1)),
                            metric, rs.getDouble(8), onTick);
                    sink.sample(rs.getString(2), rs.getInt(3), rs.getString(4), metric, compared.value(),
                            compared.split(), rs.getObject(5, Integer.class), rs.getObject(6, Integer.class));
                });
        jdbc.sql("""
                SELECT variant, metric_key, first_ordinal, value_count, sample_values FROM sample_series
                WHERE experiment_id = ? ORDER BY metric_key, variant, block""")
                .param(experimentId)
                .query((ResultSet rs) -> {
                    String variant = rs.getString(1);
                    String key = rs.getString(2);
                    int first = rs.getInt(3);
                    double[] values = SampleSeries.values(rs.getString(5), rs.getInt(4));
                    for (int i = 0; i < values.length; i++) {
                        // a recorded experiment's runs are the values it was given: all of them analysed
                        sink.sample(variant, first + i, TrialStatus.OK.name(), key, values[i], null, null, null);
                    }
                });
    }

    /**
     * Every run of an experiment in plan order, each with its samples: the runs with rows, with their entry of
     * {@code samples} (run id → metric → value), and a recorded experiment's runs, which have no rows, with their
     * entry of {@code packed} (ordinal → metric → value, from its series).
     */
    private List<RunRecord> runs(long experimentId, Map<Long, Map<String, Double>> samples,
            Map<Integer, Map<String, Double>> packed) {
        List<RunRecord> rows = jdbc.sql("SELECT " + RUN_COLUMNS + " FROM trial_run WHERE experiment_id = ? "
                        + "ORDER BY ordinal")
                .param(experimentId)
                .query((rs, n) -> run(rs, samples.getOrDefault(rs.getLong("id"), Map.of())))
                .list();
        // a recorded experiment's runs are the positions of its series' values, per side a range of ordinals
        List<RunRecord> positions = new ArrayList<>();
        jdbc.sql("""
                SELECT variant, MIN(first_ordinal), MAX(first_ordinal + value_count) FROM sample_series
                WHERE experiment_id = ? GROUP BY variant""")
                .param(experimentId)
                .query((ResultSet rs) -> {
                    for (int ordinal = rs.getInt(2); ordinal < rs.getInt(3); ordinal++) {
                        positions.add(packedRun(rs.getString(1), ordinal, packed.getOrDefault(ordinal, Map.of())));
                    }
                });
        if (positions.isEmpty()) {
            return rows;
        }
        List<RunRecord> all = new ArrayList<>(rows);
        all.addAll(positions);
        all.sort(java.util.Comparator.comparingInt(RunRecord::ordinal));
        return all;
    }

    /**
     * The measured windows of each of the paired experiments {@code experimentIds}, each with its variant and where
     * it lay (pair, window, CPU set, skew, who went first): what {@link PlacementCheck} reads, without samples or
     * environments. One query however many they are.
     */
    private Map<Long, List<PlacementCheck.Window>> pairWindows(List<Long> experimentIds) {
        Map<Long, List<PlacementCheck.Window>> windows = new HashMap<>();
        jdbc.sql("""
                SELECT experiment_id, variant, pair_index, window_index, cpu_set, start_nanos, skew_nanos,
                    started_first
                FROM trial_run WHERE experiment_id IN (:ids) AND pair_index IS NOT NULL AND window_index IS NOT NULL
                    AND status = 'OK'
                ORDER BY experiment_id, ordinal""")
                .param("ids", experimentIds)
                .query((ResultSet rs) -> {
                    windows.computeIfAbsent(rs.getLong("experiment_id"), id -> new ArrayList<>())
                            .add(new PlacementCheck.Window(rs.getString("variant"), pair(rs)));
                });
        return windows;
    }

    /** The run of a {@code trial_run} row read with {@link #RUN_COLUMNS}, with its {@code samples}. */
    private RunRecord run(ResultSet rs, Map<String, Double> samples) throws SQLException {
        long pid = rs.getLong("pid");
        Long storedPid = rs.wasNull() ? null : pid;
        String environment = rs.getString("environment");
        return new RunRecord(rs.getLong("id"), rs.getString("variant"), rs.getInt("ordinal"), rs.getString("status"),
                instant(rs, "started_at"), instant(rs, "finished_at"), storedPid,
                environment == null ? Map.of()
                        : json.readValue(environment, new TypeReference<Map<String, String>>() { }),
                rs.getString("error"), samples, pair(rs));
    }

    /** Where a run lies in a paired design, or null for a run of the fresh design. */
    private static PairPosition pair(ResultSet rs) throws SQLException {
        int index = rs.getInt("pair_index");
        if (rs.wasNull()) {
            return null;
        }
        return new PairPosition(index, rs.getObject("window_index", Integer.class), rs.getString("cpu_set"),
                rs.getObject("start_nanos", Long.class), rs.getObject("skew_nanos", Long.class),
                Boolean.TRUE.equals(rs.getObject("started_first", Boolean.class)));
    }

    /** A run's status and times, without its samples or environment: what progress and ETA need. */
    public record RunTiming(String status, Instant startedAt, Instant finishedAt) {
    }


    /** The status and times of every run of an experiment; cheap beside {@link #runs}. */
    public List<RunTiming> runTimings(long experimentId) {
        return timings("trial_run", experimentId);
    }

    /** The status and times of every row of {@code table} (trial_run or experiment_pair) of an experiment. */
    private List<RunTiming> timings(String table, long experimentId) {
        return jdbc.sql("SELECT status, started_at, finished_at FROM " + table + " WHERE experiment_id = ?")
                .param(experimentId)
                .query((rs, n) -> new RunTiming(rs.getString("status"), instant(rs, "started_at"),
                        instant(rs, "finished_at")))
                .list();
    }

    /**
     * The status and times of every row of {@code table} (trial_run or experiment_pair) of each of
     * {@code experimentIds}, by experiment: one query however many they are.
     */
    private Map<Long, List<RunTiming>> timings(String table, List<Long> experimentIds) {
        Map<Long, List<RunTiming>> timings = new HashMap<>();
        jdbc.sql("SELECT experiment_id, status, started_at, finished_at FROM " + table
                        + " WHERE experiment_id IN (:ids)")
                .param("ids", experimentIds)
                .query((ResultSet rs) -> {
                    timings.computeIfAbsent(rs.getLong("experiment_id"), id -> new ArrayList<>())
                            .add(new RunTiming(rs.getString("status"), instant(rs, "started_at"),
                                    instant(rs, "finished_at")));
                });
        return timings;
    }

    /** The status and times of every stored pair of a paired experiment: its progress and ETA in pairs. */
    public List<RunTiming> pairTimings(long experimentId) {
        return timings("experiment_pair", experimentId);
    }

    /** Ordinals that already have a run that counts (finished, failed or timed out; not cancelled). */
    public List<Integer> storedOrdinals(long experimentId) {
        return jdbc.sql("SELECT ordinal FROM trial_run WHERE experiment_id = ? AND status <> 'CANCELLED' "
                        + "ORDER BY ordinal")
                .param(experimentId).query(Integer.class).list();
    }

    /** Removes runs a cancel cut short, so that resume runs them again. */
    public void deleteCancelledRuns(long experimentId) {
        jdbc.sql("DELETE FROM trial_run WHERE experiment_id = ? AND status = 'CANCELLED'").param(experimentId).update();
    }

    /** The upload {@code experimentId} was compared with when it came in: its id and commit. */
    public record Base(long experimentId, String commit) {
    }

    /** Records that upload {@code experimentId} was compared with upload {@code baseId}, its base. */
    public void recordBase(long experimentId, long baseId) {
        jdbc.sql("UPDATE experiment SET base_experiment_id = ? WHERE id = ?").params(baseId, experimentId).update();
    }

    /** The base an upload was compared with, if it had one and it is still stored. */
    public Optional<Base> base(long experimentId) {
        return jdbc.sql("SELECT b.id, b.git_commit FROM experiment e JOIN experiment b ON b.id = e.base_experiment_id "
                + "WHERE e.id = ?").param(experimentId)
                .query((rs, n) -> new Base(rs.getLong(1), rs.getString(2))).optional();
    }

    /** Unit and direction of each metric: the experiment's own (uploads) over the global definitions. */
    public Map<String, MetricDefinition> metricDefinitions(long experimentId) {
        Map<String, MetricDefinition> definitions = metricDefinitions();
        jdbc.sql("SELECT metric_key, unit, direction FROM experiment_metric WHERE experiment_id = ? "
                        + "ORDER BY metric_key")
                .param(experimentId)
                .query((ResultSet rs) -> {
                    MetricDefinition known = definitions.get(rs.getString(1));
                    definitions.put(rs.getString(1), new MetricDefinition(rs.getString(1), rs.getString(2),
                            rs.getString(3).equals("HIGHER"), known == null ? 10_000 : known.displayOrder(),
                            known == null ? "" : known.description()));
                });
        return definitions;
    }

    /**
     * The metrics PerfLab defines ({@code metric_definition}), in their display order. Read each time, not kept:
     * only migrations write the table, but they change rows as well as add them (V14 and V15 rewrote
     * {@code host_probe_ns}'s description), and on a shared PostgreSQL a newer release's instance migrates it while
     * the others run, whose kept copy would then be stale. A small table, which a trial or pair an agent posts reads
     * once, for all its windows.
     */
    public Map<String, MetricDefinition> metricDefinitions() {
        Map<String, MetricDefinition> definitions = new LinkedHashMap<>();
        jdbc.sql("SELECT metric_key, unit, direction, display_order, description FROM metric_definition "
                        + "ORDER BY display_order")
                .query((ResultSet rs) -> {
                    definitions.put(rs.getString(1), new MetricDefinition(rs.getString(1), rs.getString(2),
                            rs.getString(3).equals("HIGHER"), rs.getInt(4), rs.getString(5)));
                });
        return definitions;
    }

    /**
     * Oldest queued experiment first: the FIFO queue of this host. Oldest by id, the order in which the database
     * took them: the creation times come from the clocks of the service instances that took them, which may differ.
     */
    public Optional<Long> nextQueued() {
        return jdbc.sql("SELECT id FROM experiment WHERE status = 'QUEUED' ORDER BY id FETCH FIRST 1 ROWS ONLY")
                .query(Long.class).optional();
    }

    /**
     * Where an experiment a claim could take now (QUEUED, or INTERRUPTED by a lost agent and waiting for the next
     * agent to resume it) stands in the queue: 1-based, 1 + the experiments a claim would take before it. A claim
     * takes the oldest claimable experiment its host may run ({@link #claimNext}), so those are the older ones (older
     * queued ones, and older interrupted ones that an agent resumes on its own) that the host which takes it could
     * run too. With several hosts able to run it, one that the others keep busy may take it sooner: the position is
     * then the most experiments that can go before it, not a promise of its turn.
     *
     * @param claimable what the queue needs of it
     * @param older the experiments a claim could take now that are older than it, oldest first
     */
    record QueuePlace(Claimable claimable, List<Claimable> older) {

        /**
         * Its position among the registered {@code hosts}: of the older experiments, those that a live host able to
         * run it may run too (labels, kind of experiment, platform and counts weighed as a claim weighs
         * them). An older one that only hosts unable to run it would take, or that only hosts not live now could, is
         * not ahead of it: behind a {@code completion=futex} experiment while the one live host is macOS, an
         * experiment that runs anywhere is next. While no live host can run it ({@link HostWait} says what it waits
         * for), its {@link #position()}.
         */
        long position(List<AgentRepository.HostGroup> hosts) {
            List<Claimant> able = hosts.stream().filter(AgentRepository.HostGroup::live)
                    .map(AgentRepository.HostGroup::claimant).filter(claimable::mayBeRunBy).toList();
            if (able.isEmpty()) {
                return position();
            }
            return 1 + older.stream().filter(ahead -> able.stream().anyMatch(ahead::mayBeRunBy)).count();
        }

        /**
         * Its position whatever hosts are live: of the older experiments, those that some host able to run it could
         * run too ({@link Claimable#mayShareAHostWith}, labels weighed). Those that ask for labels none of its hosts
         * can carry, or that only hosts of other labels may resume, go elsewhere and are not ahead of it.
         */
        long position() {
            return 1 + older.stream().filter(claimable::mayShareAHostWith).count();
        }
    }

    /**
     * The {@link QueuePlace} of each of {@code ids} that a claim could take now; those it could not have none. One
     * query, of the queue up to the newest of them, however many they are.
     */
    Map<Long, QueuePlace> queuePlaces(Collection<Long> ids) {
        if (ids.isEmpty()) {
            return Map.of();
        }
        Set<Long> wanted = Set.copyOf(ids);
        // oldest first by id, as a claim takes them
        List<Claimable> queue = jdbc.sql(CLAIMABLE + CLAIMABLE_NOW + " AND id <= ? ORDER BY id")
                .param(Collections.max(wanted)).query(this::claimable).list();
        Map<Long, QueuePlace> places = new HashMap<>();
        for (int i = 0; i < queue.size(); i++) {
            Claimable waiting = queue.get(i);
            if (wanted.contains(waiting.id())) {
                // a view of the one queue read, not a copy per place
                places.put(waiting.id(), new QueuePlace(waiting, Collections.unmodifiableList(queue.subList(0, i))));
            }
        }
        return places;
    }

    /**
     * Cancels an INTERRUPTED experiment that the next claim of an agent would take up again on its own (its agent was
     * lost); false if it is not one.
     */
    public boolean cancelAwaitingResume(long id, Instant now) {
        return jdbc.sql("""
                UPDATE experiment SET status = 'CANCELLED', resume_on_claim = FALSE, finished_at = ?,
                    error = 'cancelled while it waited to be resumed'
                WHERE id = ? AND status = 'INTERRUPTED' AND resume_on_claim = TRUE""")
                .params(timestamp(now), id).update() == 1;
    }

    /** Moves {@code from} → {@code to} if the experiment is still in {@code from}; false if it was not. */
    public boolean transition(long id, ExperimentStatus from, ExperimentStatus to, Instant now, String error) {
        String timeColumn = to == ExperimentStatus.RUNNING ? "started_at" : to.finished() ? "finished_at" : null;
        String sql = "UPDATE experiment SET status = ?, error = ?"
                + (timeColumn == null ? "" : ", " + timeColumn + " = ?")
                + (to == ExperimentStatus.QUEUED ? ", finished_at = NULL" : "")
                + " WHERE id = ? AND status = ?";
        List<Object> params = new ArrayList<>(List.of(to.name()));
        params.add(Texts.storable(error, 4000));
        if (timeColumn != null) {
            params.add(timestamp(now));
        }
        params.add(id);
        params.add(from.name());
        return jdbc.sql(sql).params(params).update() == 1;
    }

    /** Why an experiment that a crash or kill of its service cut short is INTERRUPTED. */
    static final String INTERRUPTED_BY_RESTART = "the server stopped while this experiment ran; finished runs are "
            + "kept, resume runs the rest";

    /**
     * After a crash or kill of a service: the experiments its built-in agent {@code agentId} left RUNNING (and those
     * of the release before agents, which name none) become INTERRUPTED; returns their ids. Experiments running on
     * other agents are theirs: a lost one is found by its heartbeat. Each ends only while it is still held as it was
     * found: in between, the watch of another instance may have found this agent lost and another agent claimed the
     * experiment afresh, and that claim is not this service's to end.
     */
    @Transactional
    public List<Long> interruptRunning(Long agentId, Instant now) {
        List<Held> found = jdbc.sql("SELECT id, agent_id FROM experiment WHERE status = 'RUNNING' AND (agent_id IS NULL"
                        + (agentId == null ? ")" : " OR agent_id = ?)") + " ORDER BY id")
                .params(agentId == null ? List.of() : List.of(agentId))
                .query((rs, n) -> new Held(rs.getLong("id"), rs.getObject("agent_id", Long.class))).list();
        List<Long> interrupted = new ArrayList<>();
        for (Held held : found) {
            if (endClaim(held.experimentId(), held.agentId() == null ? " AND agent_id IS NULL" : " AND agent_id = ?",
                    held.agentId(), ExperimentStatus.INTERRUPTED, now, INTERRUPTED_BY_RESTART, false)) {
                interrupted.add(held.experimentId());
            }
        }
        return interrupted;
    }

    /** A running experiment and the agent holding it, null for none (a release before agents). */
    private record Held(long experimentId, Long agentId) {
    }

    /**
     * What the queue needs of a claimable experiment to decide whether an agent may take it.
     *
     * @param required the labels it asks for
     * @param runLabels the canonical labels of the host its first trial ran on, which every later claim must have;
     *     null until it has run
     * @param needs what it needs of a host besides: the platforms of its variants' engine options that run on one
     *     platform only, read from the variants as stored, so that the engine's word on them holds for experiments
     *     queued before too; and the count a host may refuse (system calls, hardware counters) where its stopping
     *     targets name a metric of it
     */
    record Claimable(long id, ExperimentStatus status, ExperimentKind kind, HostLabels required,
                     String runLabels, HostNeeds needs) {

        boolean mayBeRunBy(Claimant agent) {
            return agent.mayRun(kind, required, runLabels, needs);
        }

        /**
         * Whether a host could run both this and {@code other}. An experiment that has run is resumed only on a
         * host of the labels it ran on ({@code runLabels}); an agent that runs command experiments runs any kind.
         * What they need of a host beyond labels ({@link HostNeeds}) is not weighed: a host of the platform one needs,
         * or making the counts it needs, runs those that need none, and two needing different platforms (no
         * two options do) would count one more ahead, which the position's bound allows. This is the position's rule
         * while no live host can run it; while one can, the live hosts are weighed, their platforms and
         * counts too ({@link QueuePlace#position(List)}).
         */
        boolean mayShareAHostWith(Claimable other) {
            if (runLabels != null && other.runLabels() != null) {
                return runLabels.equals(other.runLabels());
            }
            if (runLabels != null) {
                return HostLabels.parse(runLabels).satisfies(other.required());
            }
            if (other.runLabels() != null) {
                return HostLabels.parse(other.runLabels()).satisfies(required);
            }
            return required.compatibleWith(other.required());
        }
    }

    private static final String CLAIMABLE = "SELECT id, status, kind, host_labels, run_labels, targets, "
            + variantOptions(VariantName.WITHOUT) + ", " + variantOptions(VariantName.WITH) + " FROM experiment ";

    /** The stored engine options of each claimable experiment's variant {@code side}, as {@code LABEL_options}. */
    private static String variantOptions(VariantName side) {
        return "(SELECT v.options FROM variant v WHERE v.experiment_id = experiment.id AND v.name = '" + side.label()
                + "') AS " + side.label() + "_options";
    }

    private static final String CLAIMABLE_NOW = "WHERE (status = 'QUEUED' OR (status = 'INTERRUPTED' "
            + "AND resume_on_claim = TRUE))";

    /**
     * Claims the oldest experiment {@code agent} may run: QUEUED, or INTERRUPTED by a lost agent. Of the claimable
     * experiments it may run, oldest first, it locks the first that no other claim holds ({@code FOR UPDATE SKIP
     * LOCKED}, one row at a time, so that agents and service instances claiming at once each take a different one
     * instead of waiting on each other), and the claim itself is a conditional update: an experiment is never
     * claimed twice. The agent's own row is locked first, so that an agent that already runs an experiment (or
     * polls twice at once) claims nothing more: an agent never runs two experiments at once.
     */
    @Transactional
    public Optional<ExperimentRecord> claimNext(Claimant agent, Instant now) {
        if (!lockIdle(agent)) {
            return Optional.empty();
        }
        // oldest first by id, as nextQueued: not by creation time, which each instance's clock wrote
        List<Claimable> candidates = jdbc.sql(CLAIMABLE + CLAIMABLE_NOW + " ORDER BY id")
                .query(this::claimable).list();
        for (Claimable c : candidates) {
            if (!c.mayBeRunBy(agent)) {
                continue;
            }
            Optional<Claimable> locked = jdbc.sql(CLAIMABLE + CLAIMABLE_NOW + " AND id = ? FOR UPDATE SKIP LOCKED")
                    .param(c.id()).query(this::claimable).optional();
            if (locked.isPresent() && locked.get().mayBeRunBy(agent) && take(locked.get(), agent, now)) {
                return find(c.id());
            }
        }
        return Optional.empty();
    }

    /** Claims queued experiment {@code id} for {@code agent}; false if it is not queued or not for this agent. */
    @Transactional
    public boolean claim(long id, Claimant agent, Instant now) {
        if (!lockIdle(agent)) {
            return false;
        }
        Optional<Claimable> c = jdbc.sql(CLAIMABLE + "WHERE id = ? AND status = 'QUEUED' FOR UPDATE SKIP LOCKED")
                .param(id).query(this::claimable).optional();
        return c.isPresent() && c.get().mayBeRunBy(agent) && take(c.get(), agent, now);
    }

    /**
     * Locks the claiming agent's row until the claim commits (claims of one agent take turns) and tells whether it
     * runs nothing now and has not left. An agent without an id (a scheduler built without a registry) runs one thing
     * at a time. A leave updates that row, so it comes wholly before a claim (which then takes nothing) or after it
     * (and ends it).
     */
    private boolean lockIdle(Claimant agent) {
        if (agent.agentId() == null) {
            return true;
        }
        Optional<String> status = jdbc.sql("SELECT status FROM agent WHERE id = ? FOR UPDATE")
                .param(agent.agentId()).query(String.class).optional();
        return !status.equals(Optional.of("LEFT")) && runningOn(agent.agentId()).isEmpty();
    }

    private Claimable claimable(ResultSet rs, int row) throws SQLException {
        Map<VariantName, Map<String, String>> options = new EnumMap<>(VariantName.class);
        for (VariantName side : VariantName.values()) {
            options.put(side, stringMap(rs.getString(side.label() + "_options")));
        }
        ExperimentKind kind = ExperimentKind.valueOf(rs.getString("kind"));
        return new Claimable(rs.getLong("id"), ExperimentStatus.valueOf(rs.getString("status")), kind,
                HostLabels.parse(rs.getString("host_labels")), rs.getString("run_labels"),
                HostNeeds.of(kind, options, targetMetrics(rs.getString("targets"))));
    }

    /**
     * The metrics of the stored targets {@code targets} (JSON, null for none). One that does not read back is left
     * out, as {@link #stopping} leaves it out, but without its warning: every claim and queue position reads it.
     */
    private List<String> targetMetrics(String targets) {
        if (targets == null) {
            return List.of();
        }
        List<String> metrics = new ArrayList<>();
        for (String text : json.readValue(targets, new TypeReference<List<String>>() { })) {
            try {
                metrics.add(SequentialStopping.Target.parse(text).metric());
            } catch (IllegalArgumentException unreadable) {
                // its experiment's own read has warned of it
            }
        }
        return metrics;
    }

    private boolean take(Claimable c, Claimant agent, Instant clock) {
        if (c.status() == ExperimentStatus.INTERRUPTED) {
            deleteCancelledRuns(c.id());
        }
        Instant now = afterLastClaim(c.id(), agent.agentId(), clock);
        boolean taken = jdbc.sql("""
                UPDATE experiment SET status = 'RUNNING', error = NULL, started_at = ?, finished_at = NULL,
                    agent_id = ?, run_labels = COALESCE(run_labels, ?), resume_on_claim = FALSE,
                    cancel_requested = FALSE
                WHERE id = ? AND status = ?""")
                .params(timestamp(now), agent.agentId(), agent.labels().canonical(), c.id(), c.status().name())
                .update() == 1;
        if (taken && agent.agentId() != null) {
            jdbc.sql("""
                    INSERT INTO experiment_claim (experiment_id, claim, agent_id, claimed_at)
                    VALUES (?, (SELECT COALESCE(MAX(claim), 0) + 1 FROM experiment_claim WHERE experiment_id = ?),
                        ?, ?)""")
                    .params(c.id(), c.id(), agent.agentId(), timestamp(now)).update();
        }
        return taken;
    }

    /**
     * When a claim begins: {@code clock}, or the end of the last claim on the experiment or of the agent if that was
     * written later. A claimant reads its clock before its transaction, which may then find the experiment claimable
     * only because another instance ended a lost agent's claim meanwhile with a later reading of its own clock; the
     * claim can only follow that end, and the history must not show the experiment on two agents at once.
     */
    private Instant afterLastClaim(long id, Long agentId, Instant clock) {
        Instant lastEnd = jdbc.sql("SELECT MAX(ended_at) AS last_end FROM experiment_claim WHERE experiment_id = ?"
                        + (agentId == null ? "" : " OR agent_id = ?"))
                .params(agentId == null ? List.of(id) : List.of(id, agentId))
                .query((rs, n) -> Optional.ofNullable(instant(rs, "last_end"))).single().orElse(null);
        return lastEnd != null && lastEnd.isAfter(clock) ? lastEnd : clock;
    }

    /**
     * Ends the claim on running experiment {@code id}: it moves to {@code to}, and its claim records how it ended.
     * Only the agent holding it may end it ({@code agentId}; null: whichever holds it).
     *
     * @param resumeOnClaim whether an agent's next claim takes it up again (an experiment whose agent was lost)
     * @return false if the experiment is not RUNNING on that agent (any more)
     */
    @Transactional
    public boolean endClaim(long id, Long agentId, ExperimentStatus to, Instant now, String error,
                            boolean resumeOnClaim) {
        return endClaim(id, agentId == null ? "" : " AND agent_id = ?", agentId, to, now, error, resumeOnClaim);
    }

    /**
     * As {@link #endClaim(long, Long, ExperimentStatus, Instant, String, boolean)}, on the condition {@code holder}
     * on the experiment's {@code agent_id}, whose parameter, if it takes one, is {@code agentId}.
     */
    private boolean endClaim(long id, String holder, Long agentId, ExperimentStatus to, Instant now, String error,
                             boolean resumeOnClaim) {
        OffsetDateTime end = timestamp(now);
        boolean ended = jdbc.sql("UPDATE experiment SET status = ?, error = ?, finished_at = " + notBefore("started_at")
                        + ", resume_on_claim = ?, cancel_requested = FALSE WHERE id = ? AND status = 'RUNNING'"
                        + holder)
                .params(params(to.name(), Texts.storable(error, 4000), end, end, resumeOnClaim, id, agentId))
                .update() == 1;
        if (ended) {
            jdbc.sql("UPDATE experiment_claim SET ended_at = " + notBefore("claimed_at")
                            + ", outcome = ? WHERE experiment_id = ? AND ended_at IS NULL")
                    .params(end, end, to.name(), id).update();
        }
        return ended;
    }

    /**
     * An end time: the parameter (given twice), or the row's {@code start} column if that is later. The instance that
     * ends a claim (a lost agent found by another instance, or the agent itself) may read a clock behind the one
     * that began it; the history must not show a claim or an experiment ending before it began.
     */
    private static String notBefore(String start) {
        return "CASE WHEN " + start + " > ? THEN " + start + " ELSE ? END";
    }

    /** Statement parameters, some of them null; a trailing null is left out (an optional last condition). */
    private static List<Object> params(Object... values) {
        List<Object> params = new ArrayList<>(java.util.Arrays.asList(values));
        if (params.get(params.size() - 1) == null) {
            params.remove(params.size() - 1);
        }
        return params;
    }

    /** Whether {@code agentId} holds running experiment {@code id} now. */
    public boolean holds(long id, long agentId) {
        return jdbc.sql("SELECT COUNT(*) FROM experiment WHERE id = ? AND status = 'RUNNING' AND agent_id = ?")
                .params(id, agentId).query(Long.class).single() == 1;
    }

    /**
     * Whether {@code agentId} holds running experiment {@code id} now (null: it runs on no registered agent), locking
     * the experiment's row until the caller's transaction ends: no other instance can end the claim (an agent
     * declared lost) between this check and what the caller stores on the strength of it.
     */
    public boolean holdsLocked(long id, Long agentId) {
        return jdbc.sql("SELECT id FROM experiment WHERE id = ? AND status = 'RUNNING' AND "
                        + (agentId == null ? "agent_id IS NULL" : "agent_id = ?") + " FOR UPDATE")
                .params(params(id, agentId)).query(Long.class).optional().isPresent();
    }

    /** Asks the agent running experiment {@code id} to cancel it; false if it is not running. */
    public boolean requestCancel(long id) {
        return jdbc.sql("UPDATE experiment SET cancel_requested = TRUE WHERE id = ? AND status = 'RUNNING'")
                .param(id).update() == 1;
    }

    /** Whether a user asked to cancel running experiment {@code id}. */
    public boolean cancelRequested(long id) {
        return jdbc.sql("SELECT cancel_requested FROM experiment WHERE id = ?").param(id).query(Boolean.class)
                .optional().orElse(false);
    }

    /** Whether agent {@code agentId} has stored a trial of experiment {@code id}, alone or in a pair. */
    public boolean hasRunsBy(long id, long agentId) {
        return jdbc.sql("SELECT COUNT(*) FROM trial_run WHERE experiment_id = ? AND agent_id = ?")
                .params(id, agentId).query(Long.class).single() > 0;
    }

    /** The running experiments of {@code agentId}. */
    public List<Long> runningOn(long agentId) {
        return jdbc.sql("SELECT id FROM experiment WHERE status = 'RUNNING' AND agent_id = ? ORDER BY id")
                .param(agentId).query(Long.class).list();
    }

    /**
     * One claim of an experiment by an agent.
     *
     * @param outcome how it ended (the status it left the experiment in), null while it runs
     */
    public record Claim(int claim, long agentId, Instant claimedAt, Instant endedAt, String outcome) {
    }

    /** Every claim of an experiment, in order: the agents that ran it. */
    public List<Claim> claims(long experimentId) {
        return jdbc.sql("SELECT claim, agent_id, claimed_at, ended_at, outcome FROM experiment_claim "
                        + "WHERE experiment_id = ? ORDER BY claim")
                .param(experimentId)
                .query((rs, n) -> new Claim(rs.getInt("claim"), rs.getLong("agent_id"), instant(rs, "claimed_at"),
                        instant(rs, "ended_at"), rs.getString("outcome")))
                .list();
    }

    /**
     * The first trial of an experiment to record its load average, by start: what {@link HostLoadCheck} reads.
     *
     * @param environment its environment
     * @param startedAt when it started
     * @param hostLastBusy when the agent that ran it last ended its claim of another experiment before that; null
     *     when it had none, or the trial names no agent
     */
    public record FirstTrial(Map<String, String> environment, Instant startedAt, Instant hostLastBusy) {
    }

    /** The first trial of {@code experimentId} to record its load average; empty before any did. */
    public Optional<FirstTrial> firstTrial(long experimentId) {
        record Row(String environment, Instant startedAt, Long agentId) {
        }
        Optional<Row> first = jdbc.sql("""
                SELECT environment, started_at, agent_id FROM trial_run
                WHERE experiment_id = ? AND environment LIKE '%"load_average"%' AND started_at IS NOT NULL
                ORDER BY started_at, ordinal FETCH FIRST 1 ROWS ONLY""")
                .param(experimentId)
                .query((rs, n) -> {
                    long agent = rs.getLong("agent_id");
                    return new Row(rs.getString("environment"), instant(rs, "started_at"),
                            rs.wasNull() ? null : agent);
                })
                .optional();
        return first.map(row -> new FirstTrial(json.readValue(row.environment(),
                new TypeReference<Map<String, String>>() { }), row.startedAt(),
                row.agentId() == null ? null : lastClaimEnded(row.agentId(), experimentId, row.startedAt())));
    }

    /** When agent {@code agentId} last ended a claim of an experiment other than {@code experimentId} before. */
    private Instant lastClaimEnded(long agentId, long experimentId, Instant before) {
        List<Instant> ended = jdbc.sql("""
                SELECT MAX(ended_at) AS last_ended FROM experiment_claim
                WHERE agent_id = ? AND experiment_id <> ? AND ended_at <= ?""")
                .params(agentId, experimentId, timestamp(before))
                .query((rs, n) -> instant(rs, "last_ended"))
                .list();
        return ended.isEmpty() ? null : ended.get(0);
    }

    /** The number of stored trials (runs) of an experiment per agent id; runs that name no agent are left out. */
    public Map<Long, Integer> runsPerAgent(long experimentId) {
        Map<Long, Integer> runs = new LinkedHashMap<>();
        jdbc.sql("SELECT agent_id, COUNT(*) FROM trial_run WHERE experiment_id = ? AND agent_id IS NOT NULL "
                        + "GROUP BY agent_id ORDER BY agent_id")
                .param(experimentId)
                .query((ResultSet rs) -> {
                    runs.put(rs.getLong(1), rs.getInt(2));
                });
        return runs;
    }

    /**
     * Deletes an experiment that has ended; false if it is not there, or is queued or running (a resume, or an agent
     * resuming it on its own, may have moved it since its status was read).
     */
    public boolean delete(long id) {
        return jdbc.sql("DELETE FROM experiment WHERE id = ? AND status NOT IN ('QUEUED', 'RUNNING')").param(id)
                .update() == 1;
    }

    private ExperimentRecord experiment(ResultSet rs, int row) throws SQLException {
        return new ExperimentRecord(rs.getLong("id"), rs.getString("name"), rs.getString("description"),
                ExperimentKind.valueOf(rs.getString("kind")), ExperimentStatus.valueOf(rs.getString("status")),
                rs.getString("preset"), rs.getString("benchmark"), rs.getInt("runs_per_variant"),
                rs.getString("run_order"), rs.getLong("seed"), rs.getInt("trial_timeout_seconds"),
                rs.getInt("max_failures"), rs.getString("created_by"), rs.getObject("created_by_token", Long.class),
                instant(rs, "created_at"),
                instant(rs, "started_at"), instant(rs, "finished_at"), rs.getInt("data_version"),
                rs.getString("error"), ExperimentDesign.parse(rs.getString("design")),
                Math.max(1, rs.getInt("windows_per_pair")), stopping(rs), rs.getString("stop_reason"),
                HostLabels.parse(rs.getString("host_labels")), rs.getObject("agent_id", Long.class),
                rs.getObject("base_experiment_id", Long.class));
    }

    /**
     * The stored targets and budget of a paired design. A target whose text does not read back (earlier releases
     * stored 1.7976e308 % rounded to 1.798e+308 %, which overflows) is left out, with a warning: its row failed
     * every read, and with it every list of experiments and the row's own deletion.
     */
    private PairedStopping stopping(ResultSet rs) throws SQLException {
        String targets = rs.getString("targets");
        int budget = rs.getInt("budget_seconds");
        Optional<Duration> limit = rs.wasNull() ? Optional.empty() : Optional.of(Duration.ofSeconds(budget));
        List<SequentialStopping.Target> parsed = new ArrayList<>();
        for (String text : targets == null ? List.<String>of()
                : json.readValue(targets, new TypeReference<List<String>>() { })) {
            try {
                parsed.add(SequentialStopping.Target.parse(text));
            } catch (IllegalArgumentException e) {
                log.warn("Experiment {}: its stored target is left out, it cannot be read: {}", rs.getLong("id"),
                        e.getMessage());
            }
        }
        return new PairedStopping(parsed, limit);
    }

    static Instant instant(ResultSet rs, String column) throws SQLException {
        OffsetDateTime value = rs.getObject(column, OffsetDateTime.class);
        return value == null ? null : value.toInstant();
    }

    static OffsetDateTime timestamp(Instant instant) {
        return instant == null ? null : instant.atOffset(ZoneOffset.UTC);
    }
}
