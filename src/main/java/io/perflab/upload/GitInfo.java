package io.perflab.upload;

import io.perflab.system.StorableTime;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.OffsetDateTime;

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

    /**
     * A commit time as uploads take it: ISO-8601 with an offset, or epoch seconds; null for none (null or blank).
     *
     * @throws IllegalArgumentException saying what is wrong with {@code text} without naming a field, which the
     *     JSON ({@code git.commitTime}) and the command line ({@code --commit-time}) each give
     */
    public static Instant parseCommitTime(String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        String stripped = text.strip();
        Instant time;
        try {
            time = stripped.matches("\\d+") ? Instant.ofEpochSecond(Long.parseLong(stripped))
                    : OffsetDateTime.parse(stripped).toInstant();
        } catch (DateTimeException | NumberFormatException e) {
            throw new IllegalArgumentException("'" + UploadText.shown(text) + "' is not an ISO-8601 time with "
                    + "offset (e.g. 2025-01-31T12:00:00Z) nor epoch seconds");
        }
        String problem = StorableTime.problem(time);
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
        return time;
    }

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
