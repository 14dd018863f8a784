package io.perflab.system;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.ErrorResponseException;

/**
 * An API error with a status and a detail that tells the caller what was wrong and what to do. Not for a 400: input
 * the API refuses is an {@link InvalidInputException}, whose problem names the field at fault in its {@code errors}.
 */
public class ApiProblem extends ErrorResponseException {

    public ApiProblem(HttpStatus status, String detail) {
        super(status, ProblemDetail.forStatusAndDetail(status, detail), null);
    }

    public static ApiProblem notFound(String detail) {
        return new ApiProblem(HttpStatus.NOT_FOUND, detail);
    }

    public static ApiProblem conflict(String detail) {
        return new ApiProblem(HttpStatus.CONFLICT, detail);
    }

    public static ApiProblem forbidden(String detail) {
        return new ApiProblem(HttpStatus.FORBIDDEN, detail);
    }

    @Override
    public String getMessage() {
        return getBody().getDetail();
    }
}
