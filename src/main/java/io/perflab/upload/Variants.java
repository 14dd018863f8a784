package io.perflab.upload;

import java.util.Locale;

/** Maps what an uploader calls a variant to the stored side: {@code without}, or {@code with} with a label. */
final class Variants {

    private Variants() {
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
