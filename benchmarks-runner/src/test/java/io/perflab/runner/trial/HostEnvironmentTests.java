package io.perflab.runner.trial;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class HostEnvironmentTests {

    @Test
    void aLoadAboveAQuarterOfTheCpusAndHalfACpuIsWarnedOfWithWhenItWasRead() {
        HostEnvironment.LoadAverage load = new HostEnvironment.LoadAverage(5.16, 4.0, 3.0, 3);

        assertThat(load.warning(2, "")).hasValue("load average 5.16 on 2 CPUs: other work competes with the "
                + "benchmark, expect noisy figures");
        assertThat(load.warning(2, " before the runs")).hasValue("load average 5.16 on 2 CPUs before the runs: "
                + "other work competes with the benchmark, expect noisy figures");
        assertThat(new HostEnvironment.LoadAverage(0.5, 0.4, 0.3, 1).warning(2, "")).isEmpty();
        assertThat(new HostEnvironment.LoadAverage(1.9, 1.0, 1.0, 1).warning(8, "")).isEmpty();
    }

    @Test
    void readsALoadAsATrialRecordedIt() {
        HostEnvironment.LoadAverage load = new HostEnvironment.LoadAverage(3.52, 3.1, 2.8, 5);

        assertThat(HostEnvironment.LoadAverage.parse(load.toString())).hasValue(load);
        assertThat(HostEnvironment.LoadAverage.parse("0.50")).hasValue(new HostEnvironment.LoadAverage(0.5, -1, -1,
                -1));
        assertThat(HostEnvironment.LoadAverage.parse("busy")).isEmpty();
        assertThat(HostEnvironment.LoadAverage.parse("NaN")).isEmpty();
        assertThat(HostEnvironment.LoadAverage.parse(null)).isEmpty();
    }
}
