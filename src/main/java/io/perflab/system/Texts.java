package io.perflab.system;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.text.Normalizer;

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

    /**
     * {@code text} as a text column keeps it: each NUL, which PostgreSQL refuses in text ("invalid byte sequence for
     * encoding UTF8: 0x00") and a command's output may hold, made U+FFFD, the replacement character (as the sign-in
     * throttle keeps the names it is sent), then {@link #cut} to {@code max}. Every other character is kept as it
     * came: pages and reports show stored text safely. Null stays null.
     *
     * @param max at least 2
     */
    public static String storable(String text, int max) {
        return text == null ? null : cut(withoutNul(text), max);
    }

    /**
     * {@code text} with each NUL made U+FFFD, as {@link #storable} stores it: what {@code perflab agent} posts, so that
     * a service of a release that stored errors as posted can store them too. Null stays null.
     */
    public static String withoutNul(String text) {
        return text == null ? null : text.replace('\0', '\uFFFD');
    }

    /**
     * {@code text} composed (Unicode NFC), as names that identify something are stored and looked up: 'café' typed
     * as e and a combining accent (as macOS file names and some keyboards give it) is then the same name as 'café'
     * typed with the letter é, where the two were two benchmarks that showed alike. Null stays null.
     */
    public static String composed(String text) {
        return text == null ? null : Normalizer.normalize(text, Normalizer.Form.NFC);
    }

    /**
     * {@code bytes} decoded as UTF-8, strictly: a byte that does not begin a valid UTF-8 sequence (a Latin-1 file,
     * an overlong form such as {@code C0 BC}, UTF-16) is refused, not decoded as a replacement character.
     *
     * @throws NotUtf8Exception naming the offset of the first such byte
     */
    public static String utf8(byte[] bytes) {
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        CharBuffer out = CharBuffer.allocate(bytes.length);
        CoderResult result = decoder.decode(in, out, true);
        if (!result.isError()) {
            result = decoder.flush(out);
        }
        if (result.isError()) {
            throw new NotUtf8Exception(in.position());
        }
        return out.flip().toString();
    }

    /** Bytes that are not UTF-8, from {@link #utf8}. */
    public static final class NotUtf8Exception extends IllegalArgumentException {

        private final int offset;

        NotUtf8Exception(int offset) {
            super("not UTF-8: the byte at offset " + offset + " begins no valid UTF-8 sequence");
            this.offset = offset;
        }

        /** The offset of the first byte that begins no valid UTF-8 sequence. */
        public int offset() {
            return offset;
        }
    }
}
