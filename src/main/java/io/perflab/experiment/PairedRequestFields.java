package io.perflab.experiment;

import io.perflab.paired.PairedInput;
import io.perflab.paired.SequentialStopping;
import io.perflab.runner.experiment.ExperimentDesign;
import io.perflab.runner.experiment.TrialOrder;
import io.perflab.runner.trial.MetricKeys;
import io.perflab.system.InvalidInputException;
import io.perflab.system.PrintableText;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The fields of an {@link ExperimentRequest} that belong to the paired designs — {@code design}, {@code pairs},
 * {@code windowsPerPair}, {@code target}, {@code budget} — checked for {@link ExperimentValidator}, each mistake an
 * {@link InvalidInputException} naming its field.
 */
final class PairedRequestFields {

    /** The column the targets are stored in, as JSON ({@code V7}). */
    static final int MAX_STORED_TARGETS = 2000;

    private PairedRequestFields() {
    }

    /**
     * The design, and the fields that go with it: a paired design takes no {@code runsPerVariant} or {@code order}
     * (its {@code pairs} default to {@link PairedInput#defaultPairs}); the fresh design takes none of the paired
     * fields. Without a {@code design}, a request that gives {@code runsPerVariant} is fresh and any other
     * alternating ({@link PairedInput#defaultDesign}).
     */
    static ExperimentDesign design(ExperimentRequest request, ExperimentKind kind) {
        ExperimentDesign design = PairedInput.defaultDesign(request.runsPerVariant() != null);
        if (request.design() != null) {
            design = java.util.Arrays.stream(ExperimentDesign.values())
                    .filter(d -> d.label().equalsIgnoreCase(request.design().strip())).findFirst()
                    .orElseThrow(() -> InvalidInputException.of("design", "unknown design '"
                            + PrintableText.Validator.quoted(request.design()) + "'; allowed: fresh, duet, "
                            + "alternating"));
        }
        if (design == ExperimentDesign.DUET && kind == ExperimentKind.COMMAND) {
            throw InvalidInputException.of("design", "a duet runs two trial JVMs at once; a command experiment "
                    + "takes fresh or alternating");
        }
        if (!design.paired()) {
            Map<String, Object> pairedFields = new LinkedHashMap<>();
            pairedFields.put("pairs", request.pairs());
            pairedFields.put("windowsPerPair", request.windowsPerPair());
            pairedFields.put("target", request.target());
            pairedFields.put("budget", request.budget());
            pairedFields.forEach((field, value) -> {
                if (value != null) {
                    throw InvalidInputException.of(field, "applies to the paired designs only; set \"design\" to "
                            + "\"duet\" or \"alternating\"");
                }
            });
            return design;
        }
        if (request.runsPerVariant() != null) {
            throw InvalidInputException.of("runsPerVariant", "sets the trials of the fresh design; the "
                    + design.label() + " design takes 'pairs'");
        }
        if (request.order() != null && ExperimentValidator.order(request.order()) != TrialOrder.INTERLEAVED) {
            throw InvalidInputException.of("order", "applies to the fresh design; the pairs of the " + design.label()
                    + " design run in turn, their CPU halves and start order swapped from pair to pair");
        }
        return design;
    }

    /**
     * The targets and budget of a paired design, each checked; an engine experiment that names neither its pairs nor
     * a target has the default's ({@link PairedInput#targetsOrDefault}).
     */
    static PairedStopping stopping(ExperimentRequest request, ExperimentKind kind) {
        // a command whose output is read may report any metric
        List<String> known = kind == ExperimentKind.ENGINE ? MetricKeys.ENGINE_ALL
                : request.metricsFormat() != null ? List.of() : MetricKeys.COMMAND;
        if (request.target() != null && request.target().isEmpty()) {
            // it fell back to the default target without a word
            throw InvalidInputException.of("target", "an empty list names no target: give one or more, e.g. "
                    + "[\"cpu_us_per_req:2%\"], or leave target out for the default");
        }
        List<SequentialStopping.Target> targets;
        try {
            targets = PairedInput.targets(PairedInput.targetsOrDefault(request.target() == null ? List.of()
                    : request.target(), request.pairs() != null, kind == ExperimentKind.COMMAND), known);
        } catch (IllegalArgumentException e) {
            throw InvalidInputException.of("target", e.getMessage());
        }
        PairedStopping stopping = new PairedStopping(targets, Optional.empty());
        ExperimentValidator.checkStoredLength("target", stopping.targetTexts(), MAX_STORED_TARGETS);
        Optional<Duration> budget = Optional.empty();
        if (request.budget() != null) {
            try {
                budget = Optional.of(PairedInput.budget(request.budget()));
            } catch (IllegalArgumentException e) {
                throw InvalidInputException.of("budget", e.getMessage());
            }
        }
        return new PairedStopping(targets, budget);
    }
}
