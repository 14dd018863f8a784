package io.perflab.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import io.perflab.agent.HostLabels;
import io.perflab.runner.experiment.ExperimentDesign;
import io.perflab.runner.trial.MetricKeys;
import io.perflab.stats.Power;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * The new-experiment form's estimate: per design the newest comparable completed experiment, its spread carried to
 * other sizes as its test sees it.
 */
class MdeHintsTests {

    private final ExperimentService experiments = mock(ExperimentService.class);
    private final ExperimentResults results = mock(ExperimentResults.class);
    private final MdeHints hints = new MdeHints(experiments, results, JsonMapper.builder().build());

    private static ExperimentRecord experiment(long id, ExperimentDesign design, String preset, int windows) {
        return new ExperimentRecord(id, "e" + id, null, ExperimentKind.ENGINE, ExperimentStatus.COMPLETED, preset,
                null, 8, "interleaved", 1, 60, 3, "admin", Instant.EPOCH, Instant.EPOCH, Instant.EPOCH, 1, null,
                design, windows, PairedStopping.NONE, null, HostLabels.NONE, null);
    }

    /** A comparison of CPU per request with this MDE, over {@code n} runs per variant or pairs. */
    private static MetricComparison cpu(int n, double mdePercent, boolean paired) {
        return new MetricComparison(new MetricComparison.Metric(MetricKeys.CPU_US_PER_REQ, "us", "lower", ""),
                new MetricComparison.Groups(n, n, 30.0, 30.0, 1.0, 1.0),
                new MetricComparison.Change(null, null, null, 0.0, -1.0, 1.0),
                new MetricComparison.Tests(null, null, 0.5, 0.5, null, null, null), "inconclusive", "", List.of(),
                new MetricComparison.Sensitivity(mdePercent, 100L), null,
                paired ? new MetricComparison.PairedFigures(n, 3 * n, List.of(), List.of(), null, null, null, null,
                        null, null, null, null, null) : null);
    }

    @Test
    void aPairedExperimentsSpreadIsCarriedToOtherPairCountsAsItsTestSeesIt() {
        List<Double> bySize = MdeHints.bySize(true, 8, 3.10);

        assertThat(bySize.get(8 - 2)).isCloseTo(3.10, within(1e-9));
        // the spread of the pairs' log ratios that gives ±3.10 % at 8 pairs, then 13 pairs of it
        double perUnit = Math.log1p(Power.paired(1.0, 8, 0.05, 0.8, 1.0).minimumDetectableEffectPercent() / 100);
        double sd = Math.log1p(0.031) / perUnit;
        assertThat(bySize.get(13 - 2)).isCloseTo(Power.paired(sd, 13, 0.05, 0.8, 1.0)
                .minimumDetectableEffectPercent(), within(1e-9)).isBetween(2.2, 2.5);
        assertThat(bySize).isSortedAccordingTo((a, b) -> Double.compare(b, a)).hasSize(MdeHints.LARGEST_SIZE - 1);
    }

    @Test
    void aFreshExperimentsSpreadIsCarriedAsWelchsTestSeesIt() {
        List<Double> bySize = MdeHints.bySize(false, 40, 6.79);

        assertThat(bySize.get(40 - 2)).isCloseTo(6.79, within(1e-9));
        assertThat(bySize.get(10 - 2)).isCloseTo(6.79 * Power.minimumDetectableDifference(1, 10, 0.05, 0.8)
                / Power.minimumDetectableDifference(1, 40, 0.05, 0.8), within(1e-9));
    }

    @Test
    void eachDesignTakesItsNewestComparableExperimentAndTheFormItsSize() {
        ExperimentRecord otherPreset = experiment(9, ExperimentDesign.ALTERNATING, "pooled-buffers", 3);
        ExperimentRecord otherWindows = experiment(8, ExperimentDesign.ALTERNATING, "sync-completion", 2);
        ExperimentRecord alternating = experiment(7, ExperimentDesign.ALTERNATING, "sync-completion", 3);
        ExperimentRecord olderAlternating = experiment(6, ExperimentDesign.ALTERNATING, null, 3);
        ExperimentRecord fresh = experiment(5, ExperimentDesign.FRESH, "sync-completion", 1);
        when(experiments.list(any(), anyInt(), anyInt()))
                .thenReturn(List.of(otherPreset, otherWindows, alternating, olderAlternating, fresh));
        when(results.compare(any())).thenReturn(List.of(cpu(8, 3.10, true)));
        when(results.compare(fresh)).thenReturn(List.of(cpu(40, 6.79, false)));

        Map<String, MdeHints.Hint> found = hints.hints("sync-completion", 3);
        assertThat(found).containsOnlyKeys("alternating", "fresh");
        assertThat(found.get("alternating").experimentId()).isEqualTo(7);
        assertThat(found.get("alternating").windowsPerPair()).isEqualTo(3);
        assertThat(found.get("fresh").size()).isEqualTo(40);

        ExperimentForm form = new ExperimentForm();
        form.setPreset("sync-completion");
        form.setDesign("alternating");
        form.setPairs(13);
        MdeHints.ForForm shown = hints.forForm(form);
        assertThat(shown.hint().experimentId()).isEqualTo(7);
        assertThat(shown.estimatePercent()).isCloseTo(found.get("alternating").at(13), within(1e-12))
                .isLessThan(3.10);
        assertThat(shown.hintsJson()).contains("\"alternating\"", "\"fresh\"", "\"bySize\"");
        // what the hints were found for, so that the form's script can tell when the form asks for other settings
        assertThat(shown.preset()).isEqualTo("sync-completion");
        assertThat(shown.windowsPerPair()).isEqualTo(form.getWindowsPerPair());
        form.setPairs(null);
        assertThat(hints.forForm(form).estimatePercent()).as("blank pairs: the default experiment's most, 40")
                .isCloseTo(found.get("alternating").at(40), within(1e-12));

        form.setDesign("fresh");
        assertThat(hints.forForm(form).estimatePercent()).as("blank runs: the fresh design's default, 40")
                .isCloseTo(found.get("fresh").at(ExperimentValidator.DEFAULT_RUNS), within(1e-12));

        form.setDesign("duet");
        assertThat(hints.forForm(form).hint()).isNull();
        // without a preset, any experiment's spread will do: the newest
        assertThat(hints.hints(null, 3).get("alternating").experimentId()).isEqualTo(9);
    }

    @Test
    void beyondTheTableTheFigureScalesAsOneOverTheRootOfTheSize() {
        MdeHints.Hint hint = new MdeHints.Hint("alternating", 1, 8, 3, 3.10, MdeHints.bySize(true, 8, 3.10));
        assertThat(hint.at(800)).isCloseTo(hint.at(MdeHints.LARGEST_SIZE) * Math.sqrt(0.25), within(1e-12));
        assertThat(hint.at(1)).isNaN();
    }
}
