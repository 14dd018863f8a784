package io.perflab.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ExperimentEtaTests {

    private static final Instant T0 = Instant.parse("2026-12-04T12:00:00Z");
    private static final Optional<Duration> SIX_MINUTES = Optional.of(Duration.ofMinutes(6));

    /** A stored pair of {@code seconds}, started {@code at}. */
    private static ExperimentRepository.RunTiming pair(Instant at, long seconds) {
        return new ExperimentRepository.RunTiming("OK", at, at.plusSeconds(seconds));
    }

    @Test
    void aBudgetCapsWhatThePairsStillPlannedWouldTake() {
        // README's example: 20 pairs planned, a budget of 6 minutes, two pairs of 40 s stored: 18 × 40 s = 720 s
        // estimated, but the runner starts no pair past the budget, so at most 360 − 80 = 280 s are left
        List<ExperimentRepository.RunTiming> pairs = List.of(pair(T0, 40), pair(T0.plusSeconds(40), 40));
        Instant now = T0.plusSeconds(80);

        assertThat(TimeLeft.withinBudget(720L, SIX_MINUTES, T0, pairs, now)).isEqualTo(280);
        assertThat(TimeLeft.withinBudget(720L, Optional.empty(), T0, pairs, now)).isEqualTo(720);
        assertThat(TimeLeft.withinBudget(100L, SIX_MINUTES, T0, pairs, now)).isEqualTo(100);
        assertThat(TimeLeft.withinBudget(720L, Optional.of(Duration.ofSeconds(60)), T0, pairs, now)).isZero();
        assertThat(TimeLeft.withinBudget(null, SIX_MINUTES, T0, pairs, now)).isNull();
    }

    @Test
    void theBudgetIsSpentByTheTimeSinceTheRunBeganNotOnlyByTheStoredPairs() {
        // two pairs of 40 s stored, but the run began 150 s ago: the JVMs' setup before them and the third pair,
        // under way, spent the budget too, as the stopping rule counts it
        Clock clock = Clock.fixed(T0.plusSeconds(150), ZoneOffset.UTC);
        List<ExperimentRepository.RunTiming> pairs = List.of(pair(T0.plusSeconds(20), 40),
                pair(T0.plusSeconds(65), 40));

        assertThat(TimeLeft.withinBudget(720L, SIX_MINUTES, T0, pairs, clock.instant())).isEqualTo(360 - 150);
        Clock later = Clock.offset(clock, Duration.ofSeconds(30));
        assertThat(TimeLeft.withinBudget(720L, SIX_MINUTES, T0, pairs, later.instant()))
                .as("the estimate falls with the clock, between two pairs too").isEqualTo(360 - 180);
    }

    @Test
    void aResumedRunsBudgetIsWhatThePairsOfItsEarlierRunsLeftCountedFromItsClaim() {
        // a pair of 40 s ran before an interruption; the experiment was claimed again at T0 + 600 s, 50 s ago
        Instant claimed = T0.plusSeconds(600);
        Clock clock = Clock.fixed(claimed.plusSeconds(50), ZoneOffset.UTC);
        List<ExperimentRepository.RunTiming> pairs = List.of(pair(T0, 40), pair(claimed.plusSeconds(5), 40));

        assertThat(TimeLeft.withinBudget(720L, SIX_MINUTES, claimed, pairs, clock.instant()))
                .as("the interruption spent nothing").isEqualTo(360 - 40 - 50);
    }
}
