package io.perflab.load;

import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Output of {@code go test -bench . -benchmem -count RUNS} for many benchmarks, as a large CI job prints it: the
 * {@code goos}/{@code goarch}/{@code pkg}/{@code cpu} header, then each benchmark's runs one after the other, each
 * line with three metrics (ns/op, B/op, allocs/op). The default shape is issue 17's: 1,000 benchmarks × 200 runs ×
 * 3 metrics, 600,000 samples and 3,000 metrics in about 15.5 MB, just under the 16 MiB an upload may be.
 * Values come from a seeded generator, so the same arguments give the same file.
 */
final class GoBenchFile {

    /** The package the header names, which becomes the upload's benchmark. */
    static final String PACKAGE = "example.com/perflab/largeupload";

    private GoBenchFile() {
    }

    /** The text of a run of {@code benchmarks} benchmarks, {@code runs} times each. */
    static String generate(int benchmarks, int runs, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        StringBuilder out = new StringBuilder(benchmarks * runs * 80 + 200);
        out.append("goos: linux\ngoarch: amd64\npkg: ").append(PACKAGE)
                .append("\ncpu: AMD EPYC 7B13\n");
        for (int b = 0; b < benchmarks; b++) {
            String name = String.format(Locale.ROOT, "BenchmarkCodec/Op%04d-2", b);
            double nanos = 50 + 20_000 * random.nextDouble();
            long bytes = 16L * random.nextInt(1, 64);
            long allocs = random.nextInt(1, 12);
            long iterations = Math.max(1, Math.round(1e9 / nanos / 10));
            for (int r = 0; r < runs; r++) {
                double noisy = nanos * (1 + 0.03 * (random.nextDouble() - 0.5) * 2);
                out.append(name).append(" \t").append(String.format(Locale.ROOT, "%9d", iterations))
                        .append(String.format(Locale.ROOT, "\t%10.1f ns/op", noisy))
                        .append(String.format(Locale.ROOT, "\t%7d B/op", bytes))
                        .append(String.format(Locale.ROOT, "\t%5d allocs/op", allocs)).append('\n');
            }
        }
        out.append("PASS\nok  \t").append(PACKAGE).append("\t912.345s\n");
        return out.toString();
    }
}
