package io.perflab.upload;

import io.perflab.system.PrintableText;

/**
 * Where in an upload a refusal is, as its {@code errors[].field} names it, written as the API writes every field: the
 * JSON path of PerfLab's upload JSON or of another tool's ({@code git.pullRequest}, {@code tags[2]},
 * {@code metrics.parse.values[3]}, {@code [3].primaryMetric.rawData}, {@code benchmarks[2].real_time}), a request
 * parameter ({@code format}, {@code commitTime}) or header ({@code Idempotency-Key}), or a file of a multipart upload
 * ({@code file}, {@code without}, {@code with}). A path in one of a two-file upload's files is the file, a colon and
 * the path ({@code with:metrics.parse.values[3]}, {@code without:[0].mode}): a part's name has no colon, so the first
 * one ends it, and a path of one file alone never begins with a part and a colon. The keys in a path are written as
 * the upload writes them, cut as messages cut them ({@link UploadText#excerpt}).
 */
final class UploadFields {

    private UploadFields() {
    }

    /** The field {@code name} of the object at {@code parent} ("" or null for the top): {@code metrics.parse}. */
    static String key(String parent, String name) {
        String key = UploadText.excerpt(name);
        return parent == null || parent.isEmpty() ? key : parent + "." + key;
    }

    /** The element {@code index} (from 0) of the list at {@code parent} ("" or null for the top): {@code tags[2]}. */
    static String index(String parent, int index) {
        return (parent == null ? "" : parent) + "[" + index + "]";
    }

    /**
     * {@code field} (null when nothing finer is known) in the file {@code part} of a multipart upload: the part alone
     * when nothing finer is known; in a file of a two-file upload, the part, a colon and the field
     * ({@code with:metrics.parse}); in the one file 'file', read as a request body is, the field as it is.
     */
    static String inPart(String part, String field) {
        if (field == null) {
            return part;
        }
        return ParsedUpload.WITHOUT.equals(part) || ParsedUpload.WITH.equals(part) ? part + ":" + field : field;
    }

    /** {@code field} as a problem shows it: each character that is not printable written as its escape. */
    static String shown(String field) {
        return field == null ? null : PrintableText.Validator.shown(field);
    }
}
