package io.perflab.upload;

import java.util.List;

/** Reads one harness's output into an upload. Implementations are stateless and free of Spring. */
interface FormatAdapter {

    /** The format this adapter reads. */
    UploadFormat format();

    /**
     * Parses {@code content}.
     *
     * @param variant where samples of a one-sided output go: {@code with} or {@code without}
     * @param label the uploader's label for that side, or null
     * @param limits counts metrics and samples as they are read (see {@link SampleCollector})
     * @throws UploadFormatException if the content is not in this format, saying what was expected and found
     * @throws InvalidUploadException if a value is unusable or the content passes the upload limits
     */
    ParsedUpload parse(String content, String variant, String label, UploadLimits.Counter limits);

    /**
     * Parses the two files of one upload, {@code without} then {@code with}, each one side, as its own list. Where a
     * key depends on what else the output holds (JMH's package prefix and modes, Go's GOMAXPROCS suffix), it is
     * decided over both files, so that one benchmark has one key on both sides; each file is read once. By default
     * each file is parsed alone. What is wrong in a file is said of that file ({@link UploadFormats#inFile}).
     */
    default List<ParsedUpload> parseSides(String without, String with, UploadLimits.Counter withoutLimits,
            UploadLimits.Counter withLimits) {
        return List.of(
                UploadFormats.inFile(ParsedUpload.WITHOUT, without, format(),
                        () -> parse(without, ParsedUpload.WITHOUT, null, withoutLimits)),
                UploadFormats.inFile(ParsedUpload.WITH, with, format(),
                        () -> parse(with, ParsedUpload.WITH, null, withLimits)));
    }
}
