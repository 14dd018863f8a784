package io.perflab.runner.experiment;

/**
 * One position of an experiment's plan.
 *
 * @param ordinal position in the plan, from 0
 * @param variant the side it runs
 */
public record PlannedTrial(int ordinal, VariantName variant) {
}
