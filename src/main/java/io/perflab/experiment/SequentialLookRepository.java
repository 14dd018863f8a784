package io.perflab.experiment;

import io.perflab.paired.SequentialStopping;
import io.perflab.stats.SequentialLook;
import io.perflab.system.ApiValues;
import io.perflab.system.Texts;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The looks of a paired experiment's sequential stopping rule (table {@code sequential_look} of
 * {@code V7__paired_designs.sql}, its futility bound since {@code V33}): each look at each target metric, as the page
 * and the reports show them, and the pairs at every earlier look, which a resumed experiment's rule needs to spend α
 * where it left off.
 */
@Repository
public class SequentialLookRepository {

    private final JdbcClient jdbc;

    SequentialLookRepository(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * One stored look.
     *
     * @param metric the target's metric
     * @param look 1, 2, … per metric
     * @param pairs the pairs analysed at this look
     * @param plannedPairs N, the pairs α is spent over
     * @param target the target as written, e.g. {@code cpu_us_per_req:1.5%}
     * @param percent the change at this look, with its repeated confidence interval; null where not finite
     * @param halfWidthPercent the repeated interval's relative half-width
     * @param t the t statistic of the pair log ratios
     * @param tBoundary the boundary |t| had to reach; null when this look spent no α (+∞)
     * @param tFutility the futility bound: the target was futile with |t| below it; null where the look had none (no
     *     smallest change in the target, too few pairs, the last look, a significant look, or a look stored before
     *     the bounds were) or it was +∞
     * @param outcome {@code CONTINUE}, {@code SIGNIFICANT}, {@code PRECISE_ENOUGH}, {@code LAST_LOOK} or {@code FUTILE}
     * @param description the look in one line, as the command line prints it
     */
    public record LookRecord(String metric, int look, int pairs, int plannedPairs, String target, Double percent,
                             Double ciLowPercent, Double ciHighPercent, Double halfWidthPercent, Double t,
                             Double tBoundary, Double tFutility,
                             @ApiValues(SequentialLook.Outcome.class) String outcome,
                             String description) {

        /** A look as it is stored. */
        static LookRecord of(SequentialStopping.Look made) {
            SequentialLook l = made.look();
            return new LookRecord(made.target().metric(), l.look(), l.pairs(),
                    (int) Math.round(l.pairs() / l.informationFraction()), made.target().toString(),
                    finite(l.relativeChange().percent()), finite(l.relativeChange().ciLowPercent()),
                    finite(l.relativeChange().ciHighPercent()), finite(l.halfWidthPercent()), finite(l.t()),
                    finite(l.tBoundary()), finite(l.tFutility()), l.outcome().name(), truncate(made.describe()));
        }

        /** |t|, as it is compared with the boundary; null when not finite. */
        public Double absT() {
            return t == null ? null : Math.abs(t);
        }
    }

    /** Stores the looks made after one pair. */
    public void save(long experimentId, List<SequentialStopping.Look> looks) {
        for (SequentialStopping.Look made : looks) {
            LookRecord l = LookRecord.of(made);
            jdbc.sql("""
                    INSERT INTO sequential_look (experiment_id, metric_key, look, pairs, planned_pairs, target,
                        percent, ci_low_percent, ci_high_percent, half_width_percent, t, t_boundary, t_futility,
                        outcome, description)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""")
                    .params(experimentId, l.metric(), l.look(), l.pairs(), l.plannedPairs(), l.target(),
                            l.percent(), l.ciLowPercent(), l.ciHighPercent(), l.halfWidthPercent(), l.t(),
                            l.tBoundary(), l.tFutility(), l.outcome(), l.description())
                    .update();
        }
    }

    private static final String LOOK_COLUMNS = """
            metric_key, look, pairs, planned_pairs, target, percent, ci_low_percent, ci_high_percent,
                half_width_percent, t, t_boundary, t_futility, outcome, description""";

    /** Every look of an experiment, in the order they were made. */
    public List<LookRecord> looks(long experimentId) {
        return jdbc.sql("SELECT " + LOOK_COLUMNS + " FROM sequential_look WHERE experiment_id = ? "
                        + "ORDER BY pairs, metric_key")
                .param(experimentId)
                .query((rs, n) -> look(rs))
                .list();
    }

    /**
     * Every look of each of {@code experimentIds} (a list's page), in the order they were made, by experiment; none
     * for one without looks. One query however many they are.
     */
    public Map<Long, List<LookRecord>> looks(Collection<Long> experimentIds) {
        if (experimentIds.isEmpty()) {
            return Map.of();
        }
        Map<Long, List<LookRecord>> looks = new HashMap<>();
        jdbc.sql("SELECT experiment_id, " + LOOK_COLUMNS + " FROM sequential_look WHERE experiment_id IN (:ids) "
                        + "ORDER BY experiment_id, pairs, metric_key")
                .param("ids", List.copyOf(experimentIds))
                .query((ResultSet rs) -> {
                    looks.computeIfAbsent(rs.getLong("experiment_id"), id -> new ArrayList<>()).add(look(rs));
                });
        return looks;
    }

    private static LookRecord look(ResultSet rs) throws SQLException {
        return new LookRecord(rs.getString("metric_key"), rs.getInt("look"), rs.getInt("pairs"),
                rs.getInt("planned_pairs"), rs.getString("target"), rs.getObject("percent", Double.class),
                rs.getObject("ci_low_percent", Double.class), rs.getObject("ci_high_percent", Double.class),
                rs.getObject("half_width_percent", Double.class), rs.getObject("t", Double.class),
                rs.getObject("t_boundary", Double.class), rs.getObject("t_futility", Double.class),
                rs.getString("outcome"), rs.getString("description"));
    }

    /** Per target metric, the pairs at each of its stored looks, in order. */
    public Map<String, List<Integer>> pairsAtLooks(long experimentId) {
        Map<String, List<Integer>> pairs = new LinkedHashMap<>();
        looks(experimentId).forEach(l -> pairs.computeIfAbsent(l.metric(), k -> new java.util.ArrayList<>())
                .add(l.pairs()));
        return pairs;
    }

    /**
     * Every look of an experiment as a rule going on from them takes them ({@link SequentialStopping#continuing(List,
     * int)}), in the order they were made.
     */
    public List<SequentialStopping.EarlierLook> earlierLooks(long experimentId) {
        return looks(experimentId).stream().map(l -> new SequentialStopping.EarlierLook(l.metric(), l.look(),
                l.pairs(), orNaN(l.percent()), orNaN(l.ciLowPercent()), orNaN(l.ciHighPercent()),
                orNaN(l.halfWidthPercent()), io.perflab.stats.SequentialLook.Outcome.valueOf(l.outcome()))).toList();
    }

    private static double orNaN(Double value) {
        return value == null ? Double.NaN : value;
    }

    /** N of the last stored look: what a resumed rule spends α over; empty before the first look. */
    public java.util.Optional<Integer> plannedPairs(long experimentId) {
        List<LookRecord> all = looks(experimentId);
        return all.isEmpty() ? java.util.Optional.empty()
                : java.util.Optional.of(all.get(all.size() - 1).plannedPairs());
    }

    private static Double finite(double value) {
        return Double.isFinite(value) ? value : null;
    }

    private static String truncate(String text) {
        return Texts.cut(text, 2000);
    }
}
