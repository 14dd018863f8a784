package io.perflab.upload;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
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
 * it would lose what it says without a word. Only {@code machine} is free-form.
 */
final class NativeJsonAdapter implements FormatAdapter {

    private static final List<String> UPLOAD_FIELDS = List.of("benchmark", "name", "variant", "metrics", "without",
            "with", "git", "machine", "tags");
    private static final List<String> SIDE_FIELDS = List.of("label", "metrics");
    private static final List<String> METRIC_FIELDS = List.of("unit", "direction", "values");
    private static final List<String> GIT_FIELDS = List.of("repository", "branch", "commit", "baseCommit",
            "pullRequest", "commitTime", "defaultBranch");

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
        onlyFields(root, "", UPLOAD_FIELDS, "it has");
        Map<String, VariantSamples> variants = new LinkedHashMap<>();
        boolean blocks = root.has(ParsedUpload.WITHOUT) || root.has(ParsedUpload.WITH);
        if (blocks && root.has("metrics")) {
            throw new InvalidUploadException("Give either 'metrics' (one variant) or 'with'/'without' blocks, not "
                    + "both.");
        }
        if (blocks) {
            for (String side : List.of(ParsedUpload.WITHOUT, ParsedUpload.WITH)) {
                JsonNode block = root.get(side);
                if (block == null || block.isNull()) {
                    continue;
                }
                if (!block.isObject() || !block.has("metrics")) {
                    throw new InvalidUploadException("'" + side + "' must be an object with 'metrics'.");
                }
                onlyFields(block, side + ".", SIDE_FIELDS, "a side has");
                variants.put(side, new VariantSamples(strictText(block, "label", side + "."),
                        metrics(block.get("metrics"), side, limits)));
            }
        } else if (root.has("metrics")) {
            String declared = strictText(root, "variant", "");
            String side = declared == null ? variant : Variants.side(declared);
            String sideLabel = declared == null ? label : Variants.label(declared);
            variants.put(side, new VariantSamples(sideLabel, metrics(root.get("metrics"), side, limits)));
        } else {
            throw UploadFormats.wrongFormat(UploadFormat.JSON, content);
        }
        return new ParsedUpload(strictText(root, "benchmark", ""), strictText(root, "name", ""), variants,
                git(root.get("git")),
                machine(root.get("machine")), tags(root.get("tags")));
    }

    private static Map<String, MetricSamples> metrics(JsonNode node, String side, UploadLimits.Counter limits) {
        if (!node.isObject()) {
            throw new InvalidUploadException("'metrics' of '" + side + "' must be an object: metric key → "
                    + "{unit, direction, values}.");
        }
        Map<String, MetricSamples> metrics = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> entry : node.properties()) {
            String key = entry.getKey();
            limits.metric(key);
            JsonNode metric = entry.getValue();
            if (metric.isObject()) {
                onlyFields(metric, "metrics." + key + ".", METRIC_FIELDS, "a metric has");
            }
            JsonNode values = metric.isArray() ? metric : metric.get("values");
            if (values == null || !values.isArray()) {
                throw new InvalidUploadException("Metric '" + UploadText.excerpt(key) + "' has no 'values' list.");
            }
            List<Double> numbers = new ArrayList<>();
            int index = 0;
            for (JsonNode value : values) {
                if (!value.isNumber()) {
                    throw new InvalidUploadException("Metric '" + UploadText.excerpt(key) + "': values[" + index
                            + "] is not a number: " + UploadText.excerpt(value.toString()) + ".");
                }
                limits.samples(1);
                numbers.add(value.doubleValue());
                index++;
            }
            String where = "metrics." + key + ".";
            metrics.put(key, new MetricSamples(metric.isObject() ? strictText(metric, "unit", where) : null,
                    metric.isObject() ? direction(key, strictText(metric, "direction", where)) : null, numbers));
        }
        return metrics;
    }

    /** {@code lower}/{@code higher} (also {@code lower_is_better}…) → higher-is-better; null when absent. */
    static Boolean direction(String metric, String direction) {
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
        throw new InvalidUploadException("Metric '" + UploadText.excerpt(metric) + "': unknown direction '"
                + UploadText.excerpt(direction)
                + "'; use 'lower' or 'higher' (which values are better).");
    }

    private static GitInfo git(JsonNode git) {
        if (git == null || git.isNull()) {
            return GitInfo.NONE;
        }
        if (!git.isObject()) {
            throw new InvalidUploadException("'git' must be an object with repository, branch, commit, baseCommit, "
                    + "pullRequest, commitTime.");
        }
        onlyFields(git, "git.", GIT_FIELDS, "git has");
        return new GitInfo(strictText(git, "repository", "git."), strictText(git, "branch", "git."),
                strictText(git, "commit", "git."), strictText(git, "baseCommit", "git."), pullRequest(git),
                commitTime(git.get("commitTime")), strictText(git, "defaultBranch", "git."));
    }

    static Instant commitTime(JsonNode node) {
        if (node == null || node.isNull()) {
            return null;
        }
        if (node.isNumber()) {
            return commitTime(node.asString());
        }
        if (!node.isString()) {
            throw new InvalidUploadException("'git.commitTime' must be an ISO-8601 time with offset (e.g. "
                    + "2025-01-31T12:00:00Z) or epoch seconds, got " + kind(node) + ".");
        }
        return commitTime(node.asString());
    }

    /** ISO-8601 with an offset, or epoch seconds. */
    static Instant commitTime(String text) {
        try {
            return GitInfo.parseCommitTime(text);
        } catch (IllegalArgumentException e) {
            throw new InvalidUploadException("git.commitTime " + e.getMessage() + ".");
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
            throw new InvalidUploadException("'machine' must be an object.");
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
            throw new InvalidUploadException("'tags' must be a list of strings.");
        }
        List<String> tags = new ArrayList<>();
        for (JsonNode tag : node) {
            if (!tag.isString()) {
                throw new InvalidUploadException("'tags' must be a list of strings; tags[" + tags.size() + "] is "
                        + kind(tag) + ".");
            }
            tags.add(tag.asString());
        }
        return tags;
    }

    /**
     * Refuses a field of {@code node} that is not one of {@code allowed}, naming it where it is
     * ({@code where}, e.g. {@code metrics.parse.}) and what {@code holder} ("a metric has") may hold.
     */
    private static void onlyFields(JsonNode node, String where, List<String> allowed, String holder) {
        for (String field : node.propertyNames()) {
            if (!allowed.contains(field)) {
                throw new InvalidUploadException("'" + UploadText.excerpt(where + field) + "' is not a field of the "
                        + "upload; " + holder + ": " + String.join(", ", allowed) + ".");
            }
        }
    }

    /** A field's text (a number or true/false as written); null when absent or null. */
    static String text(JsonNode node, String field) {
        return text(node, field, "");
    }

    /**
     * A field's text (a number or true/false as written); null when absent or null.
     *
     * @param where what the field is in, for the message: e.g. {@code git.}
     * @throws InvalidUploadException when the field holds an object or a list
     */
    static String text(JsonNode node, String field, String where) {
        return text(node, field, where, false);
    }

    /**
     * A field of PerfLab's own format that holds text: null when absent or null, refused when it holds anything else
     * (a number, true/false, an object or a list), as every {@code /api} body's text is.
     *
     * @param where what the field is in, for the message: e.g. {@code git.}
     */
    private static String strictText(JsonNode node, String field, String where) {
        return text(node, field, where, true);
    }

    /** A field's text; with {@code strict}, only text, else also a number or true/false as written. */
    private static String text(JsonNode node, String field, String where, boolean strict) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        if (strict ? !value.isString() : !value.isValueNode()) {
            throw new InvalidUploadException("'" + where + field + "' must be text, got " + kind(value) + ".");
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
            throw new InvalidUploadException("'git.pullRequest' must be text or a whole number from 0, got "
                    + kind(value) + ".");
        }
        return strictText(git, "pullRequest", "git.");
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
