package io.perflab;

/** How often a piece of text occurs in a page or report, for tests that count elements in markup. */
public final class Occurrences {

    private Occurrences() {
    }

    /** The non-overlapping occurrences of {@code needle} in {@code text}. */
    public static int count(String text, String needle) {
        int n = 0;
        for (int i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + needle.length())) {
            n++;
        }
        return n;
    }
}
