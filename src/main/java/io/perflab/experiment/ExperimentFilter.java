package io.perflab.experiment;

import io.perflab.system.Texts;

/**
 * Which experiments a list shows. Null fields do not filter.
 *
 * @param status only this status
 * @param nameContains only names containing this, case-insensitive
 * @param kind only this kind
 * @param benchmarkContains only uploads whose benchmark's name contains this, case-insensitive, as for names
 * @param oldestFirst sort by creation time ascending instead of newest first
 */
public record ExperimentFilter(ExperimentStatus status, String nameContains, ExperimentKind kind,
                               String benchmarkContains, boolean oldestFirst) {

    public ExperimentFilter {
        benchmarkContains = Texts.composed(benchmarkContains);
    }

    public static final ExperimentFilter ALL = new ExperimentFilter(null, null, null, null, false);

    public static ExperimentFilter status(ExperimentStatus status) {
        return new ExperimentFilter(status, null, null, null, false);
    }
}
