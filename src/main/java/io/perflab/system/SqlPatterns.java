package io.perflab.system;

/** Patterns for SQL's {@code LIKE … ESCAPE '\'}, so that what a user types is matched as typed. */
public final class SqlPatterns {

    private SqlPatterns() {
    }

    /**
     * The pattern that matches any text containing {@code text}; the user's {@code %}, {@code _} and {@code \} match
     * themselves. For any case compare {@code LOWER(column) LIKE LOWER(?) ESCAPE '\'}: the database lower-cases both
     * sides alike. Java's lower case is not PostgreSQL's, which follows the database's locale ('İ' is "i̇" in Java
     * and "i" there; under a C locale 'Ö' stays 'Ö'), so a pattern lower-cased in Java missed names typed exactly
     * as they are shown.
     */
    public static String contains(String text) {
        return "%" + text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%";
    }
}
