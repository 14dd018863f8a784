package io.perflab.runner.metering;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SyscallCounterTests {

    @Test
    void readsTheTracepointIdFromTheFirstTracefsThatHasIt(@TempDir Path dir) throws IOException {
        Path tracing = dir.resolve("tracing");
        Path debug = dir.resolve("debug/tracing");
        Files.createDirectories(debug.resolve("events/raw_syscalls/sys_enter"));
        Files.writeString(debug.resolve(SyscallCounter.SYS_ENTER_ID), "443\n");

        assertThat(SyscallCounter.tracepointId(List.of(tracing, debug))).isEqualTo(443);
    }

    @Test
    void anUnmountedTracefsIsNamedWithTheCommandThatMountsIt(@TempDir Path dir) {
        assertThatThrownBy(() -> SyscallCounter.tracepointId(List.of(dir.resolve("a"), dir.resolve("b"))))
                .hasMessageContaining("raw_syscalls:sys_enter is not readable")
                .hasMessageContaining("mount -t tracefs nodev /sys/kernel/tracing");
    }
}
