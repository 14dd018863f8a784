package io.perflab.runner.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import io.perflab.runner.experiment.ProcessTag.Stat;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * What a trial's tag kills, decided on {@code /proc/<pid>/stat} records: only the very process listed, not one that
 * took its pid since. {@link CommandLeftoverTests} runs the whole on real processes.
 */
class ProcessTagTests {

    /** The tag was made at this many clock ticks since boot. */
    private static final long TAG_MADE = 1_000_000;

    @Test
    void aProcessWhosePidWasTakenByAnotherSinceItWasListedIsNotKilled() {
        Stat listed = stat(4242, 'S', TAG_MADE + 5);
        List<ProcessHandle> destroyed = new ArrayList<>();

        boolean killed = ProcessTag.killListed(listed, Optional.of(ProcessHandle.current()),
                () -> Optional.of(stat(4242, 'S', TAG_MADE + 90)), destroyed::add);

        assertThat(killed).isFalse();
        assertThat(destroyed).as("the process that took pid 4242").isEmpty();
    }

    @Test
    void theProcessListedIsKilledWhileItRunsAndNotOnceItIsGone() {
        Stat listed = stat(4242, 'S', TAG_MADE + 5);
        List<ProcessHandle> destroyed = new ArrayList<>();
        ProcessHandle handle = ProcessHandle.current();

        assertThat(ProcessTag.killListed(listed, Optional.of(handle), () -> Optional.of(stat(4242, 'R',
                TAG_MADE + 5)), destroyed::add)).as("still running").isTrue();
        assertThat(ProcessTag.killListed(listed, Optional.of(handle), () -> Optional.of(stat(4242, 'Z',
                TAG_MADE + 5)), destroyed::add)).as("a zombie").isFalse();
        assertThat(ProcessTag.killListed(listed, Optional.of(handle), Optional::empty, destroyed::add))
                .as("gone").isFalse();
        assertThat(ProcessTag.killListed(listed, Optional.empty(), () -> Optional.of(listed), destroyed::add))
                .as("no handle: gone before it was taken").isFalse();
        assertThat(destroyed).containsExactly(handle);
    }

    @Test
    void aProcessIsStillTheOneListedOnlyWithTheSamePidAndStartTimeWhileItRuns() {
        Stat listed = stat(4242, 'S', TAG_MADE + 5);

        assertThat(ProcessTag.stillRunning(listed, Optional.of(stat(4242, 'D', TAG_MADE + 5)))).isTrue();
        assertThat(ProcessTag.stillRunning(listed, Optional.of(stat(4242, 'S', TAG_MADE + 6)))).isFalse();
        assertThat(ProcessTag.stillRunning(listed, Optional.of(stat(4243, 'S', TAG_MADE + 5)))).isFalse();
        assertThat(ProcessTag.stillRunning(listed, Optional.of(stat(4242, 'X', TAG_MADE + 5)))).isFalse();
        assertThat(ProcessTag.stillRunning(listed, Optional.empty())).isFalse();
    }

    private static Stat stat(long pid, char state, long startTicks) {
        return new Stat(pid, "sleep", state, 0x400000, startTicks);
    }
}
