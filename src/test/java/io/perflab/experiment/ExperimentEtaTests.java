package io.perflab.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ExperimentEtaTests {

    private static final Instant T0 = Instant.parse("2026-12-04T12:00:00Z");

    private static ExperimentRepository.RunTiming pair(int index, long seconds) {
        Instant start = T0.plusSeconds(40L * index);
        return new ExperimentRepository.RunTiming("OK", start, start.plusSeconds(seconds));
    }

    @Test
    void aBudgetCapsWhatThePairsStillPlannedWouldTake() {
        // README's example: 20 pairs planned, a budget of 6 minutes, two pairs of 40 s stored: 18 × 40 s = 720 s
        // estimated, but the runner starts no pair past the budget, so at most 360 − 80 = 280 s are left
        List<ExperimentRepository.RunTiming> pairs = List.of(pair(0, 40), pair(1, 40));

        assertThat(TimeLeft.withinBudget(720L, Optional.of(Duration.ofMinutes(6)), pairs)).isEqualTo(280);
        assertThat(TimeLeft.withinBudget(720L, Optional.empty(), pairs)).isEqualTo(720);
        assertThat(TimeLeft.withinBudget(100L, Optional.of(Duration.ofMinutes(6)), pairs)).isEqualTo(100);
        assertThat(TimeLeft.withinBudget(720L, Optional.of(Duration.ofSeconds(60)), pairs)).isZero();
        assertThat(TimeLeft.withinBudget(null, Optional.of(Duration.ofMinutes(6)), pairs)).isNull();
    }
}
