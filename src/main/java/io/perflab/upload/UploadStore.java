package io.perflab.upload;

import io.perflab.experiment.MetricDefinition;
import java.sql.ResultSet;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.support.GeneratedKeyHolder;
import org.springframework.stereotype.Repository;
import tools.jackson.databind.json.JsonMapper;

/**
 * Writes an upload as an experiment of kind {@code UPLOAD} in the experiment tables ({@code V2__experiments.sql}):
 * its two variants, one run per sample index of each side (ordinal = position, {@code without} first), its
 * samples and its per-metric unit and direction; plus the git and machine columns and idempotency keys of
 * {@code V3__uploads_and_tokens.sql}. Callers hold the transaction.
 */
@Repository
class UploadStore {

    /** A previously stored response to an idempotency key. */
    record StoredResponse(String requestHash, long experimentId, String response) {
    }

    /** An earlier upload to compare with. */
    record BaseUpload(long experimentId, String commit, String branch) {
    }

    private final JdbcClient jdbc;
    private final JdbcTemplate jdbcTemplate;
    private final JsonMapper json;

    UploadStore(JdbcClient jdbc, JdbcTemplate jdbcTemplate, JsonMapper json) {
        this.jdbc = jdbc;
        this.jdbcTemplate = jdbcTemplate;
        this.json = json;
    }

    /** Inserts the experiment row and both variant rows; returns the experiment's id. */
    long insertExperiment(ValidUpload upload, String createdBy, Instant now) {
        GitInfo git = upload.git();
        int runsPerVariant = upload.parsed().variants().values().stream()
                .mapToInt(ValidUpload::runCount).max().orElse(0);
        GeneratedKeyHolder keys = new GeneratedKeyHolder();
        jdbc.sql("""
                INSERT INTO experiment (name, kind, status, benchmark, runs_per_variant, run_order, seed,
                    trial_timeout_seconds, max_failures, created_by, created_at, started_at, finished_at, data_version,
                    git_repository, git_branch, git_commit, git_base_commit, git_pull_request, commit_time, machine,
                    tags)
                VALUES (?, 'UPLOAD', 'COMPLETED', ?, ?, 'blocked', 0, 0, 0, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?)""")
                .params(upload.name(), upload.benchmark(), runsPerVariant, createdBy, timestamp(now),
                        timestamp(now), timestamp(now), git.repository(), git.branch(), git.commit(), git.baseCommit(),
                        git.pullRequest(), timestamp(git.commitTime()),
                        upload.parsed().machine().isEmpty() ? null : json.writeValueAsString(upload.parsed().machine()),
                        upload.parsed().tags().isEmpty() ? null : json.writeValueAsString(upload.parsed().tags()))
                .update(keys, "id");
        long id = keys.getKey().longValue();
        for (String side : List.of(ParsedUpload.WITHOUT, ParsedUpload.WITH)) {
            VariantSamples variant = upload.parsed().variants().get(side);
            jdbc.sql("INSERT INTO variant (experiment_id, name, label) VALUES (?, ?, ?)")
                    .params(id, side, variant == null ? null : variant.label())
                    .update();
        }
        return id;
    }

    /** Unit and direction of each metric of the experiment. */
    void insertMetrics(long experimentId, Map<String, MetricDefinition> metrics) {
        List<Object[]> rows = new ArrayList<>();
        metrics.forEach((key, m) -> rows.add(new Object[] {experimentId, key, m.unit(),
                m.higherIsBetter() ? "HIGHER" : "LOWER"}));
        jdbcTemplate.batchUpdate(
                "INSERT INTO experiment_metric (experiment_id, metric_key, unit, direction) VALUES (?, ?, ?, ?)", rows);
    }

    /** A run to store: side, ordinal and its samples (metric key → value). */
    record NewRun(String variant, int ordinal, Map<String, Double> samples) {
    }

