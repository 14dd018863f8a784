package io.perflab.experiment;

import io.perflab.paired.PairedInput;
import io.perflab.runner.experiment.ExperimentDesign;
import io.perflab.runner.experiment.TrialOrder;
import io.perflab.runner.experiment.VariantName;
import io.perflab.runner.rpcbench.CallMode;
import io.perflab.runner.rpcbench.Seconds;
import io.perflab.runner.rpcbench.Warmup;
import io.perflab.runner.rpcbench.WorkloadSettings;
import io.perflab.system.PrintableText;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.springframework.validation.Errors;

/**
 * What the "new experiment" form binds: the text the user typed, kept as typed so that the form can show it again
 * beside an error. {@link #toRequest} turns it into the API's {@link ExperimentRequest}; a value that is not of
 * its field's type is rejected on that field. Blank fields mean "the preset's or rpc-bench's default". With
 * {@code kind} {@code command} (offered to administrators where command experiments are enabled), the commands, the
 * format of their output, their directories and environments (one {@code NAME=value} a line) are sent instead of the
 * engine's options and workload. The paired designs' pairs, windows, targets and budget are sent with either kind.
 * Over 300 lines because Spring binds a form through a getter and a setter per field.
 */
public class ExperimentForm {

    /** The workload fields of the form, as {@link WorkloadSettings} names them. */
    static final List<String> WORKLOAD_FIELDS = List.of("clientThreads", "asyncConcurrency",
            "workerThreads", "serverReactors", "requestBytes", "responseBytes", "warmupSeconds", "runSeconds");

    /** The request fields the form has an input for. */
    static final Set<String> FIELDS = Set.of("name", "description", "preset",
            VariantName.WITHOUT.label(), VariantName.WITH.label(), "workload", "runsPerVariant", "order", "seed",
            "kind", "withoutCommand", "withCommand", "metricsFormat", "withoutDirectory", "withDirectory",
            "withoutEnvironment", "withEnvironment", "design", "pairs", "windowsPerPair", "target", "budget",
            "hostLabels");

    /**
     * The form's fields whose entries show their own errors ({@code workload[runSeconds]}); a variant's options show
     * theirs together, under the variant.
     */
    private static final Set<String> MAP_FIELDS = Set.of("workload");

    private String name = "";
    private String description = "";
    private String preset = "";
    private Map<String, String> without = new LinkedHashMap<>();
    private Map<String, String> with = new LinkedHashMap<>();
    private Map<String, String> workload = new LinkedHashMap<>();
    /** Blank unless the user gives it: the fresh design then runs {@link ExperimentValidator#DEFAULT_RUNS}. */
    private Integer runsPerVariant;
    private String order = "interleaved";
    private Long seed = 1L;
    private String kind = "engine";
    private String withoutCommand = "";
    private String withCommand = "";
    private String metricsFormat = "";
    private String withoutDirectory = "";
    private String withDirectory = "";
    private String withoutEnvironment = "";
    private String withEnvironment = "";
    private String design = PairedInput.defaultDesign(false).label();
    /** Blank unless the user gives them: the service then runs its default experiment ({@link PairedInput}). */
    private Integer pairs;
    private Integer windowsPerPair = PairedInput.DEFAULT_WINDOWS_PER_PAIR;
    private String target = "";
    private String budget = "";
    private String hostLabels = "";

    /** The API request this form stands for; a workload value of the wrong type is rejected into {@code errors}. */
    ExperimentRequest toRequest(Errors errors) {
        boolean paired = design != null && !design.isBlank()
                && !design.strip().equalsIgnoreCase(ExperimentDesign.FRESH.label());
        if ("command".equals(kind)) {
            return new ExperimentRequest(name, blankToNull(description), kind, null, null, null, null, null, null,
                    blankToNull(withoutCommand), blankToNull(withCommand), paired ? null : runsPerVariant,
                    order(paired), seed, null, null, blankToNull(metricsFormat),
                    blankToNull(withoutDirectory), blankToNull(withDirectory),
                    environment("withoutEnvironment", withoutEnvironment, errors),
                    environment("withEnvironment", withEnvironment, errors), blankToNull(design),
                    paired ? pairs : null, paired ? windowsPerPair : null, paired ? targets(target) : null,
                    paired ? blankToNull(budget) : null, labels(hostLabels, errors));
        }
        boolean hasPreset = preset != null && !preset.isBlank();
        WorkloadSettings settings = new WorkloadSettings(null,
                typed("mode", CallMode::parse, errors),
                typed("clientThreads", Integer::valueOf, errors),
                typed("asyncConcurrency", Integer::valueOf, errors),
                typed("workerThreads", Integer::valueOf, errors),
                typed("serverReactors", Integer::valueOf, errors),
                typed("encryption", Boolean::valueOf, errors),
                typed("requestBytes", Integer::valueOf, errors),
                typed("responseBytes", Integer::valueOf, errors),
                typed("warmupSeconds", Warmup::parse, errors),
                typed("runSeconds", Seconds::number, errors),
                typed("serverWorkNanos", Long::valueOf, errors));
        return new ExperimentRequest(name, blankToNull(description), "engine", hasPreset ? preset : null,
                nonBlank(without, hasPreset), nonBlank(with, hasPreset), settings, null, null, null, null,
                paired ? null : runsPerVariant, order(paired), seed, null, null, null, null, null, null, null,
                blankToNull(design),
                paired ? pairs : null, paired ? windowsPerPair : null, paired ? targets(target) : null,
                paired ? blankToNull(budget) : null, labels(hostLabels, errors));
    }

