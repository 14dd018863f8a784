package io.perflab.upload;

import java.util.List;
import java.util.function.Function;

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
     * Why this adapter refuses a negative value of the metric it reads as {@code key} in {@code unit} — a figure the
     * tool measures, which cannot be below 0 — or null where a negative value is read as it is (a metric the tool's
     * user reports, or one no rule is known for). Said as the end of a sentence: "ns/op as Go measures it cannot
     * be".
     */
    default String negativeRefusal(String key, String unit) {
        return null;
    }

    /**
     * Parses the two files of one upload, {@code without} then {@code with}, each one side, as its own list. Where a
     * key depends on what else the output holds (JMH's package prefix and modes, Go's GOMAXPROCS suffix), it is
     * decided over both files, so that one benchmark has one key on both sides; each file is read once. By default
     * each file is parsed alone. What is wrong in a file is said of that file ({@link UploadFormats#inFile}).
     */
    default List<ParsedUpload> parseSides(String without, String with, UploadLimits.Counter withoutLimits,
            UploadLimits.Counter withLimits) {
        return parseBoth(without, with, withoutLimits, withLimits, content -> content,
                (content, other, variant, limits) -> parse(content, variant, null, limits));
    }

    /**
     * The two files of an upload, {@code without} then {@code with}: each read once with {@code read}, then each
     * parsed as one side with what the other file says, what is wrong in a file said of that file.
     */
    default <T> List<ParsedUpload> parseBoth(String without, String with,
            UploadLimits.Counter withoutLimits, UploadLimits.Counter withLimits, Function<String, T> read,
            SideParser<T> side) {
        T withoutRead = UploadFormats.inFile(ParsedUpload.WITHOUT, without, format(), () -> read.apply(without));
        T withRead = UploadFormats.inFile(ParsedUpload.WITH, with, format(), () -> read.apply(with));
        return List.of(
                UploadFormats.inFile(ParsedUpload.WITHOUT, without, format(),
                        () -> side.parse(withoutRead, withRead, ParsedUpload.WITHOUT, withoutLimits)),
                UploadFormats.inFile(ParsedUpload.WITH, with, format(),
                        () -> side.parse(withRead, withoutRead, ParsedUpload.WITH, withLimits)));
    }

    /** Parses one file of a two-file upload, read as {@code T}, as the side {@code variant}. */
    @FunctionalInterface
    interface SideParser<T> {

        /** @param other what the other file of the upload reads as */
        ParsedUpload parse(T own, T other, String variant, UploadLimits.Counter limits);
    }
}
