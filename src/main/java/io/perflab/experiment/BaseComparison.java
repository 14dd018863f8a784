package io.perflab.experiment;

import com.fasterxml.jackson.annotation.JsonIgnore;
import io.swagger.v3.oas.annotations.media.Schema;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What an upload of one side was compared with when it came in, and that comparison made again from the stored
 * runs: the figures its CI gate judged ({@code perflab upload --fail-on-regression}), for its page and API.
 *
 * @param baseExperimentId the base: the latest upload of the same benchmark at the base commit or on the base branch
 * @param baseCommit the base's commit, or null
 * @param comparison this upload's runs as {@code with} against the base's as {@code without}
 * @param convertedFrom per metric the base measured in another unit, that unit (its figures were converted)
 * @param notes what was left out, and why
 */
public record BaseComparison(long baseExperimentId, @Schema(nullable = true) String baseCommit,
                             List<MetricComparison> comparison,
                             Map<String, String> convertedFrom, List<String> notes) {

    public BaseComparison {
        comparison = List.copyOf(comparison);
        convertedFrom = Collections.unmodifiableSortedMap(new TreeMap<>(convertedFrom));
        notes = List.copyOf(notes);
    }

    /** The headline metrics and the verdicts' counts of the comparison, as the page's answer shows them. */
    @JsonIgnore
    public ResultsSummary summary() {
        return ResultsSummary.of(comparison);
    }

    /** Makes the comparison of an upload with its base again, from the stored runs of both. */
    public interface Source {

        /** The comparison of upload {@code experimentId} with its base; empty when it had none. */
        java.util.Optional<BaseComparison> of(long experimentId);
    }
}
