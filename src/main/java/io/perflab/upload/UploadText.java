package io.perflab.upload;

import io.perflab.system.PrintableText;
import io.perflab.system.Texts;

/**
 * Uploaded bytes as text. Every format is read as UTF-8, strictly: a byte sequence that is not UTF-8 (a Latin-1
 * file, an overlong form such as {@code C0 BC} for {@code <}, a lone surrogate) is refused with its position instead
 * of being replaced or decoded leniently. A leading byte-order mark is dropped.
 */
final class UploadText {

    /** How much of a name, value or line a message shows: every metric name the validator accepts, whole. */
    static final int EXCERPT = 120;

    private UploadText() {
    }

    /**
     * {@code text} as a message shows it: whole up to {@value #EXCERPT} characters, else its start and "…". A name,
     * value or line of an upload may be megabytes long, and the message is sent back (twice, in a problem's
     * {@code detail} and {@code errors}) and logged.
     */
    static String excerpt(String text) {
        return Texts.cut(text, EXCERPT);
    }

    /**
     * {@code text} as a message quotes a value refused for what it says rather than for its characters: its
     * {@link #excerpt}, each character that is not printable written as its escape ({@code \u001B}), so that the
     * message stays printable text whatever the upload holds.
     */
    static String shown(String text) {
        return PrintableText.Validator.shown(excerpt(text));
    }

    /**
     * @param what how to name the bytes in a message, e.g. "The request body" or "The file 'with'"
     * @throws InvalidUploadException if {@code bytes} are not UTF-8, naming the offset and line of the first bad byte
     */
    static String decode(byte[] bytes, String what) {
        String text;
        try {
            text = Texts.utf8(bytes);
        } catch (Texts.NotUtf8Exception e) {
            int offset = e.offset();
            throw new InvalidUploadException(what + " is not valid UTF-8: byte 0x"
                    + String.format("%02X", bytes[offset] & 0xff) + " at offset " + offset + " (line "
                    + lineOf(bytes, offset) + ") begins an invalid UTF-8 sequence; save or send the output as "
                    + "UTF-8.");
        }
        return text.startsWith("\uFEFF") ? text.substring(1) : text;
    }

    private static int lineOf(byte[] bytes, int offset) {
        int line = 1;
        for (int i = 0; i < offset; i++) {
            if (bytes[i] == '\n') {
                line++;
            }
        }
        return line;
    }
}
