package io.perflab.system;

/**
 * A page number as a list page's address gives it ({@code ?page=2}), from 0. The pages parse it themselves, where
 * Spring's conversion would answer the error page for "two" and take -1 as a number, so that each can say what was
 * wrong beside its own form.
 */
public final class PageNumber {

    private PageNumber() {
    }

    /**
     * {@code page} as a page number: blank is the first page (0).
     *
     * @return the number, or null when {@code page} is no whole number from 0 to {@link Integer#MAX_VALUE}
     */
    public static Integer parse(String page) {
        if (page == null || page.isBlank()) {
            return 0;
        }
        String digits = page.strip();
        if (!digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return null;
        }
        try {
            return Integer.parseInt(digits);
        } catch (NumberFormatException tooLarge) {
            return null;
        }
    }

    /**
     * What a page says of a {@code page} that {@link #parse} refused, which it {@link PrintableText.Validator#quoted
     * quotes}.
     */
    public static String notOne(String page) {
        return "There is no page '" + PrintableText.Validator.quoted(page) + "': the address numbers pages with whole "
                + "numbers from 0 (the first page) to " + Integer.MAX_VALUE + ".";
    }
}
