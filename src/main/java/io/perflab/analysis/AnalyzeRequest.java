package io.perflab.analysis;

import io.perflab.stats.Alternative;
import io.perflab.stats.ComparisonOptions;
import io.perflab.stats.Direction;
import io.perflab.stats.Sample;
import io.perflab.system.InvalidInputException;
import io.perflab.system.PrintableText;
import io.perflab.system.Texts;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * The body of {@code POST /api/v1/analyze}, checked field by field so that an error names the field, in its words
 * and as its {@code errors[].field} ({@code with[3]}, {@code confidenceLevel}):
 * {@code {"with":[…],"without":[…],"confidenceLevel":0.95,"alternative":"two-sided","margin":1,"better":"lower",
 * "paired":false}}.
 *
 * @param with the {@code with} sample (x), at least 2 finite numbers
 * @param without the {@code without} (baseline) sample (y)
 * @param options confidence level, alternative and margin (the rest at their defaults)
 * @param direction from {@code better}: {@code lower} (default) or {@code higher}
 * @param paired from {@code paired}: {@code with[i]} and {@code without[i]} are a pair (equal lengths required)
 */
record AnalyzeRequest(double[] with, double[] without, ComparisonOptions options, Direction direction,
        boolean paired) {

    private static final Set<String> FIELDS = Set.of("with", "without", "confidenceLevel", "alternative", "margin",
            "better", "paired");

    static AnalyzeRequest parse(JsonNode body) {
        if (body == null || !body.isObject()) {
            throw refused(null, "the body must be a JSON object with 'with' and 'without' arrays");
        }
        for (Map.Entry<String, JsonNode> field : body.properties()) {
            if (!FIELDS.contains(field.getKey())) {
                throw refused(field.getKey(), "unknown field '"
                        + PrintableText.Validator.quoted(field.getKey())
                        + "': expected " + String.join(
                        ", ", new java.util.TreeSet<>(FIELDS)));
            }
        }
        double[] with = sample(body, "with");
        double[] without = sample(body, "without");
        ComparisonOptions options = ComparisonOptions.defaults();
        JsonNode level = body.get("confidenceLevel");
        if (level != null && !level.isNull()) {
            double v = number(level, "confidenceLevel");
            if (!(v > 0 && v < 1)) {
                throw refused("confidenceLevel", "confidenceLevel must be between 0 and 1 (exclusive), got " + v);
            }
            options = options.withConfidenceLevel(v);
        }
        JsonNode alternative = body.get("alternative");
        if (alternative != null && !alternative.isNull()) {
            if (!alternative.isString()) {
                throw refused("alternative", "alternative must be a string: two-sided, less or greater");
            }
            try {
                options = options.withAlternative(Alternative.parse(alternative.stringValue()));
            } catch (IllegalArgumentException e) {
                // quoted cut short: the message echoed a 1 MB value whole
                throw refused("alternative", "alternative: unknown alternative '"
                        + PrintableText.Validator.quoted(alternative.stringValue())
                        + "': use two-sided, two.sided, less or greater");
            }
        }
        JsonNode margin = body.get("margin");
        if (margin != null && !margin.isNull()) {
            double v = number(margin, "margin");
            if (!(v > 0)) {
                throw refused("margin", "margin must be a positive percentage, got " + v);
            }
            options = options.withEquivalenceMarginPercent(v);
        }
        Direction direction = Direction.LOWER_IS_BETTER;
        JsonNode better = body.get("better");
        if (better != null && !better.isNull()) {
            String b = better.isString() ? better.stringValue().toLowerCase(Locale.ROOT) : "";
            direction = switch (b) {
                case "lower" -> Direction.LOWER_IS_BETTER;
                case "higher" -> Direction.HIGHER_IS_BETTER;
                default -> throw refused("better", "better must be \"lower\" or \"higher\"");
            };
        }
        boolean paired = false;
        JsonNode pairedNode = body.get("paired");
        if (pairedNode != null && !pairedNode.isNull()) {
            if (!pairedNode.isBoolean()) {
                throw refused("paired", "paired must be true or false, got "
                        + PrintableText.Validator.quoted(pairedNode.toString()));
            }
            paired = pairedNode.booleanValue();
        }
        if (paired && with.length != without.length) {
            throw refused("paired", "paired: 'with' has " + with.length + " values and 'without' "
                    + without.length + ": a paired test needs one 'without' value for each 'with' value");
        }
        return new AnalyzeRequest(with, without, options, direction, paired);
    }

    /** A refusal of {@code field} (null: the body), in {@code sentence}'s words, which name it already. */
    private static InvalidInputException refused(String field, String sentence) {
        return InvalidInputException.ofSentence(field, sentence);
    }

    private static double[] sample(JsonNode body, String name) {
        JsonNode node = body.get(name);
        if (node == null || node.isNull()) {
            throw refused(name, "'" + name + "' is missing: give an array of at least 2 numbers");
        }
        if (!node.isArray()) {
            throw refused(name, "'" + name + "' must be an array of numbers");
        }
        double[] values = new double[node.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = number(node.get(i), name + "[" + i + "]");
        }
        if (values.length < 2) {
            throw refused(name, "'" + name + "' has " + values.length
                    + " value" + (values.length == 1 ? "" : "s") + ": need at least 2");
        }
        return values;
    }

    private static double number(JsonNode node, String field) {
        if (node == null || !node.isNumber()) {
            throw refused(field, field + " is not a number: " + (node == null ? "missing"
                    : PrintableText.Validator.quoted(node.toString())));
        }
        // the node's doubleValue() throws for a whole number beyond a double's range (a 400-digit integer); the
        // number's own is infinite there, refused below as too large
        double v = node.numberValue().doubleValue();
        String problem = Sample.problem(v);
        if (problem != null) {
            throw refused(field, field + " " + (Double.isFinite(v) ? problem
                    : "is too large to be a finite number: " + Texts.cut(node.toString(), 40)));
        }
        return v;
    }
}
