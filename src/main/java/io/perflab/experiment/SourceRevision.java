package io.perflab.experiment;

import java.time.Instant;

/** The commit an experiment measured; every field may be null. */
public record SourceRevision(String repository, String branch, String commit, String baseCommit,
                             String pullRequest, Instant commitTime) {
}
