package io.perflab.runner.metering;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CpuTimeAccountingTests {

    private static final List<String> TICK_250 = List.of("# CONFIG_VIRT_CPU_ACCOUNTING_GEN is not set",
            "CONFIG_TICK_CPU_ACCOUNTING=y", "CONFIG_HZ_250=y", "CONFIG_HZ=250");

    @TempDir
    Path dir;

    @Test
    void tickAccountingIsReadFromTheKernelConfiguration() {
        CpuTimeAccounting accounting = CpuTimeAccounting.fromConfig(TICK_250, false);

        assertThat(accounting).isEqualTo(new CpuTimeAccounting(CpuTimeAccounting.Kind.TICK, 250));
        assertThat(accounting.describe()).isEqualTo("tick 250 Hz");
    }

    @Test
    void virtualAccountingIsPreciseOnlyWhereItTimesTransitions() {
        List<String> gen = List.of("CONFIG_VIRT_CPU_ACCOUNTING_GEN=y", "CONFIG_HZ=1000");

        assertThat(CpuTimeAccounting.fromConfig(gen, true).kind()).isEqualTo(CpuTimeAccounting.Kind.PRECISE);
        // without nohz_full CPUs the generic virtual accounting stays off and the tick samples the split
        assertThat(CpuTimeAccounting.fromConfig(gen, false)).isEqualTo(
                new CpuTimeAccounting(CpuTimeAccounting.Kind.TICK, 1000));
        assertThat(CpuTimeAccounting.fromConfig(List.of("CONFIG_VIRT_CPU_ACCOUNTING_NATIVE=y", "CONFIG_HZ=100"),
                false).describe()).isEqualTo("precise");
        assertThat(CpuTimeAccounting.fromConfig(List.of("CONFIG_TICK_CPU_ACCOUNTING=y"), false))
                .isEqualTo(CpuTimeAccounting.UNKNOWN);
    }

    @Test
    void readsTheGzippedConfigurationFirstThenThePlainOne() throws IOException {
        Path gz = dir.resolve("config.gz");
        Path plain = dir.resolve("config");
        Path nohz = dir.resolve("nohz_full");
        Files.write(plain, List.of("CONFIG_TICK_CPU_ACCOUNTING=y", "CONFIG_HZ=100"));
        Files.writeString(nohz, "(null)\n");

        assertThat(CpuTimeAccounting.detect(gz, plain, nohz).hz()).isEqualTo(100);

        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(gz))) {
            out.write(String.join("\n", TICK_250).getBytes(StandardCharsets.UTF_8));
        }
        assertThat(CpuTimeAccounting.detect(gz, plain, nohz).hz()).isEqualTo(250);
    }

    @Test
    void unreadableOrCorruptConfigurationIsUnknown() throws IOException {
        Path gz = dir.resolve("config.gz");
        Files.writeString(gz, "not gzip");

        assertThat(CpuTimeAccounting.detect(gz, dir.resolve("none"), dir.resolve("none")))
                .isEqualTo(CpuTimeAccounting.UNKNOWN);
        assertThat(CpuTimeAccounting.detect(dir.resolve("none.gz"), dir.resolve("none"), dir.resolve("none")))
                .isEqualTo(CpuTimeAccounting.UNKNOWN);
    }

    @Test
    void samplingErrorOfTwoBusyCpusForFiveSeconds() {
        // 2 CPUs × 5 s at 250 Hz = 2,500 ticks; 17 % of the time in user mode
        CpuTimeAccounting tick = new CpuTimeAccounting(CpuTimeAccounting.Kind.TICK, 250);

        assertThat(tick.userSamplingError(1_700_000, 8_300_000)).isCloseTo(0.04419, within(1e-5));
        assertThat(tick.systemSamplingError(1_700_000, 8_300_000)).isCloseTo(0.00905, within(1e-5));
        assertThat(tick.userSamplingError(0, 8_300_000)).isNaN();
        assertThat(new CpuTimeAccounting(CpuTimeAccounting.Kind.PRECISE, 250).userSamplingError(1_700_000, 8_300_000))
                .isNaN();
    }

    @Test
    void samplingErrorIsTheSpreadOfSimulatedTickSampling() {
        // each of 2,500 ticks lands in user mode with probability 0.17; the kernel scales the exact total by the
        // user share of the ticks: the spread of that estimate over many windows is what the formula predicts
        Random random = new Random(20261130);
        int ticks = 2_500;
        double share = 0.17;
        int windows = 4_000;
        double sum = 0;
        double sumSquares = 0;
        for (int w = 0; w < windows; w++) {
            int user = 0;
            for (int t = 0; t < ticks; t++) {
                if (random.nextDouble() < share) {
                    user++;
                }
            }
            double estimate = (double) user / ticks;
            sum += estimate;
            sumSquares += estimate * estimate;
        }
        double mean = sum / windows;
        double observed = Math.sqrt((sumSquares - windows * mean * mean) / (windows - 1)) / mean;
        double predicted = new CpuTimeAccounting(CpuTimeAccounting.Kind.TICK, 250)
                .userSamplingError(1_700_000, 8_300_000);

        assertThat(observed).isCloseTo(predicted, within(0.05 * predicted));
    }

    @Test
    void thisHostIsDetectedWithoutFailing() {
        assertThat(CpuTimeAccounting.host().describe()).isNotBlank();
    }
}
