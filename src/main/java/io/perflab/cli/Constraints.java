package io.perflab.cli;

import jakarta.validation.ConstraintViolation;
import jakarta.validation.Validation;
import jakarta.validation.Validator;
import java.lang.reflect.Field;
import java.util.Comparator;
import java.util.Set;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;

/**
 * Bean Validation of settings on the command line: the same constraints as the API and the form check, with each
 * violation named by its flag ({@code --client-threads: must be less than or equal to 1024, got 2000}).
 */
final class Constraints {

    private Constraints() {
    }

    /**
     * Built on first use: most commands never validate settings. The default message interpolator, as the API's:
     * {@code @DecimalMin}'s and {@code @DecimalMax}'s messages are expressions ({@code ${inclusive == true ? …}})
     * that a parameter-only interpolator would print as they stand.
     */
    private static final class Holder {
        static final Validator VALIDATOR = Validation.buildDefaultValidatorFactory().getValidator();
    }

    /**
     * {@code settings} if it breaks no constraint.
     *
     * @throws ParameterException naming the flag of the first violation (by flag name)
     */
    static <T> T check(CommandSpec spec, T settings) {
        Set<ConstraintViolation<T>> violations = Holder.VALIDATOR.validate(settings);
        violations.stream()
                .min(Comparator.comparing(v -> v.getPropertyPath().toString()))
                .ifPresent(v -> {
                    throw new ParameterException(spec.commandLine(), optionName(spec, v.getPropertyPath().toString())
                            + ": " + v.getMessage() + ", got " + v.getInvalidValue());
                });
        return settings;
    }

    /** The flag whose field is named {@code property}, or the property itself where no flag sets it. */
    static String optionName(CommandSpec spec, String property) {
        for (OptionSpec option : spec.options()) {
            if (option.userObject() instanceof Field field && field.getName().equals(property)) {
                return option.longestName();
            }
        }
        return property;
    }
}
