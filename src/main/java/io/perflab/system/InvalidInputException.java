package io.perflab.system;

import java.util.List;
import java.util.stream.Collectors;

/**
 * Input a feature refuses, with each problem tied to the field the user wrote ({@code workload.clientThreads},
 * {@code runsPerVariant}) or to no field. The API answers it with a 400 problem naming the fields; a form shows
 * each message beside its field. Nothing is stored when it is thrown.
 */
public class InvalidInputException extends RuntimeException {

    /**
     * One problem: the field's path as the user wrote it (null for the input as a whole) and what is wrong.
     *
     * @param sentence whether {@code message} is a sentence that says where the problem is itself ("Metric 'parse':
     *     values[3] is not a number."), so that it reads alone, without the field before it
     */
    public record FieldProblem(String field, String message, boolean sentence) {

        /** A problem whose message says what is wrong with {@code field}, read after it: "must be text". */
        public FieldProblem(String field, String message) {
            this(field, message, false);
        }

        @Override
        public String toString() {
            return field == null || sentence ? message : field + ": " + message;
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

    /**
     * One problem with {@code field} whose {@code sentence} says where it is in its own words (a file's line, a
     * metric, an entry): the sentence is the problem's text as it is, and the field stands beside it for a program.
     */
    public static InvalidInputException ofSentence(String field, String sentence) {
        return new InvalidInputException(List.of(new FieldProblem(field, sentence, true)));
    }

    public List<FieldProblem> problems() {
        return problems;
    }
}
