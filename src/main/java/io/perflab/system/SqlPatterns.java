package io.perflab.system;

import java.util.Locale;

/** Patterns for SQL's {@code LIKE … ESCAPE '\'}, so that what a user types is matched as typed. */
public final class SqlPatterns {

    private SqlPatterns() {
    }

    /**
     * The pattern that matches any text containing {@code text}, lower-cased (compare it with {@code LOWER(column)});
     * the user's {@code %}, {@code _} and {@code \} match themselves.
     */
    public static String containsIgnoringCase(String text) {
        return "%" + text.toLowerCase(Locale.ROOT).replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
                + "%";
    }
}
