package io.perflab.experiment;

import io.perflab.system.FieldMessages;
import io.perflab.system.PrintableText;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.springframework.validation.Errors;

/**
 * What is wrong with the new-experiment form's fields as sent, before they are bound: one given more than once, one
 * that is not %-escaped UTF-8 ({@link NewExperimentFormBody}). Each is said on its field.
 */
final class SentFormFields {

    private SentFormFields() {
    }

    /** Rejects each field that {@link NewExperimentFormBody} found not %-escaped UTF-8 ({@code name=%FF}). */
    static void rejectUndecodable(Object undecodable, Errors binding) {
        if (undecodable instanceof List<?> names) {
            names.forEach(name -> reject(String.valueOf(name), "is not %-escaped UTF-8 text: encode the text as "
                    + "UTF-8 and %-escape its bytes (é is %C3%A9)", binding));
        }
    }

    /**
     * Rejects into {@code binding} each field of the new-experiment form given more than once, on that field. Spring
     * joined the texts ({@code name=x&name=y} named the experiment "x,y") and took the first number
     * ({@code runsPerVariant=5&runsPerVariant=7} ran 5).
     */
    static void rejectRepeated(Map<String, String[]> fields, Errors binding) {
        fields.forEach((name, values) -> {
            if (values.length < 2) {
                return;
            }
            String given = "is given " + (values.length == 2 ? "twice" : values.length + " times") + " ("
                    + Arrays.stream(values).limit(3).map(v -> "'" + PrintableText.Validator.quoted(v) + "'")
                    .collect(Collectors.joining(", ")) + (values.length > 3 ? ", …" : "") + "); give it once";
            reject(name, given, binding);
        });
    }

    /** Rejects form field {@code name} on its input, or for the whole form if the form has no input for it. */
    private static void reject(String name, String message, Errors binding) {
        String field = FieldMessages.jsonPath(name);
        if (ExperimentForm.FIELDS.contains(field.replaceAll("[.\\[].*", ""))) {
            binding.rejectValue(ExperimentForm.path(field), "invalid", message);
        } else {
            binding.reject("invalid", "The field '" + PrintableText.Validator.quoted(name) + "' " + message + ".");
        }
    }
}
