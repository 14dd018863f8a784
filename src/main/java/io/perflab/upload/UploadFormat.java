package io.perflab.upload;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/** The formats {@code POST /api/v1/uploads} reads, by their {@code ?format=} name. */
public enum UploadFormat {

    JSON("json", "PerfLab's upload JSON (an object with 'benchmark' and 'metrics', or 'with'/'without' blocks)"),
    JMH("jmh", "JMH JSON (-rf json: an array of results with 'benchmark' and 'primaryMetric')"),
    GOBENCH("gobench", "Go benchmark output (lines 'BenchmarkName-N  iterations  value unit …')"),
    GOOGLEBENCHMARK("googlebenchmark",
            "Google Benchmark JSON (--benchmark_format=json: an object with 'context' and 'benchmarks')"),
    HYPERFINE("hyperfine", "hyperfine JSON (--export-json: an object with 'results', each with 'command' and 'times')"),
    RPCBENCH("rpcbench", "rpc-bench report text (lines 'Reqs/sec:', 'User CPU per req:', 'Sys CPU per req:', "
            + "'Ctx Sw. per req:')"),
    CSV("csv", "CSV with the header 'metric,value[,variant][,unit]'");

    private final String label;
    private final String description;

    UploadFormat(String label, String description) {
        this.label = label;
        this.description = description;
    }

    public String label() {
        return label;
    }

    /** What content of this format looks like, for error messages. */
    public String description() {
        return description;
    }

    /** The labels, comma-separated, for messages. */
    public static String labels() {
        return Arrays.stream(values()).map(UploadFormat::label).collect(Collectors.joining(", "));
    }

    public static Optional<UploadFormat> byLabel(String text) {
        String wanted = text.strip().toLowerCase(Locale.ROOT);
        return Arrays.stream(values()).filter(f -> f.label.equals(wanted)).findFirst();
    }
}
