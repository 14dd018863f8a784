package io.perflab.system;

import java.util.Locale;

/**
 * Patterns for SQL's {@code LIKE … ESCAPE '\'}, so that what a user types is matched as typed, and the case-folded
 * form of names that a search in any case compares.
 */
public final class SqlPatterns {

    private SqlPatterns() {
    }

    /**
     * The pattern that matches any text containing {@code text}; the user's {@code %}, {@code _} and {@code \} match
     * themselves. For any case compare a column of {@link #caseFolded} names with the pattern of the case-folded
     * text: {@code name_folded LIKE ? ESCAPE '\'} with {@code contains(caseFolded(typed))}.
     */
    public static String contains(String text) {
        return "%" + text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%";
    }

    /**
     * {@code text} with the case of its letters folded, so that texts that differ only in case are equal: the lower
     * case of its upper case in the root locale ('ß' and "SS" are both "ss"), with the final sigma 'ς' as 'σ' (a text
     * typed may end where a name goes on); null for null. It is worked out in Java, for the names as they are stored
     * and for the text typed alike, since the database's {@code LOWER} follows the database's locale: under the C
     * locale, with which PostgreSQL databases are often created, {@code LOWER('Ö')} is 'Ö', and 'öl' did not find
     * "Ölfass". A folded text is at most three times as long as the text ('ΐ' is three letters in upper case).
     */
    public static String caseFolded(String text) {
        return text == null ? null : text.toUpperCase(Locale.ROOT).toLowerCase(Locale.ROOT).replace('ς', 'σ');
    }
}
