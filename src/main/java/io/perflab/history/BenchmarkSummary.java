package io.perflab.history;

import java.time.Instant;
import java.util.List;

/** A benchmark that has uploads: how many, on which branches, and the latest. */
public record BenchmarkSummary(String name, long uploads, List<String> branches, Instant lastUploadAt,
                               long latestExperimentId) {
}
