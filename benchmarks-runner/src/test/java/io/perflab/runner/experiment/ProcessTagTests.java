package io.perflab.runner.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import io.perflab.runner.experiment.ProcessTag.Verdict;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * What a trial's tag reads and kills, decided on {@code /proc/<pid>/stat} records: only the environments of
 * processes started since the tag was made are read, and only the very process listed is killed, not one that took
 * its pid since. {@link CommandLeftoverTests} runs the whole on real processes.
 */
class ProcessTagTests {

    /** The tag was made at this many clock ticks since boot. */
    private static final long TAG_MADE = 1_000_000;
    private static final long PF_KTHREAD = 0x00200000;

    private final ProcessTag tag = new ProcessTag("ab12", TAG_MADE);
    private final AtomicInteger environmentReads = new AtomicInteger();

    @Test
    void aProcessWhosePidWasTakenByAnotherSinceItWasListedIsNotKilled() {
        ProcessStat listed = stat(4242, 'S', TAG_MADE + 5);
        List<ProcessHandle> destroyed = new ArrayList<>();

        boolean killed = ProcessTag.killListed(listed, Optional.of(ProcessHandle.current()),
                () -> Optional.of(stat(4242, 'S', TAG_MADE + 90)), destroyed::add);

        assertThat(killed).isFalse();
        assertThat(destroyed).as("the process that took pid 4242").isEmpty();
    }

    @Test
    void theProcessListedIsKilledWhileItRunsAndNotOnceItIsGone() {
        ProcessStat listed = stat(4242, 'S', TAG_MADE + 5);
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
        ProcessStat listed = stat(4242, 'S', TAG_MADE + 5);

        assertThat(ProcessTag.stillRunning(listed, Optional.of(stat(4242, 'D', TAG_MADE + 5)))).isTrue();
        assertThat(ProcessTag.stillRunning(listed, Optional.of(stat(4242, 'S', TAG_MADE + 6)))).isFalse();
        assertThat(ProcessTag.stillRunning(listed, Optional.of(stat(4243, 'S', TAG_MADE + 5)))).isFalse();
        assertThat(ProcessTag.stillRunning(listed, Optional.of(stat(4242, 'X', TAG_MADE + 5)))).isFalse();
        assertThat(ProcessTag.stillRunning(listed, Optional.empty())).isFalse();
    }

    @Test
    void theEnvironmentOfAProcessStartedBeforeTheTagWasMadeIsNotRead() {
        Supplier<Optional<byte[]>> tagged = environment("A=1\0PERFLAB_TRIAL=ab12\0");

        assertThat(tag.judge(Optional.of(stat(10, 'S', TAG_MADE - 1)), List.of(), tagged)).isEqualTo(Verdict.OTHER);
        assertThat(environmentReads).hasValue(0);
    }

    @Test
    void theEnvironmentOfAKernelThreadAZombieOrAProcessGoneIsNotRead() {
        ProcessStat kernelThread = new ProcessStat(11, "kworker/0:1", 'I', PF_KTHREAD, TAG_MADE + 5);

        assertThat(tag.judge(Optional.of(kernelThread), List.of(), environment(""))).isEqualTo(Verdict.OTHER);
        assertThat(tag.judge(Optional.of(stat(12, 'Z', TAG_MADE + 5)), List.of(), environment("")))
                .isEqualTo(Verdict.OTHER);
        assertThat(tag.judge(Optional.empty(), List.of(), environment(""))).isEqualTo(Verdict.OTHER);
        assertThat(environmentReads).hasValue(0);
    }

    @Test
    void aProcessStartedSinceTheTagWasMadeIsJudgedByItsEnvironment() {
        Optional<ProcessStat> recent = Optional.of(stat(20, 'S', TAG_MADE + 5));

        assertThat(tag.judge(recent, List.of(), environment("A=1\0PERFLAB_TRIAL=ab12\0"))).isEqualTo(Verdict.TAGGED);
        assertThat(tag.judge(recent, List.of(), environment("PERFLAB_TRIAL=ab123\0"))).isEqualTo(Verdict.OTHER);
        assertThat(tag.judge(recent, List.of(), environment(""))).as("in the middle of an execve")
                .isEqualTo(Verdict.UNDECIDED);
        assertThat(tag.judge(recent, List.of(), () -> {
            environmentReads.incrementAndGet();
            return Optional.empty();
        })).as("another user's, or gone meanwhile").isEqualTo(Verdict.OTHER);
        assertThat(environmentReads).hasValue(4);
    }

    @Test
    void aProcessAlreadyKilledIsNotReadAgainButOneThatTookItsPidIs() {
        List<ProcessStat> killed = List.of(stat(30, 'S', TAG_MADE + 5));
        Supplier<Optional<byte[]>> tagged = environment("PERFLAB_TRIAL=ab12\0");

        assertThat(tag.judge(Optional.of(stat(30, 'R', TAG_MADE + 5)), killed, tagged)).isEqualTo(Verdict.OTHER);
        assertThat(environmentReads).hasValue(0);
        assertThat(tag.judge(Optional.of(stat(30, 'S', TAG_MADE + 7)), killed, tagged)).isEqualTo(Verdict.TAGGED);
    }

    private static ProcessStat stat(long pid, char state, long startTicks) {
        return new ProcessStat(pid, "sleep", state, 0x400000, startTicks);
    }

    /** An environment block, counted in {@link #environmentReads} each time it is read. */
    private Supplier<Optional<byte[]>> environment(String block) {
        return () -> {
            environmentReads.incrementAndGet();
            return Optional.of(block.getBytes(StandardCharsets.ISO_8859_1));
        };
    }
}
