package io.perflab.upload;

import io.perflab.system.PrintableText;

/** The upload is in its format but a value is unusable; the message names the metric and what is wrong. */
class InvalidUploadException extends RuntimeException {

    /** @param message what is wrong; text it quotes from the upload is {@link PrintableText.Validator#shown shown} */
    InvalidUploadException(String message) {
        super(PrintableText.Validator.shown(message));
    }
}
