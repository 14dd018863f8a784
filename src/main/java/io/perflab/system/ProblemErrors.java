package io.perflab.system;

import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;

/**
 * A 400 problem's {@code errors[]}, made in one place for every answer that has one — a handler's refusal, a filter's,
 * the security firewall's, the error page's: each entry the {@code field} at fault, left out for the input as a whole,
 * and its {@code message}. A field is often the client's own text (a query parameter, a JSON key or a header no
 * request takes), so it is {@link #field shown} as messages quote such text, escaped and cut, whichever refused it.
 */
final class ProblemErrors {

    /** The problem's property that lists its errors. */
    static final String PROPERTY = "errors";

    /**
     * The most characters a field takes, its escapes and "…" included: a path of the service's own that holds keys
     * of an upload, cut as its messages cut them (120 characters), stays whole; a name of thousands does not.
     */
    static final int FIELD_MAX = 300;

    private ProblemErrors() {
    }

    /**
     * {@code field} as an error and a detail name it: each character that is not printable, and the line and
     * paragraph separators, written as its escape ({@code \u001B}), at most {@value #FIELD_MAX} characters in all,
     * cut with "…" ({@link PrintableText.Validator#quoted(String, int)}). Null stays null.
     */
    static String field(String field) {
        return field == null ? null : PrintableText.Validator.quoted(field, FIELD_MAX);
    }

    /** One entry of {@code errors[]}: the {@link #field} and the message, shown; without a field when it is null. */
    static Map<String, String> entry(String field, String message) {
        String shown = PrintableText.Validator.shown(String.valueOf(message));
        return field == null ? Map.of("message", shown) : Map.of("field", field(field), "message", shown);
    }

    /**
     * A 400 problem of {@code problems}, in the order of their fields, the input as a whole first: its detail says
     * each ({@code field: message}, or the message alone where it is a sentence or names no field), its
     * {@code errors[]} lists each.
     */
    static ProblemDetail badRequest(List<InvalidInputException.FieldProblem> problems) {
        List<InvalidInputException.FieldProblem> sorted = problems.stream()
                .sorted(Comparator.comparing(p -> p.field() == null ? "" : p.field()))
                .toList();
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, PrintableText.Validator.shown(
                sorted.stream().map(ProblemErrors::said).collect(Collectors.joining("; "))));
        problem.setProperty(PROPERTY, sorted.stream().map(p -> entry(p.field(), p.message())).toList());
        return problem;
    }

    /** A 400 problem of one error of {@code field} (null: the input as a whole) whose message is the detail. */
    static ProblemDetail badRequest(String field, String detail) {
        return badRequest(List.of(new InvalidInputException.FieldProblem(field, detail, true)));
    }

    /**
     * {@code problem}'s {@code errors[]} with each entry's field and text shown as {@link #entry} shows them: for a
     * problem another built, whose entries may be of any shape.
     */
    static void shown(ProblemDetail problem) {
        if (problem.getProperties() != null && problem.getProperties().get(PROPERTY) instanceof List<?> errors) {
            problem.setProperty(PROPERTY, errors.stream().map(ProblemErrors::shownEntry).toList());
        }
    }

    private static Object shownEntry(Object error) {
        if (!(error instanceof Map<?, ?> entry)) {
            return error;
        }
        Map<Object, Object> shown = new LinkedHashMap<>();
        entry.forEach((name, value) -> shown.put(name, !(value instanceof String text) ? value
                : "field".equals(name) ? field(text) : PrintableText.Validator.shown(text)));
        return shown;
    }

    /** What the detail says of {@code problem}: as {@link InvalidInputException.FieldProblem#toString}, field shown. */
    private static String said(InvalidInputException.FieldProblem problem) {
        return problem.field() == null || problem.sentence() ? problem.message()
                : field(problem.field()) + ": " + problem.message();
    }
}
