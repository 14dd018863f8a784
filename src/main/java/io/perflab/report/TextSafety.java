package io.perflab.report;

import io.perflab.system.PrintableText;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * User text for the plain-text and Markdown reports. Plain text needs no markup escaping, but control characters
 * (an ANSI escape sequence in a benchmark name would drive the terminal of whoever {@code cat}s the file) are
 * replaced, as are characters that hide or reorder text, and line breaks are folded where one line is expected.
 */
final class TextSafety {

    private TextSafety() {
    }

    /**
     * One line of plain text: control characters, line breaks and characters that hide or reorder text (a
     * right-to-left override, stored before names were checked for it) become spaces.
     */
    static String line(String text) {
        if (text == null) {
            return "";
        }
        return PrintableText.Validator.replaced(text.replace('\u2028', ' ').replace('\u2029', ' '), ' ', "");
    }

    /**
     * Several lines of plain text (an error with its output): control characters but line breaks and tabs, and
     * characters that hide or reorder text, become spaces.
     */
    static String block(String text) {
        if (text == null) {
            return "";
        }
        return PrintableText.Validator.replaced(text.replace("\r\n", "\n"), ' ', "\n\t");
    }

    /**
     * The lines of several lines of user text (a description) for the plain-text report, each a {@link #line}, the
     * text's leading and trailing blank lines left out; none for null or blank text.
     */
    static List<String> lines(String text) {
        if (text == null || text.isBlank()) {
            return List.of();
        }
        return block(text).strip().lines().map(TextSafety::line).toList();
    }

    /**
     * Several lines of user text (a description) as a Markdown block quote that shows them literally, line for line:
     * each line escaped as {@link #markdown} escapes one, its leading spaces left out and a first character that
     * would begin a block escaped (a list's {@code -}, {@code +} or {@code 1.}, a heading's underline {@code ===} or
     * {@code ---}), each line ending in a hard break (a backslash) but the last of a paragraph; blank lines between
     * paragraphs are kept, once. Empty for null or blank text.
     */
    static String markdownQuote(String text) {
        List<String> quoted = new ArrayList<>();
        boolean blank = false;
        for (String line : lines(text)) {
            String shown = markdown(line).strip();
            if (shown.isEmpty()) {
                blank = true;
                continue;
            }
            if (blank) {
                quoted.add("");
                blank = false;
            } else if (!quoted.isEmpty()) {
                int last = quoted.size() - 1;
                quoted.set(last, quoted.get(last) + "\\");
            }
            quoted.add(blockSafe(shown));
        }
        StringBuilder b = new StringBuilder();
        quoted.forEach(line -> b.append(line.isEmpty() ? ">" : "> " + line).append('\n'));
        return b.toString();
    }

    /** A list item's number at the start of a line: {@code 1.} or {@code 1)}. */
    private static final Pattern ORDERED_ITEM = Pattern.compile("(\\d{1,9})([.)])");

    /** An escaped line that begins no Markdown block: a leading {@code -}, {@code +}, {@code =} or number escaped. */
    private static String blockSafe(String line) {
        char first = line.charAt(0);
        if (first == '-' || first == '+' || first == '=') {
            return "\\" + line;
        }
        Matcher item = ORDERED_ITEM.matcher(line);
        if (item.lookingAt()) {
            return item.group(1) + "\\" + line.substring(item.group(1).length());
        }
        return line;
    }

    /**
     * One Markdown table cell or inline run of user text, shown literally: no HTML (angle brackets and ampersands
     * become entities), no table breaks ({@code |}), no links, code, emphasis or strike-through, on one line. Links
     * include GitHub's autolinks of bare addresses: the {@code :} of {@code https://}, the {@code .} of
     * {@code www.} and the {@code @} of an e-mail address are escaped, which breaks them and renders the same; an
     * underscore inside a word ({@code cpu_us_per_req}) cannot emphasise and stays as it is.
     */
    static String markdown(String text) {
        String line = line(text);
        StringBuilder b = new StringBuilder(line.length() + 8);
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            switch (c) {
                case '&' -> b.append("&amp;");
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '\\', '|', '`', '*', '~', '[', ']', '!', '#', '@' -> b.append('\\').append(c);
                // inside a word (cpu_us_per_req) an underscore cannot open or close emphasis
                case '_' -> b.append(inWord(line, i) ? "_" : "\\_");
                case ':' -> b.append(line.startsWith("//", i + 1) ? "\\:" : ":");
                case '.' -> b.append(afterWww(line, i) ? "\\." : ".");
                default -> b.append(c);
            }
        }
        return b.toString();
    }

    /** Whether the character at {@code i} has a letter or digit on both sides. */
    private static boolean inWord(String text, int i) {
        return i > 0 && i < text.length() - 1 && Character.isLetterOrDigit(text.charAt(i - 1))
                && Character.isLetterOrDigit(text.charAt(i + 1));
    }

    /** Whether {@code text} has {@code www} (in any case) just before {@code i}: an autolink would start there. */
    private static boolean afterWww(String text, int i) {
        return i >= 3 && text.regionMatches(true, i - 3, "www", 0, 3);
    }
}
