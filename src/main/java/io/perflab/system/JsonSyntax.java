package io.perflab.system;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.core.TokenStreamLocation;

/**
 * What a JSON parser's refusal of malformed text means, in the terms of the text rather than of the parser's states,
 * which Jackson's words quote ("Unexpected close marker ']': no open Array to close", "Illegal unquoted character
 * ((CTRL-CHAR, code 0))"): the token at fault and where it is. Shared by the API's request bodies ({@link JsonErrors})
 * and the uploads' files, so that a NUL, a bad escape or a stray bracket is named alike in both.
 */
public final class JsonSyntax {

    /** The most characters of a token a message quotes. */
    private static final int EXCERPT = 120;

    private static final Pattern CLOSE = Pattern.compile("Unexpected close marker '(.)'(?:: expected '(.)')?");
    private static final Pattern CHARACTER = Pattern.compile("Unexpected character \\('(.+?)' \\(code");
    private static final Pattern TOKEN = Pattern.compile("Unrecognized token '(.*?)'");
    /** A control character: in a text or a key ("unquoted"), between values, or elsewhere ("Unexpected"). */
    private static final Pattern CONTROL = Pattern.compile(
            "(Illegal unquoted character|Illegal character|Unexpected character) \\(\\(CTRL-CHAR, code (\\d+)\\)\\)"
                    + "(?:.*to be included in (name))?");
    private static final Pattern ESCAPE = Pattern.compile("Unrecognized character escape '(.)'");

    private JsonSyntax() {
    }

    /** " (line 3, column 7)"; empty where the parser knows no line. */
    public static String where(TokenStreamLocation at) {
        return where(at, "");
    }

    /** " (reading stopped at line 3, column 7)" with that {@code lead}; empty where the parser knows no line. */
    public static String where(TokenStreamLocation at, String lead) {
        return at == null || at.getLineNr() <= 0 ? ""
                : " (" + lead + "line " + at.getLineNr() + ", column " + at.getColumnNr() + ")";
    }

    /**
     * The fault {@code message} names, said in the text's terms, with {@code where} (" (line 2, column 7)", or empty)
     * where it reads best; empty for a message of another kind, which the caller words itself.
     *
     * @param message the first line of the parser's own message, without its location
     */
    public static Optional<String> fault(String message, String where) {
        Matcher close = CLOSE.matcher(message);
        if (close.lookingAt()) {
            return Optional.of("a '" + close.group(1) + "' " + (close.group(2) == null ? "closes nothing that is open"
                    : "stands where a '" + close.group(2) + "' should close what is open") + where);
        }
        Matcher character = CHARACTER.matcher(message);
        if (character.lookingAt()) {
            return Optional.of("the character '" + character.group(1) + "' cannot stand there" + where);
        }
        Matcher token = TOKEN.matcher(message);
        if (token.lookingAt()) {
            return Optional.of("'" + Texts.cut(token.group(1), EXCERPT) + "' is not a JSON value (text is written in "
                    + "double quotes)" + where);
        }
        // a NUL, an escape code or a bad escape was "not valid JSON", saying where but not what
        Matcher control = CONTROL.matcher(message);
        if (control.lookingAt()) {
            String hex = String.format("%04X", Integer.parseInt(control.group(2)));
            String named = "the control character U+" + hex;
            return Optional.of(switch (control.group(1)) {
                case "Illegal unquoted character" -> (control.group(3) == null ? "a text" : "a key") + " holds "
                        + named + where + ", which JSON writes as an escape (\\u" + hex + ")";
                case "Illegal character" -> named + " stands between values" + where + ", where only spaces, tabs "
                        + "and line breaks may";
                default -> named + " cannot stand there" + where;
            });
        }
        Matcher escape = ESCAPE.matcher(message);
        if (escape.lookingAt()) {
            return Optional.of("'\\" + escape.group(1) + "' in a text is no escape of JSON" + where + ", which has "
                    + "\\\", \\\\, \\/, \\b, \\f, \\n, \\r, \\t and \\u with four hex digits");
        }
        if (message.startsWith("Invalid numeric value: Leading zeroes not allowed")) {
            return Optional.of("a number begins with a 0 followed by a digit" + where + ", which JSON does not allow: "
                    + "write 12, not 012");
        }
        return Optional.empty();
    }
}
