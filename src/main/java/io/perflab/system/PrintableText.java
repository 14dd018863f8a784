package io.perflab.system;

import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A name or a line of text a person typed: no control characters (NUL, ESC, BEL, CR, LF, …), no unpaired
 * surrogates, no Unicode format characters that hide text (bidirectional overrides). Null is valid; pair it
 * with {@code @NotBlank} where the text is required and {@code @Size} for its length.
 */
@Documented
@Constraint(validatedBy = PrintableText.Validator.class)
@Target({ElementType.FIELD, ElementType.PARAMETER, ElementType.RECORD_COMPONENT, ElementType.TYPE_USE,
        ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
public @interface PrintableText {

    /** Whether line breaks (LF, and CR before LF) and tabs are allowed, as in a description or lscpu's output. */
    boolean multiline() default false;

    String message() default "must be printable text without control characters";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};

    /** Checks {@link PrintableText}. */
    class Validator implements ConstraintValidator<PrintableText, CharSequence> {

        private boolean multiline;

        @Override
        public void initialize(PrintableText annotation) {
            multiline = annotation.multiline();
        }

        @Override
        public boolean isValid(CharSequence value, ConstraintValidatorContext context) {
            return value == null || firstProblem(value.toString(), multiline) < 0;
        }

        /** Joins emoji sequences; the one format character a name may hold. */
        private static final int ZERO_WIDTH_JOINER = 0x200D;

        /** Index of the first character that is not printable text (but layout, when {@code multiline}), or -1. */
        public static int firstProblem(String text, boolean multiline) {
            for (int i = 0; i < text.length(); ) {
                int c = text.codePointAt(i);
                boolean layout = c == '\n' || c == '\t'
                        || (c == '\r' && i + 1 < text.length() && text.charAt(i + 1) == '\n');
                if (!(multiline && layout) && !printable(c)) {
                    return i;
                }
                i += Character.charCount(c);
            }
            return -1;
        }

        /**
         * Whether a character shows as itself: not a control character, nor one that hides or reorders text (a
         * format character such as a right-to-left override, but for the joiner of emoji), nor half a surrogate pair.
         */
        public static boolean printable(int codePoint) {
            int type = Character.getType(codePoint);
            return !Character.isISOControl(codePoint) && (type != Character.FORMAT || codePoint == ZERO_WIDTH_JOINER)
                    && type != Character.SURROGATE;
        }

        /**
         * What is wrong with {@code text} at {@code index} (a {@link #firstProblem}), for a message: e.g. "a control
         * character (U+001B) at position 3".
         */
        public static String problemAt(String text, int index) {
            int c = text.codePointAt(index);
            String kind = Character.getType(c) == Character.FORMAT ? "a hidden format character"
                    : Character.getType(c) == Character.SURROGATE ? "half a surrogate pair" : "a control character";
            return kind + " (U+" + String.format("%04X", c) + ") at position " + (index + 1);
        }

        /**
         * Whether a message shows a character as itself: a {@link #printable} one but the line and paragraph
         * separators (U+2028, U+2029), which a name may hold but at which log viewers and editors break a line.
         */
        private static boolean shownAsItself(int codePoint) {
            int type = Character.getType(codePoint);
            return printable(codePoint) && type != Character.LINE_SEPARATOR && type != Character.PARAGRAPH_SEPARATOR;
        }

        /** {@code codePoint} as a message shows it: itself, or its escape, e.g. {@code \u001B}. */
        private static String shownCharacter(int codePoint) {
            return shownAsItself(codePoint) ? new String(Character.toChars(codePoint))
                    : String.format("\\u%04X", codePoint);
        }

        /**
         * Text as a one-line message shows it: every character that is not {@link #printable} (line breaks too),
         * and the line and paragraph separators, written as its escape, e.g. {@code \u001B}, so that it can neither
         * hide, reorder nor break the message.
         */
        public static String shown(String text) {
            StringBuilder shown = new StringBuilder(text.length());
            text.codePoints().forEach(c -> shown.append(shownCharacter(c)));
            return shown.toString();
        }

        /**
         * Text of several lines as a terminal or a log shows it: {@link #shown}, but for the line breaks (LF, CR LF
         * written as LF) and tabs that lay it out, as {@code multiline} text may hold them.
         */
        public static String shownLines(String text) {
            StringBuilder shown = new StringBuilder(text.length());
            text.replace("\r\n", "\n").codePoints().forEach(c -> shown.append(c == '\n' || c == '\t'
                    ? String.valueOf((char) c) : shownCharacter(c)));
            return shown.toString();
        }

        /** The most characters {@link #quoted} text takes in a message, its escapes and "…" included. */
        static final int QUOTED_MAX = 60;

        /**
         * Text as a short message quotes it: every character that is not {@link #printable} (a control character, one
         * that hides or reorders text), and the line and paragraph separators, {@link #shown} as its escape, e.g.
         * {@code \u001B}, so that the message says which character it was; at most {@value #QUOTED_MAX} characters in
         * all, cut before a character or an escape that would not fit whole, with "…".
         */
        public static String quoted(String text) {
            return quoted(text, QUOTED_MAX);
        }

        /**
         * {@link #quoted(String)} at most {@code max} characters, its escapes and "…" included: for a name that
         * identifies what a message quotes, such as the field of a problem's error.
         *
         * @param max at least 2
         */
        public static String quoted(String text, int max) {
            String value = text == null ? "" : text;
            String all = shown(value);
            if (all.length() <= max) {
                return all;
            }
            StringBuilder cut = new StringBuilder(max);
            for (int i = 0; i < value.length(); ) {
                int c = value.codePointAt(i);
                String piece = shownCharacter(c);
                if (cut.length() + piece.length() > max - 1) {
                    break;
                }
                cut.append(piece);
                i += Character.charCount(c);
            }
            return cut.append('…').toString();
        }

        /**
         * {@code text} with every character that is not {@link #printable}, but those in {@code kept} (line breaks
         * and tabs where a page or a file shows several lines), made {@code replacement}.
         */
        public static String replaced(String text, char replacement, String kept) {
            StringBuilder shown = new StringBuilder(text.length());
            text.codePoints().forEach(c -> shown.appendCodePoint(printable(c) || kept.indexOf(c) >= 0 ? c
                    : replacement));
            return shown.toString();
        }
    }
}
