package io.perflab.runner.metering;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class CpuSplitTests {

    @Test
    void sampledSplitDividesTheExactTotalInTheShareOfUserSamples() {
        CpuSplit split = CpuSplit.sampled(new CpuSampler.Counts(1_000, 3_000, 5, 0, 2, 0, 4999));
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
        CpuSplit split = CpuSplit.sampled(new CpuSampler.Counts(1_000, 3_000, 0, 0, 0, 0, 4999));

        assertThat(split.userSamplingError()).isCloseTo(0.027386, within(1e-6));
        assertThat(split.systemSamplingError()).isCloseTo(0.009129, within(1e-6));
        assertThat(CpuSplit.relativeError(0, 10)).isNaN();
        assertThat(CpuSplit.relativeError(10, 10)).isZero();
    }

    @Test
    void noSampleInTheMeasuredThreadsFallsBackToTheTickSplitSayingWhy() {
        CpuSplit split = CpuSplit.sampled(new CpuSampler.Counts(0, 0, 3, 0, 0, 0, 4999));
        ResourceUsage usage = new ResourceUsage(600, 400, 1, 1, 1);

        assertThat(split.source()).isEqualTo(CpuSplit.Source.TICK);
        assertThat(split.reason()).contains("no cpu-clock sample");
        assertThat(split.applyTo(usage)).isSameAs(usage);
        assertThat(split.userSamplingError()).isNaN();
    }

    /** Samples of threads that ended before they could be named are left out of the split, and their share shown. */
    @Test
    void samplesOfThreadsThatCouldNotBeNamedAreLeftOutAndTheirShareShown() {
        CpuSplit split = CpuSplit.sampled(new CpuSampler.Counts(1_000, 3_000, 0, 1_000, 0, 0, 4999));

        assertThat(split.samples()).isEqualTo(4_000);
        assertThat(split.unnamedSamples()).isEqualTo(1_000);
        assertThat(split.unnamedShare()).isCloseTo(0.2, within(1e-12));
        assertThat(split.applyTo(new ResourceUsage(600_000, 400_000, 0, 0))).isEqualTo(
                new ResourceUsage(250_000, 750_000, 0, 0));
        assertThat(CpuSplit.sampled(new CpuSampler.Counts(1, 0, 0, 0, 0, 0, 4999)).unnamedShare()).isZero();
    }

    @Test
    void aWindowWhoseSamplesAreAllOfUnnamedThreadsFallsBackToTheTickSplitSayingSo() {
        CpuSplit split = CpuSplit.sampled(new CpuSampler.Counts(0, 0, 0, 250, 0, 0, 4999));

        assertThat(split.source()).isEqualTo(CpuSplit.Source.TICK);
        assertThat(split.reason()).isEqualTo("no cpu-clock sample of the measured threads in user or kernel mode in "
                + "the window; 250 samples were of threads that ended before they could be named, which may have "
                + "been the JIT's compiler threads");
    }
}
