package io.perflab.system;

import org.springframework.beans.propertyeditors.CustomNumberEditor;
import org.springframework.web.bind.WebDataBinder;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.InitBinder;

/**
 * A whole number in a path, a query or a form ({@code /api/v1/experiments/{id}}, {@code ?page=},
 * {@code runsPerVariant}) is written in the digits 0 to 9, with a sign if need be and white space around it. Spring's
 * own reading removed every white space character and read hexadecimal, so {@code /api/v1/experiments/3%209} was
 * experiment 39 (and its {@code DELETE} deleted experiment 39) and {@code 0x2} or {@code #2} was experiment 2.
 * Anything else is refused as a value of the wrong type, naming the parameter ({@link FieldMessages#typeMismatch}).
 *
 * <p>An editor, not a converter: Spring falls back to its own reading when a converter refuses a value.
 */
@ControllerAdvice
class WholeNumberParameters {

    @InitBinder
    void readWholeNumbersStrictly(WebDataBinder binder) {
        binder.registerCustomEditor(long.class, new WholeNumberEditor(Long.class, false));
        binder.registerCustomEditor(Long.class, new WholeNumberEditor(Long.class, true));
        binder.registerCustomEditor(int.class, new WholeNumberEditor(Integer.class, false));
        binder.registerCustomEditor(Integer.class, new WholeNumberEditor(Integer.class, true));
    }

    /**
     * {@code text} without the white space around it, when it is a sign and the digits 0 to 9 (not another script's
     * digits, which {@link Long#parseLong} reads too).
     *
     * @throws NumberFormatException otherwise
     */
    static String digits(String text) {
        String stripped = text.strip();
        int first = stripped.startsWith("-") || stripped.startsWith("+") ? 1 : 0;
        if (stripped.length() == first || !stripped.substring(first).chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw new NumberFormatException("not a whole number in decimal digits: " + text);
        }
        return stripped;
    }

    /** Spring's number editor, given only what {@link #digits} lets through; blank is null where null may be. */
    private static final class WholeNumberEditor extends CustomNumberEditor {

        private final boolean allowEmpty;

        WholeNumberEditor(Class<? extends Number> type, boolean allowEmpty) {
            super(type, allowEmpty);
            this.allowEmpty = allowEmpty;
        }

        @Override
        public void setAsText(String text) {
            super.setAsText(allowEmpty && (text == null || text.isBlank()) ? text : digits(text));
        }

        /** A form field given twice is read as its first value, as Spring's own conversion of it did. */
        @Override
        public void setValue(Object value) {
            if (value instanceof String[] values && values.length > 0) {
                setAsText(values[0]);
            } else {
                super.setValue(value);
            }
        }
    }
}
