package io.perflab.upload;

import java.util.Locale;

/** Maps what an uploader calls a variant to the stored side: {@code without}, or {@code with} with a label. */
final class Variants {

    private Variants() {
    }

    /** The names of the sides, which a label one typing slip away from is taken to be a misspelling of. */
    private static final java.util.List<String> SIDE_NAMES = java.util.List.of("with", "without", "baseline");

    /**
     * The side name {@code variant} looks like a misspelling of (one letter left out, added, changed, or two
     * swapped: "witout", "wiht", "baselien"), or null. Any other text is a label of the with side, as before; so a
     * misspelt side was stored as the change, under a label nobody meant.
     */
    static String misspeltSide(String variant) {
        if (variant == null || variant.isBlank()) {
            return null;
        }
        String v = variant.strip().toLowerCase(Locale.ROOT);
        if (v.equals("base") || SIDE_NAMES.contains(v)) {
            return null;
        }
        return SIDE_NAMES.stream().filter(name -> oneSlipApart(v, name)).findFirst().orElse(null);
    }

    /** Whether {@code a} becomes {@code b} by one insertion, deletion, substitution or swap of neighbours. */
    private static boolean oneSlipApart(String a, String b) {
        if (Math.abs(a.length() - b.length()) > 1) {
            return false;
        }
        int start = 0;
        while (start < Math.min(a.length(), b.length()) && a.charAt(start) == b.charAt(start)) {
            start++;
        }
        String x = a.substring(start);
        String y = b.substring(start);
        if (x.length() == y.length()) {
            return x.substring(1).equals(y.substring(1))
                    || x.length() >= 2 && x.charAt(0) == y.charAt(1) && x.charAt(1) == y.charAt(0)
                    && x.substring(2).equals(y.substring(2));
        }
        return x.length() > y.length() ? x.substring(1).equals(y) : y.substring(1).equals(x);
    }

    /** {@code without} for "without"/"baseline"/"base", else {@code with}. */
    static String side(String variant) {
        if (variant == null || variant.isBlank()) {
            return ParsedUpload.WITH;
        }
        String v = variant.strip().toLowerCase(Locale.ROOT);
        return v.equals("without") || v.equals("baseline") || v.equals("base") ? ParsedUpload.WITHOUT
                : ParsedUpload.WITH;
    }

    /**
     * The label to keep: null for the plain names, else the uploader's text without the white space around it
     * ({@link String#strip()}); any other control character at either end, an escape code, is kept for the
     * validator to refuse.
     */
    static String label(String variant) {
        if (variant == null || variant.isBlank()) {
            return null;
        }
        String label = variant.strip();
        String v = label.toLowerCase(Locale.ROOT);
        return v.equals("with") || v.equals("without") ? null : label;
    }
}
