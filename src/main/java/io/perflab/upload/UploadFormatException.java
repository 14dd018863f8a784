package io.perflab.upload;

/** The content is not what its format requires; the message says what was expected and what was found. */
class UploadFormatException extends RuntimeException {

    UploadFormatException(String message) {
        super(message);
    }
}
