package io.perflab.system;

/** Text cut to fit a column, a message or a label. */
public final class Texts {

    private Texts() {
    }

    /**
     * {@code text} when it has at most {@code max} characters, else its start and "…", {@code max} characters in
     * all; never cut between the two halves of a character outside the Basic Multilingual Plane (an emoji, a CJK
     * extension), which would leave half a surrogate pair that stores and shows as garbage and that PerfLab's own
     * checks refuse. Null stays null.
     *
     * @param max at least 2
     */
    public static String cut(String text, int max) {
        if (text == null || text.length() <= max) {
            return text;
        }
        int end = max - 1;
        if (Character.isHighSurrogate(text.charAt(end - 1)) && Character.isLowSurrogate(text.charAt(end))) {
            end--;
        }
        return text.substring(0, end) + "…";
    }
}
