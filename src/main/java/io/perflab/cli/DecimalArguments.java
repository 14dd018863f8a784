package io.perflab.cli;

import io.perflab.system.PrintableText;
import io.perflab.upload.DecimalNumbers;
import picocli.CommandLine.ITypeConverter;

/**
 * Numbers typed on the command line, read as files of samples and uploads read theirs ({@link DecimalNumbers}): Java's
 * extras ({@code 0x1p-1}, {@code 0.95d}) are no numbers, and one beyond the range of a double is refused as written,
 * never taken as an infinity. The converters say what a value must be; picocli puts the flag before it
 * ({@code Invalid value for option '--confidence': …}).
 */
final class DecimalArguments {

    private DecimalArguments() {
    }

    /**
     * The number {@code text} writes.
     *
     * @throws IllegalArgumentException saying why it is none
     */
    static double parse(String text) {
        Double value = DecimalNumbers.parse(text.strip());
        if (value == null) {
            throw new IllegalArgumentException("'" + PrintableText.Validator.shown(text) + "' is not a number: digits "
                    + "with an optional sign, fraction and exponent, such as 0.95 or 1e-3");
        }
        if (value.isInfinite()) {
            throw new IllegalArgumentException(DecimalNumbers.beyondRange(text.strip()));
        }
        return value;
    }

    private static double between0And1(String text, String what) {
        double value = parse(text);
        if (!(value > 0 && value < 1)) {
            throw new IllegalArgumentException(what + " lies between 0 and 1 (both excluded), got '"
                    + PrintableText.Validator.shown(text) + "'");
        }
        return value;
    }

    /** Any number. */
    static final class Decimal implements ITypeConverter<Double> {
        @Override
        public Double convert(String text) {
            return PerfLabCommand.converted(() -> parse(text));
        }
    }

    /** A confidence level, between 0 and 1. */
    static final class ConfidenceLevel implements ITypeConverter<Double> {
        @Override
        public Double convert(String text) {
            return PerfLabCommand.converted(() -> between0And1(text, "a confidence level"));
        }
    }

    /** A significance level, between 0 and 1. */
    static final class SignificanceLevel implements ITypeConverter<Double> {
        @Override
        public Double convert(String text) {
            return PerfLabCommand.converted(() -> between0And1(text, "a significance level"));
        }
    }

    /** A percentage above 0. */
    static final class PositivePercent implements ITypeConverter<Double> {
        @Override
        public Double convert(String text) {
            return PerfLabCommand.converted(() -> {
                double value = parse(text);
                if (!(value > 0)) {
                    throw new IllegalArgumentException("a margin is a percentage above 0, got '"
                            + PrintableText.Validator.shown(text) + "'");
                }
                return value;
            });
        }
    }
}
