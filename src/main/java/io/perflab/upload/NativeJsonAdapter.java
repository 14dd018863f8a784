package io.perflab.upload;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.JsonNode;

/**
 * PerfLab's own upload JSON:
 * <pre>
 * {"benchmark": "parser", "name": "optional title",
 *  "variant": "with",                       // or "without", or a label (stored as 'with')
 *  "metrics": {"ns_per_op": {"unit": "ns", "direction": "lower", "values": [12.1, 12.3]}},
 *  // or instead of variant/metrics: "without": {"label": "…", "metrics": {…}}, "with": {…}
 *  "git": {"repository": "…", "branch": "…", "commit": "…", "baseCommit": "…", "pullRequest": "…",
 *          "commitTime": "2025-01-31T12:00:00Z", "defaultBranch": "main"},
 *  "machine": {…}, "tags": ["…"]}
 * </pre>
 * Values are read as they are; validation rejects NaN, infinities and empty lists naming the metric. A field that
 * is not one of these (a misspelt {@code "direciton"}, {@code "gti"}) is refused, as in every request body: skipped,
 * it would lose what it says without a word. Only {@code machine} is free-form. A refusal names the path of the
 * field at fault ({@code git.pullRequest}, {@code tags[2]}), and each side keeps where it is
 * ({@link VariantSamples.Fields}) for the validator's refusals to name. The git fields are checked here, in their
 * file: a two-file upload's are merged before validation.
 *
 * <p>Over 300 lines: each field of the format is read strictly and refused at its path.
 */
final class NativeJsonAdapter implements FormatAdapter {

    private static final List<String> UPLOAD_FIELDS = List.of("benchmark", "name", "variant", "metrics", "without",
            "with", "git", "machine", "tags");
    private static final List<String> SIDE_FIELDS = List.of("label", "metrics");
    private static final List<String> METRIC_FIELDS = List.of("unit", "direction", "values");
    private static final List<String> GIT_FIELDS = List.of("repository", "branch", "commit", "baseCommit",
            "pullRequest", "commitTime", "defaultBranch");
    private static final String COMMIT_TIME = "git.commitTime";

    @Override
    public UploadFormat format() {
        return UploadFormat.JSON;
    }

    @Override
    public ParsedUpload parse(String content, String variant, String label, UploadLimits.Counter limits) {
        JsonNode root = JsonContent.read(content);
        if (!root.isObject()) {
            throw UploadFormats.wrongFormat(UploadFormat.JSON, content);
        }
        onlyFields(root, "", "", UPLOAD_FIELDS, "it has");
        Map<String, VariantSamples> variants = new LinkedHashMap<>();
        boolean blocks = root.has(ParsedUpload.WITHOUT) || root.has(ParsedUpload.WITH);
        if (blocks && root.has("metrics")) {
            throw new InvalidUploadException("metrics", "Give either 'metrics' (one variant) or 'with'/'without' "
                    + "blocks, not both.");
        }
        if (blocks) {
            for (String side : List.of(ParsedUpload.WITHOUT, ParsedUpload.WITH)) {
                JsonNode block = root.get(side);
                if (block == null || block.isNull()) {
                    continue;
                }
                if (!block.isObject() || !block.has("metrics")) {
                    throw new InvalidUploadException(side, "'" + side + "' must be an object with 'metrics'.");
                }
                onlyFields(block, side + ".", side, SIDE_FIELDS, "a side has");
                String at = UploadFields.key(side, "metrics");
                Set<String> listed = new HashSet<>();
                variants.put(side, new VariantSamples(strictText(block, "label", side + ".", side),
                        metrics(block.get("metrics"), side, at, listed, limits), null,
                        new VariantSamples.Fields(UploadFields.key(side, "label"), at, listed)));
            }
        } else if (root.has("metrics")) {
            String declared = strictText(root, "variant", "", "");
            String side = declared == null ? variant : Variants.side(declared);
            String sideLabel = declared == null ? label : Variants.label(declared);
            Set<String> listed = new HashSet<>();
            // the label of ?variant= or of the field 'variant', which the parameter is named as too
            variants.put(side, new VariantSamples(sideLabel, metrics(root.get("metrics"), side, "metrics", listed,
                    limits), null, new VariantSamples.Fields("variant", "metrics", listed)));
        } else {
            // the object is the upload's (its fields are), but holds no values: it was "not in the format 'json' …
            // found a JSON object with the fields [benchmark, variant, git] (it looks like json)"
            throw new InvalidUploadException("metrics", "The upload has neither 'metrics' (the values of one side) "
                    + "nor 'without'/'with' blocks (of both sides); give one of them.");
        }
        return new ParsedUpload(strictText(root, "benchmark", "", ""), strictText(root, "name", "", ""), variants,
                git(root.get("git")),
                machine(root.get("machine")), tags(root.get("tags")));
    }

