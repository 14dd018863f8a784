package io.perflab.upload;

import io.perflab.system.PrintableText;

/** The content is not what its format requires; the message says what was expected and what was found. */
final class UploadFormatException extends UploadContentException {

    /** @param message what is wrong; text it quotes from the upload is {@link PrintableText.Validator#shown shown} */
    UploadFormatException(String message) {
        this(null, message);
    }

    /**
     * @param field where the problem is, as {@link UploadFields} writes it ({@code benchmarks}, {@code with}); null
     *     when the message says it of the content as a whole
     * @param message what is wrong; text it quotes from the upload is {@link PrintableText.Validator#shown shown}
     */
    UploadFormatException(String field, String message) {
        super(field, message);
    }
}
