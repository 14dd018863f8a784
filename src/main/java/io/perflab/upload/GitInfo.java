package io.perflab.upload;

import java.time.Instant;

/**
 * Which commit an upload measured; every field may be null.
 *
 * @param baseCommit the commit to compare with (a pull request's merge base)
 * @param defaultBranch the repository's default branch, compared with when there is no {@code baseCommit};
 *     {@code main} or {@code master} when not given
 */
public record GitInfo(String repository, String branch, String commit, String baseCommit, String pullRequest,
                      Instant commitTime, String defaultBranch) {

    static final GitInfo NONE = new GitInfo(null, null, null, null, null, null, null);

    /** This, with each null field taken from {@code fallback}. */
    GitInfo orElse(GitInfo fallback) {
        return new GitInfo(first(repository, fallback.repository), first(branch, fallback.branch),
                first(commit, fallback.commit), first(baseCommit, fallback.baseCommit),
                first(pullRequest, fallback.pullRequest), commitTime != null ? commitTime : fallback.commitTime,
                first(defaultBranch, fallback.defaultBranch));
    }

    private static String first(String a, String b) {
        return a != null && !a.isBlank() ? a : b;
    }
}
