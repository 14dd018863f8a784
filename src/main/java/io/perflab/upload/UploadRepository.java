package io.perflab.upload;

import java.sql.ResultSet;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * What uploads need beside the experiments they are stored as: the responses kept under idempotency keys, and
 * the earlier uploads of a benchmark to compare with ({@code V3__uploads_and_tokens.sql}). Callers hold the
 * transaction.
 */
@Repository
class UploadRepository {

    /** A previously stored response to an idempotency key. */
    record StoredResponse(String requestHash, long experimentId, String response) {
    }

    /** An earlier upload to compare with. */
    record BaseUpload(long experimentId, String commit, String branch) {
    }

    private final JdbcClient jdbc;

    UploadRepository(JdbcClient jdbc) {
        this.jdbc = jdbc;
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
