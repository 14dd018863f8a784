package io.perflab.upload;

import io.perflab.system.PrintableText;

/** The content is not what its format requires; the message says what was expected and what was found. */
class UploadFormatException extends RuntimeException {

    /** @param message what is wrong; text it quotes from the upload is {@link PrintableText.Validator#shown shown} */
    UploadFormatException(String message) {
        super(PrintableText.Validator.shown(message));
    }
}
