package io.perflab.report;

import io.perflab.experiment.ExperimentService;
import io.perflab.experiment.ExperimentView;
import io.perflab.system.PerfLabVersion;
import java.time.Clock;
import java.time.temporal.ChronoUnit;
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

    /** @throws io.perflab.system.NotFoundException when there is no such experiment */
    ExperimentReport load(long id) {
        ExperimentView view = experiments.view(id);
        return new ExperimentReport(view, experiments.runs(id), experiments.metricDefinitions(id),
                clock.instant().truncatedTo(ChronoUnit.SECONDS), PerfLabVersion.get());
    }

    String html(long id) {
        return html.render(load(id));
    }

    String markdown(long id) {
        return MarkdownReport.render(load(id));
    }

    String text(long id) {
        return TextReport.render(load(id));
    }
}
