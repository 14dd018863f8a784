package io.perflab.runner.metering;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class CpuSplitTests {

    @Test
    void sampledSplitDividesTheExactTotalInTheShareOfUserSamples() {
        CpuSplit split = CpuSplit.sampled(new CpuSampler.Counts(1_000, 3_000, 5, 2, 0, 4999));
        ResourceUsage tickSplit = new ResourceUsage(600_001, 400_000, 10, 2, 7);

        ResourceUsage sampled = split.applyTo(tickSplit);

        assertThat(sampled).isEqualTo(new ResourceUsage(250_000, 750_001, 10, 2, 7));
        assertThat(split.samples()).isEqualTo(4_000);
        assertThat(split.lostSamples()).isEqualTo(2);
        assertThat(split.source().label()).isEqualTo("sampled");
        assertThat(split.reason()).isNull();
    }

    @Test
    void samplingErrorIsBinomial() {
        // n = 4,000, p = 0.25: user sqrt(0.75 / 1,000) = 2.7386 %, system sqrt(0.25 / 3,000) = 0.9129 %
        CpuSplit split = CpuSplit.sampled(new CpuSampler.Counts(1_000, 3_000, 0, 0, 0, 4999));

        assertThat(split.userSamplingError()).isCloseTo(0.027386, within(1e-6));
        assertThat(split.systemSamplingError()).isCloseTo(0.009129, within(1e-6));
        assertThat(CpuSplit.relativeError(0, 10)).isNaN();
        assertThat(CpuSplit.relativeError(10, 10)).isZero();
    }

    @Test
    void noSampleInTheMeasuredThreadsFallsBackToTheTickSplitSayingWhy() {
        CpuSplit split = CpuSplit.sampled(new CpuSampler.Counts(0, 0, 3, 0, 0, 4999));
        ResourceUsage usage = new ResourceUsage(600, 400, 1, 1, 1);

        assertThat(split.source()).isEqualTo(CpuSplit.Source.TICK);
        assertThat(split.reason()).contains("no cpu-clock sample");
        assertThat(split.applyTo(usage)).isSameAs(usage);
        assertThat(split.userSamplingError()).isNaN();
    }
}
