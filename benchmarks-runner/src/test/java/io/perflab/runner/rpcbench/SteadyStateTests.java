package io.perflab.runner.rpcbench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SteadyStateTests {

    @Test
    void settlesWhenTheLastThreeWindowsAgreeWithinTwoPercent() {
        SteadyState steady = new SteadyState();

        assertThat(steady.add(50_000)).isFalse();
        assertThat(steady.add(90_000)).isFalse();
        assertThat(steady.add(100_000)).isFalse();
        assertThat(steady.add(101_000)).isFalse();
        assertThat(steady.add(101_900)).isTrue(); // spread 1 900 / 100 967 = 1.9 %
    }

    @Test
    void aTrendOrAnOutlierInTheLastWindowsKeepsItWarmingUp() {
        SteadyState steady = new SteadyState();

        steady.add(100_000);
        steady.add(101_500);
        assertThat(steady.add(103_000)).isFalse(); // spread 3 000 / 101 500 = 2.96 %
        assertThat(steady.add(80_000)).isFalse();
        assertThat(new SteadyState().add(0)).isFalse();
    }

    @Test
    void describesTheLastWindowsAndTheirSpreadAsEvidence() {
        SteadyState steady = new SteadyState();
        steady.add(90_000);
        steady.add(100_000);
        steady.add(101_000);
        steady.add(99_000);

        assertThat(steady.describe("%.0f")).isEqualTo("100000 101000 99000 (spread 2.0 %)");
        assertThat(steady.add(Double.NaN)).isFalse();
        assertThat(steady.describe("%.0f")).isEqualTo("101000 99000 (no call)");
    }

    @Test
    void theEvidenceOfAStepWithoutCallsSaysSoInsteadOfNaN() {
        SteadyState throughput = new SteadyState();
        SteadyState cpuPerCall = new SteadyState();
        throughput.add(0);
        cpuPerCall.add(Double.NaN);

        WarmupOutcome outcome = WarmupOutcome.of(false, throughput, cpuPerCall, -1, java.util.Map.of(), 0, 0);

        assertThat(outcome.evidence()).isEqualTo("calls/s 0; CPU µs/call (no call)").doesNotContain("NaN");
    }

    @Test
    void oneWindowIsDescribedWithoutASpread() {
        SteadyState steady = new SteadyState();
        steady.add(8403);

        assertThat(steady.describe("%.0f")).isEqualTo("8403");
    }

    @Test
    void theEvidenceOfAWarmupWithoutAWholeStepSaysSo() {
        WarmupOutcome outcome = WarmupOutcome.of(false, new SteadyState(), new SteadyState(), -1,
                java.util.Map.of(), 0, 0);

        assertThat(outcome.evidence()).isEqualTo("none: no one-second step of the warmup completed");
    }
}
