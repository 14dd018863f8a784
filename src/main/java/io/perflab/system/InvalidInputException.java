package io.perflab.system;

import java.util.List;
import java.util.stream.Collectors;

/**
 * Input a feature refuses, with each problem tied to the field the user wrote ({@code workload.clientThreads},
 * {@code runsPerVariant}) or to no field. The API answers it with a 400 problem naming the fields; a form shows
 * each message beside its field. Nothing is stored when it is thrown.
 */
public class InvalidInputException extends RuntimeException {

    /** One problem: the field's path as the user wrote it (null for the input as a whole) and what is wrong. */
    public record FieldProblem(String field, String message) {

        @Override
        public String toString() {
            return field == null ? message : field + ": " + message;
        }
    }

    private final transient List<FieldProblem> problems;

    public InvalidInputException(List<FieldProblem> problems) {
        super(problems.stream().map(FieldProblem::toString).collect(Collectors.joining("; ")));
        if (problems.isEmpty()) {
            throw new IllegalArgumentException("an invalid input needs at least one problem");
        }
        this.problems = List.copyOf(problems);
    }

    /** One problem with {@code field}. */
    public static InvalidInputException of(String field, String message) {
        return new InvalidInputException(List.of(new FieldProblem(field, message)));
    }

    public List<FieldProblem> problems() {
        return problems;
    }
}
