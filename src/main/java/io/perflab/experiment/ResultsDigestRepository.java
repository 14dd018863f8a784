package io.perflab.experiment;

import java.sql.ResultSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * Results digests (table {@code results_digest} of {@code V17__results_digest.sql}): one per experiment, for the
 * data version and {@link ResultsDigest#FORMAT} it was computed for. A digest of another version or form is not
 * found, and the next one stored replaces it.
 */
@Repository
class ResultsDigestRepository {

    /** The column's width; a digest longer than this (reasons of unusual length) is computed each time instead. */
    static final int MAX_LENGTH = 16_000;

    private final JdbcClient jdbc;
    private final JsonMapper json;

    ResultsDigestRepository(JdbcClient jdbc, JsonMapper json) {
        this.jdbc = jdbc;
        this.json = json;
    }

    /** The digest stored for this data version in this code's form; none where a stored one does not read back. */
    Optional<ResultsDigest> find(long experimentId, int dataVersion) {
        return jdbc.sql("""
                SELECT digest FROM results_digest WHERE experiment_id = ? AND data_version = ? AND digest_format = ?""")
                .params(experimentId, dataVersion, ResultsDigest.FORMAT)
                .query(String.class).optional()
                .flatMap(this::read);
    }

    /**
     * The digests stored for {@code experiments}, each for its data version in this code's form, by experiment id:
     * one query for a list's page. One that does not read back is left out.
     */
    Map<Long, ResultsDigest> findAll(List<ExperimentRecord> experiments) {
        if (experiments.isEmpty()) {
            return Map.of();
        }
        Map<Long, Integer> versions = new HashMap<>();
        experiments.forEach(e -> versions.put(e.id(), e.dataVersion()));
        Map<Long, ResultsDigest> found = new HashMap<>();
        jdbc.sql("SELECT experiment_id, data_version, digest FROM results_digest WHERE experiment_id IN (:ids) "
                        + "AND digest_format = :format")
                .param("ids", List.copyOf(versions.keySet())).param("format", ResultsDigest.FORMAT)
                .query((ResultSet rs) -> {
                    long id = rs.getLong("experiment_id");
                    if (versions.get(id) == rs.getInt("data_version")) {
                        read(rs.getString("digest")).ifPresent(digest -> found.put(id, digest));
                    }
                });
        return found;
    }

    private Optional<ResultsDigest> read(String text) {
        try {
            return Optional.of(json.readValue(text, ResultsDigest.class));
        } catch (JacksonException unreadable) {
            // a digest is only ever computed again from the samples: a damaged one costs that, not the page
            return Optional.empty();
        }
    }

    /**
     * Keeps {@code digest} as the experiment's for {@code dataVersion}. Whichever of two instances storing the same
     * experiment's digest at once comes second finds the row there and replaces it; both computed it from the same
     * data. Nothing is stored for an experiment deleted meanwhile.
     */
    void store(long experimentId, int dataVersion, ResultsDigest digest) {
        String text = json.writeValueAsString(digest);
        if (text.length() > MAX_LENGTH) {
            return;
        }
        for (int attempt = 0; attempt < 2; attempt++) {
            if (jdbc.sql("UPDATE results_digest SET data_version = ?, digest_format = ?, digest = ? "
                            + "WHERE experiment_id = ?")
                    .params(dataVersion, ResultsDigest.FORMAT, text, experimentId).update() == 1) {
                return;
            }
            try {
                jdbc.sql("""
                        INSERT INTO results_digest (experiment_id, data_version, digest_format, digest)
                        SELECT id, ?, ?, ? FROM experiment WHERE id = ?""")
                        .params(dataVersion, ResultsDigest.FORMAT, text, experimentId).update();
                return;
            } catch (DuplicateKeyException raced) {
                // another instance stored it between the two statements: replace theirs
            }
        }
    }
}