    /**
     * @param at where the metrics are, for a refusal's field: {@code metrics}, {@code with.metrics}
     * @param listed gets the keys of the metrics written as their list of values alone
     */
    private static Map<String, MetricSamples> metrics(JsonNode node, String side, String at, Set<String> listed,
            UploadLimits.Counter limits) {
        if (!node.isObject()) {
            throw new InvalidUploadException(at, "'metrics' of '" + side + "' must be an object: metric key → "
                    + "{unit, direction, values}.");
        }
        Map<String, MetricSamples> metrics = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> entry : node.properties()) {
            String key = entry.getKey();
            String field = UploadFields.key(at, key);
            limits.metric(key);
            JsonNode metric = entry.getValue();
            if (metric.isObject()) {
                onlyFields(metric, "metrics." + key + ".", field, METRIC_FIELDS, "a metric has");
            }
            // a metric may be its list of values alone: "parse": [1, 2]
            if (metric.isArray()) {
                listed.add(key);
            }
            JsonNode values = metric.isArray() ? metric : metric.get("values");
            String valuesField = metric.isArray() ? field : UploadFields.key(field, "values");
            if (values == null || !values.isArray()) {
                throw new InvalidUploadException(metric.isObject() ? valuesField : field, "Metric '"
                        + UploadText.excerpt(key) + "' has no 'values' list.");
            }
            List<Double> numbers = new ArrayList<>();
            int index = 0;
            for (JsonNode value : values) {
                if (!value.isNumber()) {
                    throw new InvalidUploadException(UploadFields.index(valuesField, index), "Metric '"
                            + UploadText.excerpt(key) + "': values[" + index + "] is not a number: "
                            + UploadText.excerpt(value.toString()) + ".");
                }
                limits.samples(1);
                numbers.add(value.doubleValue());
                index++;
            }
            String where = "metrics." + key + ".";
            metrics.put(key, new MetricSamples(metric.isObject() ? strictText(metric, "unit", where, field) : null,
                    metric.isObject() ? direction(key, strictText(metric, "direction", where, field),
                            UploadFields.key(field, "direction")) : null, numbers));
        }
        return metrics;
    }

    /**
     * {@code lower}/{@code higher} (also {@code lower_is_better}…) → higher-is-better; null when absent.
     *
     * @param field where the direction is, for a refusal's field: {@code metrics.qps.direction}
     */
    static Boolean direction(String metric, String direction, String field) {
        if (direction == null) {
            return null;
        }
        String d = direction.strip().toLowerCase(Locale.ROOT);
        if (d.equals("lower") || d.equals("lower_is_better") || d.equals("smaller")) {
            return false;
        }
        if (d.equals("higher") || d.equals("higher_is_better") || d.equals("bigger")) {
            return true;
        }
        throw new InvalidUploadException(field, "Metric '" + UploadText.excerpt(metric) + "': unknown direction '"
                + UploadText.excerpt(direction)
                + "'; use 'lower' or 'higher' (which values are better).");
    }

    private static GitInfo git(JsonNode git) {
        if (git == null || git.isNull()) {
            return GitInfo.NONE;
        }
        if (!git.isObject()) {
            throw new InvalidUploadException("git", "'git' must be an object with repository, branch, commit, "
                    + "baseCommit, pullRequest, commitTime.");
        }
        onlyFields(git, "git.", "git", GIT_FIELDS, "git has");
        GitInfo info = new GitInfo(strictText(git, "repository", "git.", "git"),
                strictText(git, "branch", "git.", "git"), strictText(git, "commit", "git.", "git"),
                strictText(git, "baseCommit", "git.", "git"), pullRequest(git), commitTime(git.get("commitTime")),
                strictText(git, "defaultBranch", "git.", "git"));
        // checked here, in its file: the validator sees the git fields of a two-file upload's files merged
        UploadValidator.checkGit(info);
        return info;
    }

    static Instant commitTime(JsonNode node) {
        if (node == null || node.isNull()) {
            return null;
        }
        if (node.isNumber()) {
            return commitTime(node.asString());
        }
        if (!node.isString()) {
            throw new InvalidUploadException(COMMIT_TIME, "'git.commitTime' must be an ISO-8601 time with offset "
                    + "(e.g. 2025-01-31T12:00:00Z) or epoch seconds, got " + kind(node) + ".");
        }
        return commitTime(node.asString());
    }

    /** ISO-8601 with an offset, or epoch seconds; refused naming the field {@code git.commitTime}. */
    static Instant commitTime(String text) {
        try {
            return GitInfo.parseCommitTime(text);
        } catch (IllegalArgumentException e) {
            throw new InvalidUploadException(COMMIT_TIME, "git.commitTime " + e.getMessage() + ".");
        }
    }

    /**
     * The machine's description; an entry whose value is null says nothing and is left out, as the adapters leave
     * out the null fields of a Google Benchmark context (a null inside a nested value is kept as written).
     */
    private static Map<String, Object> machine(JsonNode node) {
        if (node == null || node.isNull()) {
            return Map.of();
        }
        if (!node.isObject()) {
            throw new InvalidUploadException("machine", "'machine' must be an object.");
        }
        Map<String, Object> machine = JsonContent.MAPPER.convertValue(node,
                new TypeReference<Map<String, Object>>() { });
        machine.values().removeIf(Objects::isNull);
        return machine;
    }

    private static List<String> tags(JsonNode node) {
        if (node == null || node.isNull()) {
            return List.of();
        }
        if (!node.isArray()) {
            throw new InvalidUploadException("tags", "'tags' must be a list of strings.");
        }
        List<String> tags = new ArrayList<>();
        for (JsonNode tag : node) {
            if (!tag.isString()) {
                throw new InvalidUploadException(UploadFields.index("tags", tags.size()), "'tags' must be a list of "
                        + "strings; tags[" + tags.size() + "] is " + kind(tag) + ".");
            }
            tags.add(tag.asString());
        }
        return tags;
    }

    /**
     * Refuses a field of {@code node} that is not one of {@code allowed}, naming it where it is
     * ({@code where}, e.g. {@code metrics.parse.}) and what {@code holder} ("a metric has") may hold.
     *
     * @param at where {@code node} is, for a refusal's field: {@code with.metrics.parse}; "" for the top
     */
    private static void onlyFields(JsonNode node, String where, String at, List<String> allowed, String holder) {
        for (String field : node.propertyNames()) {
            if (!allowed.contains(field)) {
                throw new InvalidUploadException(UploadFields.key(at, field), "'" + UploadText.excerpt(where + field)
                        + "' is not a field of the upload; " + holder + ": " + String.join(", ", allowed) + ".");
            }
        }
    }

    /**
     * A field's text (a number or true/false as written); null when absent or null. Its refusal of an object or a
     * list names no field: it reads fields already checked, such as a JMH entry's benchmark and mode.
     */
    static String text(JsonNode node, String field) {
        return text(node, field, "", null);
    }

    /**
     * A field's text (a number or true/false as written); null when absent or null.
     *
     * @param where what the field is in, for the message: e.g. {@code params.}
     * @param at where {@code node} is, for a refusal's field: e.g. {@code [3].params}; null when not known
     * @throws InvalidUploadException when the field holds an object or a list
     */
    static String text(JsonNode node, String field, String where, String at) {
        return text(node, field, where, at, false);
    }

    /**
     * A field of PerfLab's own format that holds text: null when absent or null, refused when it holds anything else
     * (a number, true/false, an object or a list), as every {@code /api} body's text is.
     *
     * @param where what the field is in, for the message: e.g. {@code git.}
     * @param at where {@code node} is, for a refusal's field: e.g. {@code git}, {@code with.metrics.parse}
     */
    private static String strictText(JsonNode node, String field, String where, String at) {
        return text(node, field, where, at, true);
    }

    /** A field's text; with {@code strict}, only text, else also a number or true/false as written. */
    private static String text(JsonNode node, String field, String where, String at, boolean strict) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        if (strict ? !value.isString() : !value.isValueNode()) {
            throw new InvalidUploadException(at == null ? null : UploadFields.key(at, field), "'" + where + field
                    + "' must be text, got " + kind(value) + ".");
        }
        return value.asString();
    }

    /** {@code git.pullRequest}: text, or a whole number as CI systems number pull requests. */
    private static String pullRequest(JsonNode git) {
        JsonNode value = git.get("pullRequest");
        if (value != null && value.isNumber()) {
            if (value.isIntegralNumber() && value.canConvertToLong() && value.asLong() >= 0) {
                return value.asString();
            }
            throw new InvalidUploadException("git.pullRequest", "'git.pullRequest' must be text or a whole number "
                    + "from 0, got " + kind(value) + ".");
        }
        return strictText(git, "pullRequest", "git.", "git");
    }

    /**
     * What a field holds, for a message that says what it must hold: "it is missing", "got null", "got empty text",
     * "got 'zzz'", "got a number 7", "got an object"…
     */
    static String got(JsonNode value) {
        if (value == null || value.isMissingNode()) {
            return "it is missing";
        }
        if (value.isString()) {
            return value.asString().isEmpty() ? "got empty text" : "got '" + UploadText.shown(value.asString()) + "'";
        }
        return "got " + kind(value);
    }

    /** A JSON value's kind as a message names it: an object, a list, a number… */
    static String kind(JsonNode value) {
        return value.isObject() ? "an object" : value.isArray() ? "a list" : value.isNumber() ? "a number "
                + value.asString() : value.isBoolean() ? value.asString() : value.isNull() ? "null" : "text";
    }
}
