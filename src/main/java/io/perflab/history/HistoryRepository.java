package io.perflab.history;

import io.perflab.experiment.MetricDefinition;
import io.perflab.experiment.SampleSeries;
import io.perflab.system.SqlPatterns;
import java.sql.ResultSet;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.BiConsumer;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The queries behind benchmark histories: uploads of a benchmark by commit time and their samples of a metric. */
@Repository
class HistoryRepository {

    /** One upload of a benchmark. */
    record Upload(long id, String commit, String branch, Instant commitTime, Instant createdAt) {
    }

    private final JdbcClient jdbc;

    HistoryRepository(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * One page of the benchmarks that have uploads, by name, with their branches.
     *
     * @param nameContains only names containing this text, any case; null or blank for all
     */
    List<BenchmarkSummary> benchmarks(String nameContains, int page, int size) {
        Map<String, Object> params = new LinkedHashMap<>();
        String where = benchmarkFilter(nameContains, params);
        params.put("limit", size);
        params.put("offset", (long) page * size);
        List<BenchmarkSummary> rows = jdbc.sql("SELECT benchmark, COUNT(*), MAX(created_at), MAX(id) FROM experiment "
                        + where + " GROUP BY benchmark ORDER BY benchmark LIMIT :limit OFFSET :offset")
                .params(params)
                .query((rs, n) -> new BenchmarkSummary(rs.getString(1), rs.getLong(2), List.of(),
                        rs.getObject(3, OffsetDateTime.class).toInstant(), rs.getLong(4)))
                .list();
        if (rows.isEmpty()) {
            return rows;
        }
        Map<String, TreeSet<String>> branches = new LinkedHashMap<>();
        jdbc.sql("""
                SELECT DISTINCT benchmark, git_branch FROM experiment
                WHERE kind = 'UPLOAD' AND benchmark IN (:names) AND git_branch IS NOT NULL""")
                .param("names", rows.stream().map(BenchmarkSummary::name).toList())
                .query((ResultSet rs) -> {
                    branches.computeIfAbsent(rs.getString(1), k -> new TreeSet<>()).add(rs.getString(2));
                });
        return rows.stream()
                .map(b -> new BenchmarkSummary(b.name(), b.uploads(),
                        List.copyOf(branches.getOrDefault(b.name(), new TreeSet<>())), b.lastUploadAt(),
                        b.latestExperimentId()))
                .toList();
    }

    /** How many benchmarks have uploads (whose names contain {@code nameContains}, when given). */
    long countBenchmarks(String nameContains) {
        Map<String, Object> params = new LinkedHashMap<>();
        String where = benchmarkFilter(nameContains, params);
        return jdbc.sql("SELECT COUNT(DISTINCT benchmark) FROM experiment " + where).params(params)
                .query(Long.class).single();
    }

    private static String benchmarkFilter(String nameContains, Map<String, Object> params) {
        String where = "WHERE kind = 'UPLOAD' AND benchmark IS NOT NULL";
        if (nameContains == null || nameContains.isBlank()) {
            return where;
        }
        params.put("name", SqlPatterns.contains(SqlPatterns.caseFolded(nameContains)));
        return where + " AND benchmark_folded LIKE :name ESCAPE '\\'";
    }

    /** The branches the benchmark's uploads name, sorted. */
    List<String> branches(String benchmark) {
        return jdbc.sql("""
                SELECT DISTINCT git_branch FROM experiment
                WHERE kind = 'UPLOAD' AND benchmark = ? AND git_branch IS NOT NULL ORDER BY git_branch""")
                .param(benchmark).query(String.class).list();
    }

    /** Metric keys of the benchmark's uploads, sorted. */
    List<String> metrics(String benchmark) {
        return jdbc.sql("""
                SELECT DISTINCT m.metric_key FROM experiment_metric m JOIN experiment e ON e.id = m.experiment_id
                WHERE e.kind = 'UPLOAD' AND e.benchmark = ? ORDER BY m.metric_key""")
                .param(benchmark).query(String.class).list();
    }

    /** The benchmark's uploads (on {@code branch}, when given) by commit time, those without one last. */
    List<Upload> uploads(String benchmark, String branch) {
        StringBuilder sql = new StringBuilder("""
                SELECT id, git_commit, git_branch, commit_time, created_at FROM experiment
                WHERE kind = 'UPLOAD' AND benchmark = ?""");
        List<Object> params = new ArrayList<>(List.of(benchmark));
        if (branch != null) {
            sql.append(" AND git_branch = ?");
            params.add(branch);
        }
        sql.append(" ORDER BY CASE WHEN commit_time IS NULL THEN 1 ELSE 0 END, commit_time, created_at, id");
        return jdbc.sql(sql.toString()).params(params)
                .query((rs, n) -> new Upload(rs.getLong(1), rs.getString(2), rs.getString(3), instant(rs, 4),
                        instant(rs, 5)))
                .list();
    }

    /**
     * Hands {@code each} the successful runs' values of {@code metric} by side, in run order, of each of the uploads
     * {@code ids}, one upload at a time (the queries are ordered by upload), so that a long history never holds more
     * than one upload's values. An upload's values are either rows of {@code sample} (stored before V11) or packed
     * series.
     *
     * @param ids the uploads, at most a page of them ({@link io.perflab.system.ApiPage#MAX_SIZE})
     */
    void forEachUpload(Collection<Long> ids, String metric, BiConsumer<Long, Map<String, List<Double>>> each) {
        if (ids.isEmpty()) {
            return;
        }
        Map<String, Object> params = Map.of("ids", ids, "metric", metric);
        UploadGroups rows = new UploadGroups(each);
        jdbc.sql("""
                SELECT r.experiment_id, r.variant, s.metric_value FROM sample s JOIN trial_run r ON r.id = s.run_id
                WHERE r.experiment_id IN (:ids) AND s.metric_key = :metric AND r.status = 'OK'
                ORDER BY r.experiment_id, r.ordinal""")
                .params(params)
                .query((ResultSet rs) -> {
                    rows.side(rs.getLong(1), rs.getString(2)).add(rs.getDouble(3));
                });
        rows.flush();
        UploadGroups packed = new UploadGroups(each);
        jdbc.sql("""
                SELECT experiment_id, variant, value_count, sample_values FROM sample_series
                WHERE experiment_id IN (:ids) AND metric_key = :metric ORDER BY experiment_id, first_ordinal""")
                .params(params)
                .query((ResultSet rs) -> {
                    List<Double> side = packed.side(rs.getLong(1), rs.getString(2));
                    for (double value : SampleSeries.values(rs.getString(4), rs.getInt(3))) {
                        side.add(value);
                    }
                });
        packed.flush();
    }

    /** Rows ordered by upload, gathered upload by upload. */
    private static final class UploadGroups {
        private final BiConsumer<Long, Map<String, List<Double>>> each;
        private long upload = -1;
        private Map<String, List<Double>> sides = new LinkedHashMap<>();

        UploadGroups(BiConsumer<Long, Map<String, List<Double>>> each) {
            this.each = each;
        }

        List<Double> side(long id, String variant) {
            if (id != upload) {
                flush();
                upload = id;
            }
            return sides.computeIfAbsent(variant, k -> new ArrayList<>());
        }

        void flush() {
            if (!sides.isEmpty()) {
                each.accept(upload, sides);
                sides = new LinkedHashMap<>();
            }
        }
    }

    /** The unit and direction of {@code metric} in each upload of {@code benchmark} that has it, by upload. */
    Map<Long, MetricDefinition> definitions(String benchmark, String metric) {
        Map<Long, MetricDefinition> definitions = new LinkedHashMap<>();
        jdbc.sql("""
                SELECT m.experiment_id, m.unit, m.direction FROM experiment_metric m
                JOIN experiment e ON e.id = m.experiment_id
                WHERE e.kind = 'UPLOAD' AND e.benchmark = ? AND m.metric_key = ?""")
                .params(benchmark, metric)
                .query((ResultSet rs) -> {
                    definitions.put(rs.getLong(1), new MetricDefinition(metric, rs.getString(2),
                            "HIGHER".equals(rs.getString(3)), 0, ""));
                });
        return definitions;
    }

    /** The unit and direction of the latest upload that has the metric. */
    MetricDefinition definition(String benchmark, String metric) {
        return jdbc.sql("""
                SELECT m.unit, m.direction FROM experiment_metric m JOIN experiment e ON e.id = m.experiment_id
                WHERE e.kind = 'UPLOAD' AND e.benchmark = ? AND m.metric_key = ? ORDER BY e.id DESC
                FETCH FIRST 1 ROWS ONLY""")
                .params(benchmark, metric)
                .query((rs, n) -> new MetricDefinition(metric, rs.getString(1), "HIGHER".equals(rs.getString(2)),
                        0, ""))
                .single();
    }

    private static Instant instant(ResultSet rs, int column) throws java.sql.SQLException {
        OffsetDateTime value = rs.getObject(column, OffsetDateTime.class);
        return value == null ? null : value.toInstant();
    }
}
