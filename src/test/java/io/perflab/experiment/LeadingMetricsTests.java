package io.perflab.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class LeadingMetricsTests {

    @Test
    void timeAndThroughputLeadMemoryAndCountsWhateverTheirNamesSortAs() {
        // Go's metrics sort B/op and allocs/op before ns/op, which hid Split:ns/op from the four headline metrics
        List<String> go = List.of("Join:B/op", "Join:allocs/op", "Join:ns/op", "Split:B/op", "Split:allocs/op",
                "Split:ns/op");
        assertThat(LeadingMetrics.timeFirst(go, k -> k, k -> null)).containsExactly("Join:ns/op", "Split:ns/op",
                "Join:B/op", "Join:allocs/op", "Split:B/op", "Split:allocs/op");

        assertThat(LeadingMetrics.measuresTime("org.example.Parse.json", "ops/s")).as("a JMH score").isTrue();
        assertThat(LeadingMetrics.measuresTime("org.example.Parse.json·gc.alloc.rate.norm", "B/op")).isFalse();
        assertThat(LeadingMetrics.measuresTime("sort 1M:mean", "s")).as("hyperfine").isTrue();
        assertThat(LeadingMetrics.measuresTime("BM_Parse:real_time", null)).as("Google Benchmark").isTrue();
        assertThat(LeadingMetrics.measuresTime("Join:allocs/op", "allocs/op")).isFalse();
    }
}
