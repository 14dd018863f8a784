package io.perflab.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class HostLoadCheckTests {

    private static final Instant START = Instant.parse("2026-12-01T10:00:00Z");

    @Test
    void warnsWithTheCommandLinesRuleOfTheLoadTheFirstTrialReadAndSaysWhen() {
        assertThat(HostLoadCheck.warning(first("5.16 4.00 3.00 (3 runnable)", "2", null))).hasValue(
                "load average 5.16 on 2 CPUs as the experiment's first trial started, before its benchmark threads "
                        + "ran: other work competes with the benchmark, expect noisy figures (each trial's "
                        + "load_average is in the environment)");
    }

    @Test
    void aLoadBelowAQuarterOfTheCpusOrHalfACpuIsNoWarning() {
        assertThat(HostLoadCheck.warning(first("0.50 0.40 0.30 (1 runnable)", "2", null))).isEmpty();
        assertThat(HostLoadCheck.warning(first("1.90", "8", null))).isEmpty();
        assertThat(HostLoadCheck.warning(first("2.10", "8", null))).isPresent();
    }

    /**
     * Another experiment's threads stay in the 1-minute average for minutes: the load cannot tell them from others'.
     */
    @Test
    void saysNothingWhenTheHostEndedAnotherExperimentJustBefore() {
        assertThat(HostLoadCheck.warning(first("7.40", "2", START.minusSeconds(90)))).isEmpty();
        assertThat(HostLoadCheck.warning(first("7.40", "2", START.minusSeconds(600)))).isPresent();
    }

    @Test
    void saysNothingWithoutALoadOrACpuCount() {
        assertThat(HostLoadCheck.warning(Optional.empty())).isEmpty();
        assertThat(HostLoadCheck.warning(first("not a load", "2", null))).isEmpty();
        assertThat(HostLoadCheck.warning(Optional.of(new ExperimentRepository.FirstTrial(
                Map.of("load_average", "5.0"), START, null)))).isEmpty();
    }

    private static Optional<ExperimentRepository.FirstTrial> first(String load, String cpus, Instant lastBusy) {
        return Optional.of(new ExperimentRepository.FirstTrial(Map.of("load_average", load, "cpu_count", cpus), START,
                lastBusy));
    }
}
