package io.perflab.upload;

import io.perflab.system.PrintableText;

/** The upload is in its format but a value is unusable; the message names the metric and what is wrong. */
final class InvalidUploadException extends UploadContentException {

    /** @param message what is wrong; text it quotes from the upload is {@link PrintableText.Validator#shown shown} */
    InvalidUploadException(String message) {
        this(null, message);
    }

    /**
     * @param field where the problem is, as {@link UploadFields} writes it ({@code git.pullRequest},
     *     {@code metrics.parse.values[3]}, {@code [3].primaryMetric.rawData}); null when the message says it of the
     *     content as a whole or by its line
     * @param message what is wrong; text it quotes from the upload is {@link PrintableText.Validator#shown shown}
     */
    InvalidUploadException(String field, String message) {
        super(field, message);
    }
}
