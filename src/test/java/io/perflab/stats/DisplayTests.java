package io.perflab.stats;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DisplayTests {

    @Test
    void percentagesHaveTwoDecimalsAndASign() {
        assertThat(Display.percent(-4.3)).isEqualTo("-4.30%");
        assertThat(Display.percent(0)).isEqualTo("+0.00%");
        assertThat(Display.percentInterval(-9.1, 2.345)).isEqualTo("[-9.10%, +2.35%]");
    }

    @Test
    void hugeAndInfinitePercentagesStayShort() {
        // an early sequential look's repeated interval, 100·(e^x − 1) with x in the hundreds
        assertThat(Display.percent(1.358434703464334e180)).isEqualTo("+1.36e+180%");
        assertThat(Display.percent(-2.5e6)).isEqualTo("-2.50e+06%");
        assertThat(Display.percent(999_999.994)).isEqualTo("+999999.99%");
        assertThat(Display.percent(Double.POSITIVE_INFINITY)).isEqualTo("+inf%");
    }
}
