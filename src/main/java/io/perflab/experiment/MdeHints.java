package io.perflab.experiment;

import io.perflab.display.ScriptJson;
import io.perflab.paired.PairedInput;
import io.perflab.runner.experiment.ExperimentDesign;
import io.perflab.runner.trial.MetricKeys;
import io.perflab.stats.ComparisonOptions;
import io.perflab.stats.Power;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.Optional;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * The new-experiment form's estimate of the smallest change of CPU per request an experiment would detect (80 %
 * power, α = 0.05), from the last comparable completed engine experiment of each design: the form's preset, if it
 * has one, and in a paired design as many windows per pair (the spread of a pair's mean depends on them). The
 * spread that experiment measured is carried to other sizes as its test would see it: for the fresh design by Welch's
 * (t<sub>1−α/2,ν</sub> + t<sub>1−β,ν</sub>)·√(2/n) with ν = 2(n − 1) (equal spreads assumed), for a
 * paired one by (t<sub>1−α/2,K−1</sub> + t<sub>1−β,K−1</sub>)/√K on the log ratio; so the form says what
 * the size entered would detect.
 */
@Component
class MdeHints {

    /** How many completed engine experiments, newest first, are looked at for comparable ones. */
    static final int LOOKED_AT = 50;

    /** The largest size with an exact figure; beyond it the form scales by 1/√n (the t quantiles are near z's). */
    static final int LARGEST_SIZE = 200;

    /**
     * A design's hint.
     *
     * @param size the runs per variant (fresh) or pairs (paired) of the experiment it comes from
     * @param windowsPerPair its windows per pair; 1 in the fresh design
     * @param mdePercent what it could detect, ±%
     * @param bySize what an experiment of n = 2 … {@value #LARGEST_SIZE} runs or pairs like it would detect
     */
    record Hint(String design, long experimentId, int size, int windowsPerPair, double mdePercent,
                List<Double> bySize) {

        /** What an experiment of {@code n} runs or pairs would detect, ±%; NaN below 2. */
        double at(int n) {
            if (n < 2) {
                return Double.NaN;
            }
            return n <= LARGEST_SIZE ? bySize.get(n - 2)
                    : bySize.get(bySize.size() - 1) * Math.sqrt((double) LARGEST_SIZE / n);
        }
    }

    /**
     * What the form shows: the hint of its design, if any, what the size entered would detect, and every design's
     * hint as JSON for the form's script, which follows the design and size as they are changed. The hints hold for
     * {@code preset} and {@code windowsPerPair} only, so the script hides them when either is changed.
     *
     * @param preset the id of the form's preset the hints were chosen for; "" for none, or one that is no preset
     * @param windowsPerPair the form's windows per pair the paired hints were chosen for; null for any
     */
    record ForForm(Hint hint, Double estimatePercent, String hintsJson, String preset, Integer windowsPerPair) {
    }

    private final ExperimentService experiments;
    private final ExperimentResults results;
    private final JsonMapper json;

    MdeHints(ExperimentService experiments, ExperimentResults results, JsonMapper json) {
        this.experiments = experiments;
        this.results = results;
        this.json = json;
    }

    /** The hints for {@code form}'s preset and windows per pair, and the one of its design at its size. */
    ForForm forForm(ExperimentForm form) {
        // a preset that is none (refused beside its field) is none here too: it went into the page's data-preset as it
        // was sent, an escape sequence or a right-to-left override included
        String preset = form.getPreset() == null ? "" : ExperimentPreset.find(form.getPreset())
                .map(ExperimentPreset::id).orElse("");
        Map<String, Hint> hints = hints(preset, form.getWindowsPerPair());
        String design = form.getDesign() == null ? "" : form.getDesign().strip().toLowerCase(Locale.ROOT);
        Hint hint = hints.get(design);
        // blank runs are the fresh design's default, blank pairs the default experiment's most
        Integer size = ExperimentDesign.FRESH.label().equals(design) ? (form.getRunsPerVariant() == null
                ? Integer.valueOf(ExperimentValidator.DEFAULT_RUNS) : form.getRunsPerVariant())
                : form.getPairs() == null ? Integer.valueOf(PairedInput.DEFAULT_PAIRS) : form.getPairs();
        Double estimate = hint == null || size == null || size < 2 ? null : hint.at(size);
        return new ForForm(hint, estimate, ScriptJson.write(json, hints), preset, form.getWindowsPerPair());
    }

    /**
     * The hint of each design that has a comparable experiment, by design label.
     *
     * @param preset the form's preset; null or blank for experiments without one
     * @param windowsPerPair the form's windows per pair, which a paired design's experiment must have had
     */
    Map<String, Hint> hints(String preset, Integer windowsPerPair) {
        Map<ExperimentDesign, Hint> found = new EnumMap<>(ExperimentDesign.class);
        // a form without a preset takes any experiment's spread; one with a preset, that preset's
        String wantedPreset = preset == null || preset.isBlank() ? null : preset;
        for (ExperimentRecord e : experiments.list(new ExperimentFilter(ExperimentStatus.COMPLETED, null,
                ExperimentKind.ENGINE, null, false), 0, LOOKED_AT)) {
            boolean comparable = !found.containsKey(e.design())
                    && (wantedPreset == null || wantedPreset.equals(e.preset()))
                    && (!e.paired() || windowsPerPair == null || windowsPerPair == e.windowsPerPair());
            if (comparable) {
                hint(e).ifPresent(h -> found.put(e.design(), h));
            }
        }
        Map<String, Hint> byLabel = new LinkedHashMap<>();
        found.forEach((design, hint) -> byLabel.put(design.label(), hint));
        return byLabel;
    }

    private Optional<Hint> hint(ExperimentRecord e) {
        return results.compare(e).stream()
                .filter(c -> c.key().equals(MetricKeys.CPU_US_PER_REQ) && c.sensitivity().mdePercent() != null
                        && (c.paired() != null) == e.paired())
                .findFirst()
                .map(c -> {
                    int size = c.paired() != null ? c.paired().pairs()
                            : Math.min(c.groups().nWith(), c.groups().nWithout());
                    double mde = c.sensitivity().mdePercent();
                    return new Hint(e.design().label(), e.id(), size, e.paired() ? e.windowsPerPair() : 1, mde,
                            bySize(e.paired(), size, mde));
                })
                .filter(h -> h.size() >= 2 && Double.isFinite(h.mdePercent()));
    }

    /** What experiments of 2 … {@value #LARGEST_SIZE} runs or pairs detect if one of {@code size} detects ±mde %. */
    static List<Double> bySize(boolean paired, int size, double mdePercent) {
        ComparisonOptions o = ComparisonOptions.defaults();
        List<Double> bySize = new ArrayList<>();
        if (paired) {
            // the spread of the pairs' log ratios that gives this MDE at this size
            double perUnitSd = Math.log1p(Power.paired(1.0, size, o.alpha(), o.power(), 1.0)
                    .minimumDetectableEffectPercent() / 100);
            double sd = Math.log1p(mdePercent / 100) / perUnitSd;
            for (int k = 2; k <= LARGEST_SIZE; k++) {
                bySize.add(Power.paired(sd, k, o.alpha(), o.power(), 1.0).minimumDetectableEffectPercent());
            }
        } else {
            double atSize = Power.minimumDetectableDifference(1.0, size, o.alpha(), o.power());
            for (int n = 2; n <= LARGEST_SIZE; n++) {
                bySize.add(mdePercent * Power.minimumDetectableDifference(1.0, n, o.alpha(), o.power()) / atSize);
            }
        }
        return bySize;
    }
}
