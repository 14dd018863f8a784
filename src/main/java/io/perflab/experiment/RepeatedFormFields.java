package io.perflab.experiment;

import io.perflab.system.FieldMessages;
import io.perflab.system.PrintableText;
import java.util.Arrays;
import java.util.Map;
import java.util.stream.Collectors;
import org.springframework.validation.Errors;

/** The form's fields given more than once, said by each, as the API says a key given twice in its JSON. */
final class RepeatedFormFields {

    private RepeatedFormFields() {
    }

    /**
     * Rejects into {@code binding} each field of the new-experiment form given more than once, on that field. Spring
     * joined the texts ({@code name=x&name=y} named the experiment "x,y") and took the first number
     * ({@code runsPerVariant=5&runsPerVariant=7} ran 5).
     */
    static void reject(Map<String, String[]> fields, Errors binding) {
        fields.forEach((name, values) -> {
            if (values.length < 2) {
                return;
            }
            String given = "given " + (values.length == 2 ? "twice" : values.length + " times") + " ("
                    + Arrays.stream(values).limit(3).map(v -> "'" + PrintableText.Validator.quoted(v) + "'")
                    .collect(Collectors.joining(", ")) + (values.length > 3 ? ", …" : "") + "); give it once";
            String field = FieldMessages.jsonPath(name);
            if (ExperimentForm.FIELDS.contains(field.replaceAll("[.\\[].*", ""))) {
                binding.rejectValue(ExperimentForm.path(field), "repeated", given);
            } else {
                binding.reject("repeated", "The field '" + PrintableText.Validator.quoted(name) + "' was " + given
                        + ".");
            }
        });
    }
}
