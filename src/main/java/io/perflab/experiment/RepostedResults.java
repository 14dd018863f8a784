package io.perflab.experiment;

import io.perflab.experiment.ExperimentRepository.StoredPair;
import io.perflab.experiment.ExperimentRepository.StoredRun;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;

/**
 * A trial or pair an agent posts again, against the one stored at its ordinal or index. A retry after a network error
 * posts the same body and stores nothing more; a body with other values is no retry, and is refused naming the first
 * field that differs, the stored one kept as it is (as an upload's Idempotency-Key used again for another upload is).
 * What counts is everything stored of it, each side as the store keeps it (an error cut to its column, a pid of -1 as
 * none): of a trial or window its variant, status, start, end, pid, metrics, error, environment, the values it read
 * from its output and where it lies in its pair; of a pair its status, placement, times, setup and measuring time,
 * error and runs. Times count to the microsecond, as the database keeps them; metrics exactly.
 */
final class RepostedResults {

    /** The database keeps times to the microsecond: a posted time within this of the stored one is that time. */
    private static final Duration TIME_RESOLUTION = Duration.ofNanos(1000);

    private RepostedResults() {
    }

    /**
     * Where {@code posted} differs from {@code stored}, both as stored, e.g.
     * {@code metrics.user_cpu_us_per_req: 41.7 stored, 999.0 posted}; empty when it is the same trial.
     *
     * @param prefix where the trial lies in the post, for the field's name: "" or {@code results[1].}
     */
    static Optional<String> difference(StoredRun stored, StoredRun posted, String prefix) {
        RunRecord was = stored.run();
        RunRecord now = posted.run();
        return shown(prefix + "variant", was.variant(), now.variant())
                .or(() -> shown(prefix + "status", was.status(), now.status()))
                .or(() -> time(prefix + "start", was.startedAt(), now.startedAt()))
                .or(() -> time(prefix + "end", was.finishedAt(), now.finishedAt()))
                .or(() -> shown(prefix + "pid", was.pid(), now.pid()))
                .or(() -> metrics(prefix + "metrics", was.metrics(), now.metrics()))
                .or(() -> unshown(prefix + "error", was.error(), now.error()))
                .or(() -> environment(prefix + "environment", was.environment(), now.environment()))
                .or(() -> unshown(prefix + "parsedMetrics", stored.outputValues(), posted.outputValues()))
                .or(() -> unshown(prefix + "window", was.pair(), now.pair()));
    }

    /** Where pair {@code posted}'s fields and runs differ from {@code stored}'s, both as stored; its windows aside. */
    static Optional<String> difference(StoredPair stored, StoredPair posted) {
        return shown("status", stored.status(), posted.status())
                .or(() -> shown("first", stored.placement().first().label(), posted.placement().first().label()))
                .or(() -> unshown("withoutCpus", stored.placement().withoutCpus(), posted.placement().withoutCpus()))
                .or(() -> unshown("withCpus", stored.placement().withCpus(), posted.placement().withCpus()))
                .or(() -> time("start", stored.start(), posted.start()))
                .or(() -> time("end", stored.end(), posted.end()))
                .or(() -> shown("setupSeconds", stored.setupSeconds(), posted.setupSeconds()))
                .or(() -> shown("measuringSeconds", stored.measuringSeconds(), posted.measuringSeconds()))
                .or(() -> unshown("error", stored.error(), posted.error()))
                .or(() -> shown("results", "the ordinals " + new TreeSet<>(stored.ordinals()),
                        "the ordinals " + new TreeSet<>(posted.ordinals())));
    }

    /** A difference of a value short and safe to quote: a status, a variant, a number. */
    private static Optional<String> shown(String field, Object stored, Object posted) {
        return Objects.equals(stored, posted) ? Optional.empty()
                : Optional.of(field + ": " + stored + " stored, " + posted + " posted");
    }

    /** A difference of a value not quoted (text of any length, a structure): the field named only. */
    private static Optional<String> unshown(String field, Object stored, Object posted) {
        return Objects.equals(stored, posted) ? Optional.empty() : Optional.of(field + " is not the one stored");
    }

    private static Optional<String> time(String field, Instant stored, Instant posted) {
        if (stored == null || posted == null) {
            return shown(field, stored, posted);
        }
        return Duration.between(stored, posted).abs().compareTo(TIME_RESOLUTION) < 0 ? Optional.empty()
                : shown(field, stored, posted);
    }

    /** The first metric, by key, that one side lacks or that has another value. */
    private static Optional<String> metrics(String field, Map<String, Double> stored, Map<String, Double> posted) {
        TreeSet<String> keys = new TreeSet<>(stored.keySet());
        keys.addAll(posted.keySet());
        for (String key : keys) {
            Double was = stored.get(key);
            Double now = posted.get(key);
            if (was == null || now == null) {
                return Optional.of(field + "." + key + ": " + (was == null ? "posted, not stored"
                        : "stored, not posted"));
            }
            if (was.doubleValue() != now.doubleValue()) {
                return shown(field + "." + key, was, now);
            }
        }
        return Optional.empty();
    }

    /** The first entry, by key, that one side lacks or that has another value; the values are not quoted. */
    private static Optional<String> environment(String field, Map<String, String> stored,
                                                Map<String, String> posted) {
        TreeSet<String> keys = new TreeSet<>(stored.keySet());
        keys.addAll(posted.keySet());
        return keys.stream().filter(key -> !Objects.equals(stored.get(key), posted.get(key))).findFirst()
                .map(key -> field + "." + key + " is not the one stored");
    }
}
