package io.perflab.runner.rpcbench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RecentStepsTests {

    @Test
    void keepsTheLastStepsOnlyAndTellsWhenItHasThemAll() {
        RecentSteps steps = new RecentSteps(3);
        steps.add(50);
        steps.add(4);
        assertThat(steps.full()).isFalse();
        steps.add(8);
        steps.add(3);

        assertThat(steps.full()).isTrue();
        assertThat(steps.values("%.0f")).isEqualTo("4 8 3");
        assertThat(steps.mean()).isEqualTo(5.0);
        assertThat(steps.max()).isEqualTo(8.0);
    }

    @Test
    void describesTheLastStepsAndTheirSpreadAsEvidence() {
        RecentSteps steps = new RecentSteps(3);
        steps.add(90_000);
        steps.add(100_000);
        steps.add(101_000);
        steps.add(99_000);

        assertThat(steps.describe("%.0f")).isEqualTo("100000 101000 99000 (spread 2.0 %)");
        steps.add(Double.NaN);
        assertThat(steps.describe("%.0f")).isEqualTo("101000 99000 NaN");
        assertThat(steps.mean()).isNaN();
        assertThat(steps.max()).isNaN();
        assertThat(new RecentSteps().describe("%.0f")).isEmpty();
        assertThat(Warmup.QUIET_STEPS).isEqualTo(5);
    }
}
