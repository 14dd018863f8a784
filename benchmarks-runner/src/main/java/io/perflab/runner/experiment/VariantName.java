package io.perflab.runner.experiment;

/** The two sides of an experiment, as R's {@code t.test(with, without)} names them. */
public enum VariantName {
    /** The baseline. */
    WITHOUT("without"),
    /** The change. */
    WITH("with");

    private final String label;

    VariantName(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    public static VariantName parse(String label) {
        for (VariantName name : values()) {
            if (name.label.equals(label)) {
                return name;
            }
        }
        throw new IllegalArgumentException("variant must be 'without' or 'with', got '" + label + "'");
    }
}
