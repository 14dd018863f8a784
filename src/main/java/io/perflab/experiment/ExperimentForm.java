package io.perflab.experiment;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the "new experiment" form binds: a preset or both variants' engine options, the workload, and the plan.
 * Blank fields mean "the preset's or rpc-bench's default".
 */
public class ExperimentForm {

    private String name = "";
    private String description = "";
    private String preset = "";
    private Map<String, String> without = new LinkedHashMap<>();
    private Map<String, String> with = new LinkedHashMap<>();
    private Map<String, String> workload = new LinkedHashMap<>();
    private Integer runsPerVariant = ExperimentValidator.DEFAULT_RUNS;
    private String order = "interleaved";
    private Long seed = 1L;

    /** The API request this form stands for. */
    ExperimentRequest toRequest() {
        Map<String, Object> workloadFields = new LinkedHashMap<>();
        workload.forEach((key, value) -> {
            if (value != null && !value.isBlank()) {
                workloadFields.put(key, typed(key, value.trim()));
            }
        });
        boolean hasPreset = preset != null && !preset.isBlank();
        return new ExperimentRequest(name, blankToNull(description), "engine", hasPreset ? preset : null,
                nonBlank(without, hasPreset), nonBlank(with, hasPreset), workloadFields, null, null, null, null,
                runsPerVariant, order, seed, null, null);
    }

    /** Numbers as numbers (the API checks their range), the rest as text. */
    private static Object typed(String key, String value) {
        if (key.equals("mode") || key.equals("warmupSeconds")) {
            return value;
        }
        if (key.equals("encryption")) {
            return Boolean.parseBoolean(value);
        }
        try {
            return key.equals("runSeconds") ? Double.parseDouble(value) : (Object) Long.parseLong(value);
        } catch (NumberFormatException e) {
            return value;
        }
    }

    /** Only the options the user set; with a preset, none set means "take the preset's". */
    private static Map<String, String> nonBlank(Map<String, String> options, boolean hasPreset) {
        Map<String, String> set = new LinkedHashMap<>();
        options.forEach((k, v) -> {
            if (v != null && !v.isBlank()) {
                set.put(k, v.trim());
            }
        });
        return set.isEmpty() && hasPreset ? null : set;
    }

    private static String blankToNull(String text) {
        return text == null || text.isBlank() ? null : text;
    }

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public String getDescription() {
        return description;
    }

    public void setDescription(String description) {
        this.description = description;
    }

    public String getPreset() {
        return preset;
    }

    public void setPreset(String preset) {
        this.preset = preset;
    }

    public Map<String, String> getWithout() {
        return without;
    }

    public void setWithout(Map<String, String> without) {
        this.without = without;
    }

    public Map<String, String> getWith() {
        return with;
    }

    public void setWith(Map<String, String> with) {
        this.with = with;
    }

    public Map<String, String> getWorkload() {
        return workload;
    }

    public void setWorkload(Map<String, String> workload) {
        this.workload = workload;
    }

    public Integer getRunsPerVariant() {
        return runsPerVariant;
    }

    public void setRunsPerVariant(Integer runsPerVariant) {
        this.runsPerVariant = runsPerVariant;
    }

    public String getOrder() {
        return order;
    }

    public void setOrder(String order) {
        this.order = order;
    }

    public Long getSeed() {
        return seed;
    }

    public void setSeed(Long seed) {
        this.seed = seed;
    }
}
