package io.perflab.system;

import tools.jackson.core.JacksonException;
import tools.jackson.core.TokenStreamLocation;

/** Describes why a request body could not be read, keeping the parser's line and column but no stack noise. */
public final class RequestBodyErrors {

    private RequestBodyErrors() {
    }

    /**
     * The innermost message of {@code ex}'s cause chain, first line only; for a JSON syntax error the parser's
     * own message with its position, e.g. {@code Unexpected end-of-input within/between Object entries (line 1,
     * column 41)}.
     */
    public static String describe(Throwable ex) {
        Throwable cause = ex;
        while (cause.getCause() != null && cause.getCause() != cause) {
            cause = cause.getCause();
        }
        JacksonException json = innermostJackson(ex);
        if (json != null) {
            TokenStreamLocation location = json.getLocation();
            String message = firstLine(json.getOriginalMessage());
            if (location != null && location.getLineNr() > 0) {
                return message + " (line " + location.getLineNr() + ", column " + location.getColumnNr() + ")";
            }
            return message;
        }
        return firstLine(cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage());
    }

    private static JacksonException innermostJackson(Throwable ex) {
        JacksonException found = null;
        for (Throwable t = ex; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof JacksonException j) {
                found = j;
            }
        }
        return found;
    }

    private static String firstLine(String message) {
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }
}