    /**
     * The order sent: a paired design's pairs run in turn whatever the order field says, so there it is sent only
     * when it is no order at all ({@code order=sideways}), to be refused by it rather than dropped.
     */
    private String order(boolean paired) {
        if (!paired) {
            return order;
        }
        try {
            TrialOrder.parse(order == null ? "" : order);
            return null;
        } catch (IllegalArgumentException notAnOrder) {
            return order;
        }
    }

    /** {@code k=v,k=v} as the API's map; null when blank, or when it is not labels (rejected into errors). */
    private static Map<String, String> labels(String text, Errors errors) {
        try {
            io.perflab.agent.HostLabels labels = io.perflab.agent.HostLabels.parse(text);
            return labels.isEmpty() ? null : labels.labels();
        } catch (IllegalArgumentException e) {
            errors.rejectValue("hostLabels", "typeMismatch", e.getMessage());
            return null;
        }
    }

    /** The targets typed in one field, separated by commas or spaces; null for none. */
    private static List<String> targets(String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        return Arrays.stream(text.strip().split("[,\\s]+")).filter(t -> !t.isBlank()).toList();
    }

    /** {@code NAME=value} lines as a map; a line without '=' is rejected on {@code field}. Null when blank. */
    private static Map<String, String> environment(String field, String text, Errors errors) {
        if (text == null || text.isBlank()) {
            return null;
        }
        Map<String, String> variables = new LinkedHashMap<>();
        for (String line : text.lines().map(String::strip).filter(line -> !line.isEmpty()).toList()) {
            int equals = line.indexOf('=');
            if (equals <= 0) {
                errors.rejectValue(field, "typeMismatch", "one NAME=value a line, got '"
                        + PrintableText.Validator.quoted(line) + "'");
                return null;
            }
            variables.put(line.substring(0, equals), line.substring(equals + 1));
        }
        return variables;
    }

    private <T> T typed(String field, Function<String, T> parse, Errors errors) {
        String text = workload.get(field);
        if (text == null || text.isBlank()) {
            return null;
        }
        try {
            return parse.apply(text.strip());
        } catch (NumberFormatException e) {
            errors.rejectValue(path("workload." + field), "typeMismatch",
                    "must be a whole number, got '" + PrintableText.Validator.quoted(text.strip()) + "'");
        } catch (IllegalArgumentException e) {
            errors.rejectValue(path("workload." + field), "typeMismatch", e.getMessage());
        }
        return null;
    }

    /**
     * The form's property path of a request field: {@code workload.clientThreads} is {@code workload[clientThreads]}
     * here, {@code without.completion} is {@code without} (the variant's options), {@code target[0]} is
     * {@code target}.
     */
    static String path(String requestField) {
        // a constraint on a map's values or a list's elements names them as a node of its own, e.g.
        // with[flush].<map value> or target[0].<list element>
        String field = requestField.replaceAll("\\.?<[a-z ]+>", "");
        String root = field.replaceAll("[.\\[].*", "");
        if (!MAP_FIELDS.contains(root)) {
            return root;
        }
        int dot = field.indexOf('.');
        return dot < 0 ? field : field.substring(0, dot) + "[" + field.substring(dot + 1) + "]";
    }

    /** Only the options the user set; with a preset, none set means "take the preset's". */
    private static Map<String, String> nonBlank(Map<String, String> options, boolean hasPreset) {
        Map<String, String> set = new LinkedHashMap<>();
        options.forEach((k, v) -> {
            if (v != null && !v.isBlank()) {
                set.put(k, v.strip());
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

    public String getDesign() {
        return design;
    }

    public void setDesign(String design) {
        this.design = design;
    }

    public Integer getPairs() {
        return pairs;
    }

    public void setPairs(Integer pairs) {
        this.pairs = pairs;
    }

    public Integer getWindowsPerPair() {
        return windowsPerPair;
    }

    public void setWindowsPerPair(Integer windowsPerPair) {
        this.windowsPerPair = windowsPerPair;
    }

    public String getTarget() {
        return target;
    }

    public void setTarget(String target) {
        this.target = target;
    }

    public String getBudget() {
        return budget;
    }

    public void setBudget(String budget) {
        this.budget = budget;
    }

    public String getHostLabels() {
        return hostLabels;
    }

    public void setHostLabels(String hostLabels) {
        this.hostLabels = hostLabels;
    }

    public Long getSeed() {
        return seed;
    }

    public void setSeed(Long seed) {
        this.seed = seed;
    }

    public String getKind() {
        return kind;
    }

    public void setKind(String kind) {
        this.kind = kind;
    }

    public String getWithoutCommand() {
        return withoutCommand;
    }

    public void setWithoutCommand(String withoutCommand) {
        this.withoutCommand = withoutCommand;
    }

    public String getWithCommand() {
        return withCommand;
    }

    public void setWithCommand(String withCommand) {
        this.withCommand = withCommand;
    }

    public String getMetricsFormat() {
        return metricsFormat;
    }

    public void setMetricsFormat(String metricsFormat) {
        this.metricsFormat = metricsFormat;
    }

    public String getWithoutDirectory() {
        return withoutDirectory;
    }

    public void setWithoutDirectory(String withoutDirectory) {
        this.withoutDirectory = withoutDirectory;
    }

    public String getWithDirectory() {
        return withDirectory;
    }

    public void setWithDirectory(String withDirectory) {
        this.withDirectory = withDirectory;
    }

    public String getWithoutEnvironment() {
        return withoutEnvironment;
    }

    public void setWithoutEnvironment(String withoutEnvironment) {
        this.withoutEnvironment = withoutEnvironment;
    }

    public String getWithEnvironment() {
        return withEnvironment;
    }

    public void setWithEnvironment(String withEnvironment) {
        this.withEnvironment = withEnvironment;
    }
}
