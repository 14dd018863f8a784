package io.perflab.experiment;

import java.util.List;

/**
 * What an experiment's row in a list shows of its results: its headline metrics' verdicts, and how many of its
 * metrics were compared and how many regressed. It is kept in the database for the experiment's data version
 * ({@link ResultsDigestRepository}), so that a list does not compare every metric of every row again after a
 * restart, or after the results cache forgot them: an upload of 3,000 metrics takes about half a second to compare
 * (Holm's adjustment needs them all before any verdict), and the home page lists 30 uploads.
 *
 * @param headline the headline metrics' verdicts, as {@link ResultsSummary#headline} chooses them
 * @param compared how many metrics have values on both sides
 * @param regressed how many metrics regressed, headline or not
 */
public record ResultsDigest(List<Badge> headline, int compared, int regressed) {

    /**
     * The form of digests this code stores. Raise it whenever a change of the analysis or of this record changes what
     * a digest holds: digests of another form are computed again when next shown.
     */
    static final int FORMAT = 3;

    public ResultsDigest {
        headline = List.copyOf(headline);
    }

    /**
     * One metric's verdict, as a list shows it.
     *
     * @param percent the change in percent; null where there is none
     * @param reason why the verdict is what it is
     */
    public record Badge(String metric, String verdict, String reason, Double percent) {
    }

    /** The digest of an experiment's comparisons. */
    static ResultsDigest of(List<MetricComparison> comparisons) {
        List<Badge> headline = ResultsSummary.headline(comparisons).stream()
                .map(c -> new Badge(c.key(), c.verdict(), c.reason(), c.change().percent()))
                .toList();
        int compared = (int) comparisons.stream().filter(MetricComparison::bothSides).count();
        int regressed = (int) comparisons.stream().filter(c -> "regressed".equals(c.verdict())).count();
        return new ResultsDigest(headline, compared, regressed);
    }

    /** The headline metrics that regressed. */
    public List<Badge> headlineRegressions() {
        return headline.stream().filter(b -> "regressed".equals(b.verdict())).toList();
    }
}
