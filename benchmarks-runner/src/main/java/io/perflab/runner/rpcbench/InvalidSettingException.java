package io.perflab.runner.rpcbench;

/**
 * A setting that no trial could run with, named as the JSON field (and the API) name it, e.g.
 * {@code clientThreads}. Each face says it in its own terms: the API as {@code workload.clientThreads}, the
 * command line as {@code --client-threads}.
 */
public final class InvalidSettingException extends IllegalArgumentException {

    private final String field;

    public InvalidSettingException(String field, String problem) {
        super(field + ": " + problem);
        this.field = field;
    }

    /** The setting's field name. */
    public String field() {
        return field;
    }

    /** What is wrong with it, without the field's name. */
    public String problem() {
        return getMessage().substring(field.length() + 2);
    }
}