    /**
     * Stores runs with their samples in three statements (two batches and one query), however many runs there
     * are; returns the run ids by ordinal.
     */
    Map<Integer, Long> insertRuns(long experimentId, List<NewRun> runs, Instant now) {
        OffsetDateTime time = timestamp(now);
        List<Object[]> runRows = new ArrayList<>();
        runs.forEach(r -> runRows.add(new Object[] {experimentId, r.variant(), r.ordinal(), time, time}));
        jdbcTemplate.batchUpdate("""
                INSERT INTO trial_run (experiment_id, variant, ordinal, status, started_at, finished_at)
                VALUES (?, ?, ?, 'OK', ?, ?)""", runRows);
        Map<Integer, Long> ids = new java.util.HashMap<>();
        jdbc.sql("SELECT ordinal, id FROM trial_run WHERE experiment_id = ?").param(experimentId)
                .query((ResultSet rs) -> {
                    ids.put(rs.getInt(1), rs.getLong(2));
                });
        List<Object[]> sampleRows = new ArrayList<>();
        for (NewRun run : runs) {
            long runId = ids.get(run.ordinal());
            run.samples().forEach((key, value) -> sampleRows.add(new Object[] {runId, key, value}));
        }
        jdbcTemplate.batchUpdate("INSERT INTO sample (run_id, metric_key, metric_value) VALUES (?, ?, ?)", sampleRows);
        return ids;
    }

    Optional<StoredResponse> storedResponse(String principal, String key) {
        return jdbc.sql("SELECT request_hash, experiment_id, response FROM upload_idempotency "
                        + "WHERE principal = ? AND idem_key = ?")
                .params(principal, key)
                .query((ResultSet rs, int n) -> new StoredResponse(rs.getString(1), rs.getLong(2), rs.getString(3)))
                .optional();
    }

    /** Fails with a duplicate-key error when the key was stored meanwhile (the caller's transaction rolls back). */
    void storeResponse(String principal, String key, String requestHash, long experimentId, String response,
            Instant now) {
        jdbc.sql("""
                INSERT INTO upload_idempotency (principal, idem_key, request_hash, experiment_id, response, created_at)
                VALUES (?, ?, ?, ?, ?, ?)""")
                .params(principal, key, requestHash, experimentId, response, timestamp(now))
                .update();
    }

    /** The latest earlier upload of {@code benchmark} at {@code commit}. */
    Optional<BaseUpload> latestAtCommit(String benchmark, String commit, long excludeId) {
        return jdbc.sql("""
                SELECT id, git_commit, git_branch FROM experiment
                WHERE kind = 'UPLOAD' AND benchmark = ? AND git_commit = ? AND id <> ?
                ORDER BY id DESC FETCH FIRST 1 ROWS ONLY""")
                .params(benchmark, commit, excludeId)
                .query((rs, n) -> new BaseUpload(rs.getLong(1), rs.getString(2), rs.getString(3)))
                .optional();
    }

    /**
     * The latest earlier upload of {@code benchmark} on one of {@code branches}: by commit time (not after
     * {@code notAfter} when given), then by id.
     */
    Optional<BaseUpload> latestOnBranch(String benchmark, List<String> branches, String repository,
            Instant notAfter, long excludeId) {
        StringBuilder sql = new StringBuilder("SELECT id, git_commit, git_branch FROM experiment "
                + "WHERE kind = 'UPLOAD' AND benchmark = ? AND id <> ? AND git_branch IN (");
        List<Object> params = new ArrayList<>(List.of(benchmark, excludeId));
        for (int i = 0; i < branches.size(); i++) {
            sql.append(i == 0 ? "?" : ", ?");
            params.add(branches.get(i));
        }
        sql.append(")");
        if (repository != null) {
            sql.append(" AND (git_repository = ? OR git_repository IS NULL)");
            params.add(repository);
        }
        if (notAfter != null) {
            sql.append(" AND (commit_time IS NULL OR commit_time <= ?)");
            params.add(timestamp(notAfter));
        }
        sql.append(" ORDER BY CASE WHEN commit_time IS NULL THEN 1 ELSE 0 END, commit_time DESC, id DESC "
                + "FETCH FIRST 1 ROWS ONLY");
        return jdbc.sql(sql.toString()).params(params)
                .query((rs, n) -> new BaseUpload(rs.getLong(1), rs.getString(2), rs.getString(3)))
                .optional();
    }

    private static OffsetDateTime timestamp(Instant instant) {
        return instant == null ? null : instant.atOffset(ZoneOffset.UTC);
    }
}
