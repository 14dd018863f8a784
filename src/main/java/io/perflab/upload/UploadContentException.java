package io.perflab.upload;

import io.perflab.system.PrintableText;

/**
 * What is wrong with an upload's content, said in its message, and where, in its field: the content is not in its
 * format ({@link UploadFormatException}), or a value in it is unusable ({@link InvalidUploadException}).
 */
abstract sealed class UploadContentException extends RuntimeException
        permits InvalidUploadException, UploadFormatException {

    private final String field;

    /**
     * @param field where the problem is, as {@link UploadFields} writes it; null when the message says it of the
     *     content as a whole or by its line
     * @param message what is wrong; text it quotes from the upload is {@link PrintableText.Validator#shown shown}
     */
    UploadContentException(String field, String message) {
        super(PrintableText.Validator.shown(message));
        this.field = UploadFields.shown(field);
    }

    /** Where the problem is, as {@link UploadFields} writes it, or null. */
    final String field() {
        return field;
    }
}
