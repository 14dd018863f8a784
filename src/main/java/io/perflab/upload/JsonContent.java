package io.perflab.upload;

import tools.jackson.core.JacksonException;
import tools.jackson.core.json.JsonReadFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads upload JSON into a tree. {@code NaN} and {@code Infinity} tokens are read as numbers so that validation
 * can name the metric that carries them, rather than failing on the token.
 */
final class JsonContent {

    static final JsonMapper MAPPER = JsonMapper.builder()
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
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

    /** Whether {@code content} parses as JSON at all. */
    static JsonNode tryRead(String content) {
        try {
            return MAPPER.readTree(content);
        } catch (JacksonException e) {
            return null;
        }
    }

    /** JSON that does not parse: the message keeps the parser's line and column. */
    static final class MalformedJsonException extends RuntimeException {

        MalformedJsonException(JacksonException e) {
            super(describe(e));
        }

        private static String describe(JacksonException e) {
            String message = e.getOriginalMessage();
            int newline = message == null ? -1 : message.indexOf('\n');
            if (newline >= 0) {
                message = message.substring(0, newline);
            }
            if (e.getLocation() == null) {
                return message;
            }
            return message + " (line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr()
                    + ")";
        }
    }
}
