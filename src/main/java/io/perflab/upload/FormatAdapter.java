package io.perflab.upload;

/** Reads one harness's output into an upload. Implementations are stateless and free of Spring. */
interface FormatAdapter {

    /**
     * Parses {@code content}.
     *
     * @param variant where samples of a one-sided output go: {@code with} or {@code without}
     * @param label the uploader's label for that side, or null
     * @throws UploadFormatException if the content is not in this format, saying what was expected and found
     */
    ParsedUpload parse(String content, String variant, String label);
}
