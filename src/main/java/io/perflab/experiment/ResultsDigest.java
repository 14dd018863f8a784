package io.perflab.experiment;

import io.perflab.stats.Verdict;
import io.perflab.system.ApiValues;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.List;

/**
 * What an experiment's row in a list shows of its results: its headline metrics' verdicts, and how many of its
 * metrics were compared and how many regressed. It is kept in the database for the experiment's data version
 * ({@link ResultsDigestRepository}), so that a list does not compare every metric of every row again after a
 * restart, or after the results cache forgot them: an upload of 3,000 metrics takes about half a second to compare
 * (Holm's adjustment needs them all before any verdict), and the home page lists 30 uploads.
 *
 * <p>An upload of one side has nothing to compare within itself; where it was compared with a base when it came in
 * ({@link BaseComparison}), its digest is that comparison's, and says which base it is against.
 *
 * @param headline the headline metrics' verdicts, as {@link ResultsSummary#headline} chooses them
 * @param compared how many metrics have values on both sides
 * @param regressed how many metrics regressed, headline or not
 * @param baseExperimentId the base upload these figures compare the experiment with; null when they compare its own
 *     two sides
 * @param baseCommit the base's commit, or null
 */
public record ResultsDigest(List<Badge> headline, int compared, int regressed,
                            @Schema(nullable = true, description = "the base upload these figures compare the "
                                    + "experiment with; null when they compare its own two sides")
                            Long baseExperimentId,
                            @Schema(nullable = true, description = "the base's commit") String baseCommit) {

    /**
     * The form of digests this code stores. Raise it whenever a change of the analysis or of this record changes what
     * a digest holds: digests of another form are computed again when next shown. 4: an upload of one side with a
     * base is digested by its comparison with that base.
     */
    static final int FORMAT = 4;

    public ResultsDigest {
        headline = List.copyOf(headline);
    }

    /** The digest of an experiment's own two sides. */
    public ResultsDigest(List<Badge> headline, int compared, int regressed) {
        this(headline, compared, regressed, null, null);
    }

    /**
     * One metric's verdict, as a list shows it.
     *
     * @param percent the change in percent; null where there is none
     * @param reason why the verdict is what it is
     */
    public record Badge(String metric,
                        @ApiValues(value = Verdict.class, written = "label", also = MetricComparison.NOT_COMPARED)
                        String verdict, String reason, Double percent) {
    }

    /** The digest of an experiment's comparisons. */
    static ResultsDigest of(List<MetricComparison> comparisons) {
        return of(comparisons, null, null);
    }

    /** The digest of an upload of one side: its comparison with its base. */
    static ResultsDigest of(BaseComparison base) {
        return of(base.comparison(), base.baseExperimentId(), base.baseCommit());
    }

    private static ResultsDigest of(List<MetricComparison> comparisons, Long baseExperimentId, String baseCommit) {
        List<Badge> headline = ResultsSummary.headline(comparisons).stream()
                .map(c -> new Badge(c.key(), c.verdict(), c.reason(), c.change().percent()))
                .toList();
        int compared = (int) comparisons.stream().filter(MetricComparison::bothSides).count();
        int regressed = (int) comparisons.stream().filter(c -> "regressed".equals(c.verdict())).count();
        return new ResultsDigest(headline, compared, regressed, baseExperimentId, baseCommit);
    }

    /** The headline metrics that regressed. */
    public List<Badge> headlineRegressions() {
        return headline.stream().filter(b -> "regressed".equals(b.verdict())).toList();
    }

    /** Whether these figures compare the experiment with a base upload rather than its own two sides. */
    public boolean againstBase() {
        return baseExperimentId != null;
    }
}
