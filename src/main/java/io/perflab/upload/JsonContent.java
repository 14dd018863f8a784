package io.perflab.upload;

import io.perflab.system.PrintableText;
import java.math.BigDecimal;
import java.math.MathContext;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.exc.StreamConstraintsException;
import tools.jackson.core.exc.UnexpectedEndOfInputException;
import tools.jackson.core.json.JsonReadFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads upload JSON into a tree. {@code NaN} and {@code Infinity} tokens are read as numbers so that validation
 * can name the metric that carries them, rather than failing on the token. A key given twice in one object is
 * refused, as in every other request body: the tree would keep the last value only, and lose the first's samples.
 */
final class JsonContent {

    static final JsonMapper MAPPER = JsonMapper.builder()
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();

    /** For telling a format by its shape only: content with a repeated key is still recognised, then refused. */
    private static final JsonMapper SHAPE = MAPPER.rebuild()
            .disable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();

    private JsonContent() {
    }

    /** The tree of {@code content}; malformed JSON → a message naming line and column. */
    static JsonNode read(String content) {
        try {
            return MAPPER.readTree(content);
        } catch (JacksonException e) {
            throw new MalformedJsonException(e);
        }
    }

    /** The tree of {@code content} to tell its format by (a key given twice is let through), or null. */
    static JsonNode tryRead(String content) {
        try {
            return SHAPE.readTree(content);
        } catch (JacksonException e) {
            return null;
        }
    }

    /**
     * The value of the number {@code value} as a double. A whole number beyond a double's range (JSON allows any
     * number of digits) is refused here, naming it: it is far beyond what can be compared.
     *
     * @param metric the metric the value belongs to, for the message
     * @param where where the value is in that metric, e.g. {@code values[3]}
     */
    static double number(JsonNode value, String metric, String where) {
        if (!value.isBigInteger() && !value.isBigDecimal()) {
            return value.doubleValue();
        }
        BigDecimal exact = value.decimalValue();
        double converted = exact.doubleValue();
        if (Double.isInfinite(converted)) {
            throw new InvalidUploadException("Metric '" + UploadText.excerpt(metric) + "': " + where + " is "
                    + exact.round(new MathContext(3)) + ", too large to compare (values must lie within ±1e150).");
        }
        return converted;
    }

    /** The first line of a parser's message: what follows is context the caller gives in its own terms. */
    static String firstLine(String message) {
        if (message == null) {
            return "unreadable input";
        }
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }

    /**
     * JSON that does not parse, said in the user's terms with line and column: a file that ends early is called
     * truncated; the parser's own description of other faults is kept without its echo of the input.
     */
    static final class MalformedJsonException extends RuntimeException {

        MalformedJsonException(JacksonException e) {
            super(PrintableText.Validator.shown(describe(e)));
        }

        private static String describe(JacksonException e) {
            String where = e.getLocation() == null ? ""
                    : " (line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr() + ")";
            if (e instanceof UnexpectedEndOfInputException) {
                return "it ends before its last value is complete" + where + ", so the file looks truncated: "
                        + "check that the benchmark finished and that the whole file was sent";
            }
            if (e instanceof StreamConstraintsException) {
                return "a number, name or text is too long, or values are nested too deeply, to be read" + where;
            }
            String message = firstLine(e.getOriginalMessage());
            if (message.startsWith("Duplicate Object property") && message.indexOf('"') >= 0) {
                String key = message.substring(message.indexOf('"'));
                return "a key appears twice in one object: " + UploadText.excerpt(key) + where;
            }
            for (String context : new String[] {" (start marker at", " (for ", " [Source:", " at [Source:"}) {
                int at = message.indexOf(context);
                if (at >= 0) {
                    message = message.substring(0, at);
                }
            }
            return message.replaceAll(" \\(code \\d+\\)", "") + where;
        }
    }
}
