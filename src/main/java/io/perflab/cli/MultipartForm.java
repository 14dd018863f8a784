package io.perflab.cli;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;

/**
 * A {@code multipart/form-data} body (RFC 7578) of file parts, written out by hand: Spring's
 * {@code MultipartBodyBuilder} needs the reactive-streams classes, which perflab.jar does not hold.
 *
 * @param boundary the random line between the parts
 * @param body the parts, each with its header, and the closing boundary
 */
record MultipartForm(String boundary, byte[] body) {

    private static final SecureRandom RANDOM = new SecureRandom();

    /**
     * One file part.
     *
     * @param name the form field
     * @param fileName the file's name, sent as written except for what would end the header's quoted string
     * @param content the file's bytes, sent as they are
     */
    record Part(String name, String fileName, byte[] content) {
    }

    /** The parts in order, separated by a random boundary that none of their contents holds. */
    static MultipartForm of(List<Part> parts) {
        String boundary;
        do {
            byte[] random = new byte[16];
            RANDOM.nextBytes(random);
            boundary = "perflab-" + HexFormat.of().formatHex(random);
        } while (occursIn(boundary, parts));
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        for (Part part : parts) {
            body.writeBytes(("--" + boundary + "\r\nContent-Disposition: form-data; name=\"" + quoted(part.name())
                    + "\"; filename=\"" + quoted(part.fileName()) + "\"\r\nContent-Type: application/octet-stream"
                    + "\r\n\r\n").getBytes(StandardCharsets.UTF_8));
            body.writeBytes(part.content());
            body.writeBytes("\r\n".getBytes(StandardCharsets.UTF_8));
        }
        body.writeBytes(("--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8));
        return new MultipartForm(boundary, body.toByteArray());
    }

    /** The {@code Content-Type} header of the body. */
    String contentType() {
        return "multipart/form-data; boundary=" + boundary;
    }

    /** {@code text} inside a header's quotes: a quote or line break percent-encoded, as browsers send them. */
    private static String quoted(String text) {
        return text.replace("\"", "%22").replace("\r", "%0D").replace("\n", "%0A");
    }

    private static boolean occursIn(String boundary, List<Part> parts) {
        byte[] needle = boundary.getBytes(StandardCharsets.US_ASCII);
        for (Part part : parts) {
            byte[] content = part.content();
            for (int i = 0; i + needle.length <= content.length; i++) {
                if (java.util.Arrays.equals(content, i, i + needle.length, needle, 0, needle.length)) {
                    return true;
                }
            }
        }
        return false;
    }
}
