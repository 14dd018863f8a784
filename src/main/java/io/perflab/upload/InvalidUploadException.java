package io.perflab.upload;

/** The upload is in its format but a value is unusable; the message names the metric and what is wrong. */
class InvalidUploadException extends RuntimeException {

    InvalidUploadException(String message) {
        super(message);
    }
}
