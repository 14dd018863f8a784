package io.perflab.report;

import io.perflab.experiment.ExperimentView;
import io.perflab.experiment.FailedPair;
import io.perflab.experiment.MethodNotes;
import io.perflab.experiment.MetricComparison;
import io.perflab.experiment.MetricPage;
import io.perflab.experiment.ResultCharts;
import io.perflab.experiment.ResultsSummary;
import io.perflab.experiment.RunEnvironment;
import io.perflab.experiment.RunRecord;
import io.perflab.experiment.UploadDetails;
import io.perflab.runner.experiment.VariantName;
import io.perflab.runner.trial.TrialResult;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Everything one exported report shows, read once so that the three formats agree: the experiment as the API
 * shows it, the summary of its results, the metrics it lists, its runs with the samples of the metrics it plots,
 * and what an upload's tool said besides.
 *
 * <p>A report stays small however many metrics an upload brought: it lists at most {@value #LISTED} metrics
 * (headline metrics first) and plots, tests in R's words and embeds the samples of at most {@value #PLOTTED};
 * the rest are one link away ({@code samplesUrl}).
 *
 * @param metrics the metrics the report lists
 * @param runs every run, with the samples of the plotted metrics only
 * @param failedPairs a paired design's failed pairs, one each: the unit it counts its failures in; none otherwise
 * @param samplesUrl where the server that made the report serves every sample
 * @param generatedAt when the report was made
 */
/* Its methods are public for the template, which reads them as properties ({@code report.plotted}). */
record ExperimentReport(ExperimentView experiment, ResultsSummary summary, MetricPage metrics, List<RunRecord> runs,
                        List<FailedPair> failedPairs, UploadDetails upload, String samplesUrl, Instant generatedAt,
                        String version) {

    /** The most metrics a report lists in its results table. */
    static final int LISTED = 100;

    /** The most metrics a report plots, prints R's t-test of and embeds the samples of. */
    static final int PLOTTED = 20;

    /** The metrics the report lists: at most {@link #LISTED}. */
    public List<MetricComparison> listed() {
        return metrics.metrics();
    }

    /** The metrics the report plots, whose samples it has: the first {@link #PLOTTED} it lists. */
    public List<MetricComparison> plotted() {
        return listed().subList(0, Math.min(PLOTTED, listed().size()));
    }

    /** Whether the report leaves metrics out of its table or of its plots. */
    public boolean partial() {
        return plotted().size() < metrics.total();
    }

    /** The values of one metric in one variant's successful runs, in plan order — what the statistics used. */
    double[] values(String metric, VariantName variant) {
        return ResultCharts.values(runs, metric, variant);
    }

    /**
     * The agents whose hosts ran the experiment, one line each: name, host, CPU model, labels and the trials stored
     * from it; what all three formats print under "Ran on".
     */
    public List<String> ranOn() {
        return experiment.agents().stream().map(a -> a.name() + " on " + a.host()
                + (a.cpuModel().isEmpty() ? "" : " (" + a.cpuModel() + ")")
                + (a.labels().isEmpty() ? "" : ", labels " + a.labels())
                + ": " + a.trials() + (a.trials() == 1 ? " trial" : " trials")
                + (a.running() ? ", running now" : "")).toList();
    }

    /** Whether the experiment has a paired design, whose unit of replication is the pair. */
    public boolean paired() {
        return experiment.paired() != null;
    }

    /** The runs as the runner reported them, with their pairs and windows: what the paired analysis takes. */
    List<TrialResult> trialResults() {
        return runs.stream().map(RunRecord::toTrialResult).toList();
    }

    /**
     * Runs that failed or timed out, with their errors (cancelled runs are not failures of the experiment). A paired
     * design counts its failures in pairs ({@link #failedPairs}) and lists no runs here.
     */
    public List<RunRecord> failedRuns() {
        return paired() ? List.of() : runs.stream().filter(r -> !r.ok() && !"CANCELLED".equals(r.status())).toList();
    }

    /** What the runs ran on, as the experiment's page shows it ({@link RunEnvironment}). */
    Map<String, List<String>> environment() {
        return RunEnvironment.of(runs);
    }

    /** How the figures were measured, by the experiment's kind and design, as the page says it. */
    public String measurement() {
        return MethodNotes.measurement(experiment);
    }

    /** Why there are no results yet, as the page says it. */
    public String noResults() {
        return MethodNotes.noResults(experiment);
    }
}
