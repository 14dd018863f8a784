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
        assertThat(steady.describe("%.0f")).isEqualTo("101000 99000 NaN");
    }
}
