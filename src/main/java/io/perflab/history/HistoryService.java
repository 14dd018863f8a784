package io.perflab.history;

import io.perflab.experiment.MetricDefinition;
import io.perflab.stats.ChangePoint;
import io.perflab.stats.EDivisive;
import io.perflab.system.ApiProblem;
import java.sql.ResultSet;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.commons.math3.distribution.TDistribution;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;

/**
 * Benchmark histories: per upload of a benchmark, the mean of one metric, in commit-time order, and the change
 * points E-divisive finds in that series of means.
 *
 * <p>The detector runs with level 0.05, 199 permutations and segments of at least 3 uploads (the statistics
 * package's defaults, 0.01 and 5, suit long series; a CI history is often a dozen points, where a 5-point minimum
 * cannot see a change in the last four, and with 10 points the smallest possible permutation p is about 0.01).
 */
@Service
public class HistoryService {

    static final EDivisive DETECTOR = new EDivisive(0.05, 199, 3, 1);

    private final JdbcClient jdbc;

    HistoryService(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    public List<BenchmarkSummary> benchmarks() {
        Map<String, TreeSet<String>> branches = new LinkedHashMap<>();
        jdbc.sql("SELECT DISTINCT benchmark, git_branch FROM experiment WHERE kind = 'UPLOAD' AND git_branch IS NOT NULL")
                .query((ResultSet rs) -> {
                    branches.computeIfAbsent(rs.getString(1), k -> new TreeSet<>()).add(rs.getString(2));
                });
        return jdbc.sql("""
                SELECT benchmark, COUNT(*), MAX(created_at), MAX(id) FROM experiment
                WHERE kind = 'UPLOAD' AND benchmark IS NOT NULL GROUP BY benchmark ORDER BY benchmark""")
                .query((rs, n) -> new BenchmarkSummary(rs.getString(1), rs.getLong(2),
                        List.copyOf(branches.getOrDefault(rs.getString(1), new TreeSet<>())),
                        rs.getObject(3, OffsetDateTime.class).toInstant(), rs.getLong(4)))
                .list();
    }

    /** Metric keys of the benchmark's uploads, sorted. */
    public List<String> metrics(String benchmark) {
        return jdbc.sql("""
                SELECT DISTINCT m.metric_key FROM experiment_metric m JOIN experiment e ON e.id = m.experiment_id
                WHERE e.kind = 'UPLOAD' AND e.benchmark = ? ORDER BY m.metric_key""")
                .param(benchmark).query(String.class).list();
    }

    private record Upload(long id, String commit, String branch, Instant commitTime, Instant createdAt) {
    }

    /**
     * @param metric the metric, or null for the benchmark's first (sorted) metric
     * @param branch only uploads on this branch, or null for all
     * @param baseUrl the server's address, for links
     */
    public History history(String benchmark, String metric, String branch, String baseUrl) {
        List<String> metrics = metrics(benchmark);
        if (metrics.isEmpty()) {
            throw ApiProblem.notFound("There are no uploads of the benchmark '" + benchmark + "'; GET "
                    + "/api/v1/benchmarks lists the benchmarks.");
        }
        String chosen = metric == null || metric.isBlank() ? metrics.get(0) : metric;
        if (!metrics.contains(chosen)) {
            throw ApiProblem.badRequest("The benchmark '" + benchmark + "' has no metric '" + chosen + "'; it has: "
                    + String.join(", ", metrics) + ".");
        }
        StringBuilder sql = new StringBuilder("""
                SELECT id, git_commit, git_branch, commit_time, created_at FROM experiment
                WHERE kind = 'UPLOAD' AND benchmark = ?""");
        List<Object> params = new ArrayList<>(List.of(benchmark));
        if (branch != null && !branch.isBlank()) {
            sql.append(" AND git_branch = ?");
            params.add(branch);
        }
        sql.append(" ORDER BY CASE WHEN commit_time IS NULL THEN 1 ELSE 0 END, commit_time, created_at, id");
        List<Upload> uploads = jdbc.sql(sql.toString()).params(params)
                .query((rs, n) -> new Upload(rs.getLong(1), rs.getString(2), rs.getString(3), instant(rs, 4),
                        instant(rs, 5)))
                .list();
        Map<Long, Map<String, List<Double>>> values = values(benchmark, chosen, branch);
        List<HistoryPoint> points = new ArrayList<>();
        for (Upload u : uploads) {
            Map<String, List<Double>> sides = values.get(u.id());
            if (sides == null) {
                continue;
            }
            List<Double> sample = sides.containsKey("with") ? sides.get("with") : sides.get("without");
            points.add(point(u, sample, baseUrl));
        }
        MetricDefinition definition = definition(benchmark, chosen);
        return new History(benchmark, chosen, definition.unit(), definition.higherIsBetter() ? "higher" : "lower",
                branch == null || branch.isBlank() ? null : branch, metrics, points, changePoints(points),
                "E-divisive means, level " + DETECTOR.significanceLevel() + ", " + DETECTOR.permutations()
                        + " permutations, segments of at least " + DETECTOR.minSegment() + " points");
    }

    private Map<Long, Map<String, List<Double>>> values(String benchmark, String metric, String branch) {
        String sql = """
                SELECT r.experiment_id, r.variant, s.metric_value FROM sample s
                JOIN trial_run r ON r.id = s.run_id JOIN experiment e ON e.id = r.experiment_id
                WHERE e.kind = 'UPLOAD' AND e.benchmark = ? AND s.metric_key = ? AND r.status = 'OK'"""
                + (branch == null || branch.isBlank() ? "" : " AND e.git_branch = ?")
                + " ORDER BY r.experiment_id, r.ordinal";
        List<Object> params = new ArrayList<>(List.of(benchmark, metric));
        if (branch != null && !branch.isBlank()) {
            params.add(branch);
        }
        Map<Long, Map<String, List<Double>>> values = new LinkedHashMap<>();
        jdbc.sql(sql).params(params).query((ResultSet rs) -> {
            values.computeIfAbsent(rs.getLong(1), k -> new LinkedHashMap<>())
                    .computeIfAbsent(rs.getString(2), k -> new ArrayList<>()).add(rs.getDouble(3));
        });
        return values;
    }

    /** The unit and direction of the latest upload that has the metric. */
    private MetricDefinition definition(String benchmark, String metric) {
        return jdbc.sql("""
                SELECT m.unit, m.direction FROM experiment_metric m JOIN experiment e ON e.id = m.experiment_id
                WHERE e.kind = 'UPLOAD' AND e.benchmark = ? AND m.metric_key = ? ORDER BY e.id DESC
                FETCH FIRST 1 ROWS ONLY""")
                .params(benchmark, metric)
                .query((rs, n) -> new MetricDefinition(metric, rs.getString(1), "HIGHER".equals(rs.getString(2)), 0, ""))
                .single();
    }

    /** Mean with a 95 % Student-t interval: mean ± t(0.975, n−1)·s/√n. */
    static HistoryPoint point(Upload u, List<Double> sample, String baseUrl) {
        int n = sample.size();
        double mean = sample.stream().mapToDouble(Double::doubleValue).sum() / n;
        Double low = null;
        Double high = null;
        if (n >= 2) {
            double ss = 0;
            for (double v : sample) {
                ss += (v - mean) * (v - mean);
            }
            double halfWidth = new TDistribution(null, n - 1).inverseCumulativeProbability(0.975)
                    * Math.sqrt(ss / (n - 1) / n);
            low = mean - halfWidth;
            high = mean + halfWidth;
        }
        return new HistoryPoint(u.commit(), u.branch(), u.commitTime(), u.createdAt(), mean, low, high, n, u.id(),
                baseUrl + "/experiments/" + u.id());
    }

    static List<HistoryChangePoint> changePoints(List<HistoryPoint> points) {
        if (points.size() < 2 * DETECTOR.minSegment()) {
            return List.of();
        }
        double[] series = points.stream().mapToDouble(HistoryPoint::mean).toArray();
        List<HistoryChangePoint> found = new ArrayList<>();
        for (ChangePoint c : DETECTOR.detect(series)) {
            HistoryPoint at = points.get(c.index());
            Double percent = c.meanBefore() == 0 ? null : 100 * (c.meanAfter() / c.meanBefore() - 1);
            found.add(new HistoryChangePoint(c.index(), at.commit(), at.experimentId(), c.meanBefore(),
                    c.meanAfter(), percent, c.pValue()));
        }
        return found;
    }

    private static Instant instant(ResultSet rs, int column) throws java.sql.SQLException {
        OffsetDateTime value = rs.getObject(column, OffsetDateTime.class);
        return value == null ? null : value.toInstant();
    }
}
