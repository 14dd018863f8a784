package io.perflab.paired;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.perflab.runner.trial.PairPosition;
import io.perflab.runner.trial.TrialResult;
import io.perflab.runner.trial.TrialStatus;
import io.perflab.stats.ComparisonOptions;
import io.perflab.stats.PairedAnalysis;
import io.perflab.stats.WindowDrift;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WarmupCheckTests {

    private static final ComparisonOptions OPTIONS = ComparisonOptions.defaults();

    /**
     * Eight pairs of three windows: {@code a} of 'with' falls 2 % per window, of 'without' stays, each with its own
     * noise; {@code b} only jitters, and 'with' measured 0.0 in pair 2's window 1, which no log ratio can take.
     */
    static List<TrialResult> driftAndAZero() {
        double[] noise = {1.01, 0.99, 1.02, 0.98, 1.00, 1.015, 0.985, 1.005};
        List<TrialResult> results = new ArrayList<>();
        int ordinal = 0;
        for (int pair = 0; pair < noise.length; pair++) {
            for (int window = 0; window < 3; window++) {
                for (String variant : List.of("without", "with")) {
                    boolean with = variant.equals("with");
                    double n = noise[(pair + (with ? 2 * window + 3 : window)) % noise.length];
                    double a = (with ? 100 * (1 - 0.02 * window) : 100) * n;
                    double jitter = noise[(3 * pair + (with ? window + 5 : window)) % noise.length];
                    double b = with && pair == 2 && window == 1 ? 0.0 : 50 * jitter;
                    results.add(new TrialResult(variant, ordinal++, TrialStatus.OK, Instant.EPOCH, Instant.EPOCH, 1,
                            Map.of("a", a, "b", b), Map.of(), null,
                            new PairPosition(pair, window, null, 0L, null, !with)));
                }
            }
        }
        return results;
    }

    @Test
    void aMetricThePairedAnalysisCannotCompareStaysOutOfTheHolmFamily() {
        PairedSamples samples = PairedSamples.of(driftAndAZero());
        assertThatThrownBy(() -> PairedAnalysis.analyze(samples.windows("b"), OPTIONS))
                .as("b has no log ratio in pair 2").hasMessageContaining("a log ratio needs positive values");
        assertThat(WindowDrift.of(samples.windows("b"), OPTIONS)).as("yet its drift can be told").isPresent();

        Map<String, WarmupCheck.Judged> all = WarmupCheck.judge(samples, List.of("a", "b"), OPTIONS);
        Map<String, WarmupCheck.Judged> analysed = WarmupCheck.judge(samples, List.of("a"), OPTIONS);

        assertThat(all).containsOnlyKeys("a");
        assertThat(all.get("a").adjustedP()).as("a family of one: its own p")
                .isEqualTo(analysed.get("a").adjustedP())
                .isEqualTo(all.get("a").drift().difference().pValue());
    }
}
