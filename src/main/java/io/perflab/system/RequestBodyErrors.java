package io.perflab.system;

/** Describes why a request body could not be read, keeping the parser's line and column but no stack noise. */
public final class RequestBodyErrors {

    private RequestBodyErrors() {
    }

    /**
     * The innermost message of {@code ex}'s cause chain, first line only, without Jackson's source-reference
     * suffix; for example {@code Unexpected character ('}' (code 125)): was expecting double-quote to start field
     * name (line 1, column 13)}.
     */
    public static String describe(Throwable ex) {
        Throwable cause = ex;
        while (cause.getCause() != null && cause.getCause() != cause) {
            cause = cause.getCause();
        }
        String message = cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
        message = message.replaceAll("\\s*\\n\\s*at \\[Source: [^]]*; line: (\\d+), column: (\\d+)][\\s\\S]*",
                " (line $1, column $2)");
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }
}
