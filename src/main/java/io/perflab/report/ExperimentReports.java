package io.perflab.report;

import io.perflab.experiment.ExperimentResults;
import io.perflab.experiment.ExperimentService;
import io.perflab.experiment.ExperimentView;
import io.perflab.experiment.MetricFilter;
import io.perflab.experiment.MetricPage;
import io.perflab.experiment.ResultsSummary;
import io.perflab.system.PerfLabVersion;
import java.time.Clock;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.springframework.stereotype.Service;

/** Reads an experiment for export and renders it in the three report formats. */
@Service
class ExperimentReports {

    private final ExperimentService experiments;
    private final HtmlReport html;
    private final Clock clock;

    ExperimentReports(ExperimentService experiments, HtmlReport html, Clock clock) {
        this.experiments = experiments;
        this.html = html;
        this.clock = clock;
    }

    /**
     * The report of experiment {@code id}, made by the server at {@code serverUrl}.
     *
     * @throws io.perflab.system.NotFoundException when there is no such experiment
     */
    ExperimentReport load(long id, String serverUrl) {
        ExperimentView view = experiments.view(id);
        MetricPage metrics = MetricPage.of(view.results(), MetricFilter.ALL, 0, ExperimentReport.LISTED);
        return new ExperimentReport(view, ResultsSummary.of(view.results()), metrics,
                ExperimentResults.asCompared(experiments.runs(id, metrics.keys(ExperimentReport.PLOTTED))),
                view.paired() == null ? List.of() : experiments.failedPairs(id), experiments.uploadDetails(id),
                serverUrl + "/api/v1/experiments/" + id + "/samples", clock.instant().truncatedTo(ChronoUnit.SECONDS),
                PerfLabVersion.get());
    }

    String html(long id, String serverUrl) {
        return html.render(load(id, serverUrl));
    }

    String markdown(long id, String serverUrl) {
        return MarkdownReport.render(load(id, serverUrl));
    }

    String text(long id, String serverUrl) {
        return TextReport.render(load(id, serverUrl));
    }
}
