package io.perflab.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CpuSplitSourcesTests {

    private static RunRecord run(int ordinal, String source, double user, String tickUser) {
        Map<String, String> environment = tickUser == null ? Map.of("cpu_split_source", source)
                : Map.of("cpu_split_source", source, "tick_user_cpu_us_per_req", tickUser,
                        "tick_sys_cpu_us_per_req", "40");
        return new RunRecord(ordinal, ordinal % 2 == 0 ? "without" : "with", ordinal, "OK", null, null, null,
                environment, null, Map.of("user_cpu_us_per_req", user, "sys_cpu_us_per_req", 41.0,
                        "cpu_us_per_req", 41.0 + user));
    }

    @Test
    void agreeingSourcesAreComparedAsMeasured() {
        List<RunRecord> runs = List.of(run(0, "sampled", 10, "11"), run(1, "sampled", 9, "8"));

        assertThat(CpuSplitSources.mixed(runs)).isEmpty();
    }

    @Test
    void mixedSourcesAreComparedOnTheTickSplitEveryTrialRecorded() {
        List<RunRecord> runs = List.of(run(0, "sampled", 10, "11"), run(1, "tick", 9, null),
                run(2, "sampled", 10.5, "12"));

        assertThat(CpuSplitSources.mixed(runs)).hasValueSatisfying(note -> assertThat(note)
                .contains("2 sampled, 1 tick", "tick split"));
        List<RunRecord> comparable = CpuSplitSources.onTickSplit(runs);
        assertThat(comparable).extracting(r -> r.metrics().get("user_cpu_us_per_req")).containsExactly(11.0, 9.0,
                12.0);
        assertThat(comparable.get(0).metrics()).containsEntry("sys_cpu_us_per_req", 40.0)
                .containsEntry("cpu_us_per_req", 51.0);
    }

    @Test
    void aSampledTrialWithoutItsTickSplitLeavesTheSplitOut() {
        RunRecord sampledOnly = run(0, "sampled", 10, null);

        assertThat(CpuSplitSources.onTickSplit(List.of(sampledOnly)).get(0).metrics())
                .doesNotContainKeys("user_cpu_us_per_req", "sys_cpu_us_per_req").containsKey("cpu_us_per_req");
    }
}
