package io.perflab.upload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** How the rpc-bench reader reads a value: whole, in the line's unit, and never from output cut off. */
class RpcBenchAdapterTests {

    private static final String HEADER = "Mode:            Sync\nClient threads:  4\n"
            + "----------------------------------\n";

    private final UploadFormats formats = new UploadFormats();

    private Map<String, MetricSamples> read(String content) {
        return formats.parse(content, UploadFormat.RPCBENCH, "with", null).variants().get("with").metrics();
    }

    /** The message refusing {@code line} as the fourth line of a report. */
    private String refusal(String line) {
        return assertThatThrownBy(() -> read(HEADER + line + "\n")).isInstanceOf(InvalidUploadException.class)
                .actual().getMessage();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            Reqs/sec:         9,135.95    | reqs_per_sec         | '9,135.95' is not a number.
            Ctx Sw. per req:  6,26495     | ctx_switches_per_req | '6,26495' is not a number.
            Latency p50:      0x1p3us     | latency_p50_us       | '0x1p3' is not a number.
            Reqs/sec:         1d          | reqs_per_sec         | '1d' is not a number.
            Reqs/sec:         12 34       | reqs_per_sec         | '12 34' is not a number.
            Reqs/sec:         9135.95abc  | reqs_per_sec         | '9135.95abc' is not a number.
            """)
    void readsTheWholeValueByTheSharedGrammarInsteadOfItsLeadingNumber(String line, String key, String why) {
        // each was stored as its leading digits: 9.0, 6.0, 0.0, 1.0, 12.0, 9135.95
        assertThat(refusal(line)).isEqualTo("Metric '" + key + "' (line 4: '" + line + "'): " + why);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            User CPU per req: 150.225ms | '150.225ms'
            User CPU per req: 150.225pc | '150.225pc'
            User CPU per req: 150.225   | '150.225'
            Alloc per req:    701 kB    | '701 kB'
            GC:               1 collections, 67 s | '1 collections, 67 s'
            Reqs/sec:                   | nothing
            """)
    void refusesAValueNotInTheUnitTheToolWritesNamingLineValueAndUnit(String line, String holds) {
        // 150.225ms was stored as 150.225 µs
        String label = line.substring(0, line.indexOf(':') + 1);
        assertThat(refusal(line)).startsWith("Line 4 ('" + line + "'): after '" + label + "' rpc-bench writes ")
                .endsWith("; the line holds " + holds + ".");
        assertThat(refusal("User CPU per req: 150.225ms")).contains("a number followed by 'us' (microseconds)");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            Reqs/sec:         -9135.95         | reqs_per_sec   | '-9135.95'
            Latency p99:      -4044.8us        | latency_p99_us | '-4044.8'
            GC:               -1 collections, 0 ms | gc_count   | '-1'
            GC:               1 collections, -67 ms | gc_pause_ms | '-67'
            """)
    void refusesNegativeValuesTheToolCannotWrite(String line, String key, String value) {
        assertThat(refusal(line)).isEqualTo("Metric '" + key + "' (line 4: '" + line + "'): " + value
                + " is negative, which rpc-bench never writes after '" + line.substring(0, line.indexOf(':') + 1)
                + "'.");
    }

    @Test
    void readsEveryLineAsTheToolWritesIt() {
        Map<String, MetricSamples> metrics = read(HEADER + """
                Reqs/sec:         1.55254e+06
                User CPU per req: 150.225us
                Ctx Sw. per req:  6.26495
                Vol./invol. Ctx Sw. per req: 5.37111 / 0.893844
                Syscalls per req: not counted (not metered: 12 reasons)
                Instructions / cycles per req: 251234 / 402345
                Alloc per req:    701.354 B
                Latency p99:      4044.8us
                GC:               1 collections, 67 ms
                """);
        assertThat(metrics.get("reqs_per_sec").values()).containsExactly(1.55254e6);
        assertThat(metrics.get("user_cpu_us_per_req").values()).containsExactly(150.225);
        assertThat(metrics.get("involuntary_ctx_switches_per_req").values()).containsExactly(0.893844);
        assertThat(metrics.get("alloc_bytes_per_req").values()).containsExactly(701.354);
        assertThat(metrics.get("latency_p99_us").values()).containsExactly(4044.8);
        assertThat(metrics.get("gc_pause_ms").values()).containsExactly(67.0);
        assertThat(metrics).doesNotContainKey("syscalls_per_req");
        assertThat(metrics.get("instructions_per_req").values()).containsExactly(251234.0);
        assertThat(metrics.get("cycles_per_req").values()).containsExactly(402345.0);
        assertThat(read(HEADER + "Reqs/sec:         1.55254e+06\nInstructions / cycles per req: not counted (this "
                + "host gives no hardware counters)\n")).containsOnlyKeys("reqs_per_sec");
    }

    @Test
    void refusesOutputCutOffWithinItsLastLine() {
        String whole = Fixtures.read("rpcbench-perflab.txt");
        String cut = whole.substring(0, whole.indexOf("Latency p99:      4044.8us") + "Latency p99:      40".length());
        // was stored with latency_p99_us = 40, and the report's later lines dropped without a note
        assertThatThrownBy(() -> read(cut)).isInstanceOf(InvalidUploadException.class)
                .hasMessage("The rpc-bench output is cut off at line 15 ('Latency p99:      40'): it ends without a "
                        + "line end, so the line may have lost part of its value and the lines after it are missing. "
                        + "Upload the whole output.");
        assertThat(read(whole.substring(0, whole.indexOf("Latency p99:")))).containsKey("latency_p50_us");
    }

    @Test
    void refusesAMetricLineRepeatedWithinOneReportNamingBothLines() {
        // was "Metric '…': the name is longer than 100 characters", the repeat taken for a report of no settings
        assertThatThrownBy(() -> read(HEADER + "Reqs/sec:         9135.95\nReqs/sec:         1.0\n"))
                .isInstanceOf(InvalidUploadException.class)
                .hasMessage("Line 5 ('Reqs/sec:         1.0') repeats 'Reqs/sec:' of line 4 in the same report; "
                        + "rpc-bench writes it once a report, and a report begins at its 'Mode:' line.");
    }

    /**
     * A metric line hundreds of kilobytes long is refused at once: the line's reading tried each later place of its
     * text (' collections,', ' / ') and each character of a run of spaces, and took time growing with the square of
     * its length (HostileUploadPropertyTests found the GC line; 9 s at 120 KB, minutes for these).
     */
    @Test
    void refusesAVeryLongMetricLineAtOnce() {
        String gc = "GC:               " + "1 collections, ".repeat(20_000) + "x";
        String volumes = "Vol./invol. Ctx Sw. per req: " + "1 / ".repeat(75_000) + "\u0085x";
        String alloc = "Alloc per req:    701.354" + " ".repeat(300_000) + "x B";
        assertThat(assertTimeoutPreemptively(Duration.ofSeconds(5), () -> refusal(gc)))
                .startsWith("Line 4 ('GC:               1 collections, 1 collections,")
                .contains("after 'GC:' rpc-bench writes '<count> collections, <pause> ms'; the line holds '1 "
                        + "collections, 1 collections,");
        assertThat(assertTimeoutPreemptively(Duration.ofSeconds(5), () -> refusal(volumes)))
                .startsWith("Line 4 ('Vol./invol. Ctx Sw. per req: 1 / 1 / 1")
                .contains("rpc-bench writes two numbers as '<voluntary> / <involuntary>'");
        assertThat(assertTimeoutPreemptively(Duration.ofSeconds(5), () -> refusal(alloc)))
                .startsWith("Metric 'alloc_bytes_per_req' (line 4: 'Alloc per req:    701.354    ")
                .endsWith("' is not a number.");
    }
}
