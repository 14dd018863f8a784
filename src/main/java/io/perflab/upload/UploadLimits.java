package io.perflab.upload;

import java.util.HashSet;
import java.util.Set;

/**
 * How much one upload may hold, checked while an adapter reads it so that an oversized file fails early, before it
 * is held in memory as values. The request body itself is limited to 16 MiB before it reaches an adapter
 * ({@code perflab.api.max-body-bytes}).
 *
 * <p>The defaults leave room for the largest realistic CI output, 1,000 Go benchmarks × 200 runs × 3 units
 * (3,000 metrics, 600,000 samples, 16 MB of text), while bounding the work one request makes: every metric is a
 * definition row, a t-test and a row on the experiment page, and every sample a stored row (600,000 take about 9 s
 * to store).
 *
 * @param maxMetrics distinct metric keys across both sides (benchmarks × what each reports, e.g. Go's
 *     {@code Join:ns/op} and {@code Join:B/op} are two)
 * @param maxSamples values across all metrics and both sides
 */
record UploadLimits(int maxMetrics, int maxSamples) {

    static final UploadLimits DEFAULT = new UploadLimits(10_000, 1_000_000);

    /** A fresh count for one upload. */
    Counter counter() {
        return new Counter();
    }

    /** Refuses {@code upload} when, as a whole, it holds more than the limits allow. */
    void check(ParsedUpload upload) {
        Counter counter = counter();
        upload.variants().values().forEach(side -> side.metrics().forEach((key, samples) -> {
            counter.metric(key);
            counter.samples(samples.values().size());
        }));
    }

    /** Counts one upload's metrics and samples as they are read; throws as soon as either passes its limit. */
    final class Counter {

        private final Set<String> metrics = new HashSet<>();
        private long samples;

        void metric(String key) {
            if (metrics.add(key) && metrics.size() > maxMetrics) {
                throw new InvalidUploadException("The upload has more than " + maxMetrics + " metrics (benchmarks × "
                        + "what each reports); split it into several uploads.");
            }
        }

        void samples(int count) {
            samples += count;
            if (samples > maxSamples) {
                throw new InvalidUploadException("The upload has more than " + maxSamples + " samples; split it "
                        + "into several uploads.");
            }
        }
    }
}
