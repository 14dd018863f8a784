package io.perflab.system;

import jakarta.validation.ConstraintViolationException;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.springframework.beans.InvalidPropertyException;
import org.springframework.beans.TypeMismatchException;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.validation.FieldError;
import org.springframework.web.bind.MethodArgumentNotValidException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/**
 * Turns exceptions from REST controllers into {@code application/problem+json} whose {@code detail} says what
 * was wrong in the caller's terms: the JSON field at fault and what it may hold, never a Java type. Features
 * throw {@link InvalidInputException}, {@link NotFoundException}, {@link ConflictException},
 * {@link NotAllowedException} and {@link NotAuthenticatedException} (or, in controllers, {@link ApiProblem}); a 400
 * also lists each field problem under {@code errors}.
 */
@RestControllerAdvice(annotations = RestController.class)
@Order(Ordered.HIGHEST_PRECEDENCE)
class ApiExceptionHandler extends ResponseEntityExceptionHandler {

    @ExceptionHandler(ApiProblem.class)
    ProblemDetail apiProblem(ApiProblem problem) {
        return problem.getBody();
    }

    @ExceptionHandler(InvalidInputException.class)
    ProblemDetail invalidInput(InvalidInputException ex) {
        return badRequest(ex.problems());
    }

    @ExceptionHandler(NotFoundException.class)
    ProblemDetail notFound(NotFoundException ex) {
        return ProblemDetail.forStatusAndDetail(HttpStatus.NOT_FOUND, ex.getMessage());
    }

    @ExceptionHandler(ConflictException.class)
    ProblemDetail conflict(ConflictException ex) {
        return ProblemDetail.forStatusAndDetail(HttpStatus.CONFLICT, ex.getMessage());
    }

    @ExceptionHandler(NotAllowedException.class)
    ProblemDetail notAllowed(NotAllowedException ex) {
        return ProblemDetail.forStatusAndDetail(HttpStatus.FORBIDDEN, ex.getMessage());
    }

    /** As the security filter answers a token it refuses: 401, with the scheme to authenticate by. */
    @ExceptionHandler(NotAuthenticatedException.class)
    ResponseEntity<ProblemDetail> notAuthenticated(NotAuthenticatedException ex) {
        return ResponseEntity.status(HttpStatus.UNAUTHORIZED).header(HttpHeaders.WWW_AUTHENTICATE,
                "Bearer realm=\"perflab\"").body(ProblemDetail.forStatusAndDetail(HttpStatus.UNAUTHORIZED,
                ex.getMessage()));
    }

    @ExceptionHandler(Utf8BodyFilter.InvalidUtf8Exception.class)
    ProblemDetail invalidUtf8(Utf8BodyFilter.InvalidUtf8Exception ex) {
        return ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, ex.getMessage());
    }

    @ExceptionHandler(IllegalArgumentException.class)
    ProblemDetail badArgument(IllegalArgumentException ex) {
        return ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, ex.getMessage());
    }

    /** A query or form parameter bound to an object that has no place for it, such as {@code page[0]}. */
    @ExceptionHandler(InvalidPropertyException.class)
    ProblemDetail unknownField(InvalidPropertyException ex) {
        return ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, FieldMessages.unknownField(ex));
    }

    @ExceptionHandler(ConstraintViolationException.class)
    ProblemDetail constraintViolation(ConstraintViolationException ex) {
        return badRequest(ex.getConstraintViolations().stream()
                .map(v -> new InvalidInputException.FieldProblem(v.getPropertyPath().toString(),
                        FieldMessages.violation(v.getMessage(), v.getInvalidValue())))
                .toList());
    }

    @Override
    protected ResponseEntity<Object> handleMethodArgumentNotValid(MethodArgumentNotValidException ex,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        List<InvalidInputException.FieldProblem> problems = ex.getBindingResult().getAllErrors().stream()
                .map(e -> e instanceof FieldError f
                        ? new InvalidInputException.FieldProblem(FieldMessages.jsonPath(f.getField()),
                                FieldMessages.violation(f.getDefaultMessage(), f.getRejectedValue()))
                        : new InvalidInputException.FieldProblem(null, e.getDefaultMessage()))
                .toList();
        return handleExceptionInternal(ex, badRequest(problems), headers, HttpStatus.BAD_REQUEST, request);
    }

    @Override
    protected ResponseEntity<Object> handleTypeMismatch(TypeMismatchException ex,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        ProblemDetail body = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, FieldMessages.typeMismatch(ex));
        return handleExceptionInternal(ex, body, headers, HttpStatus.BAD_REQUEST, request);
    }

    @Override
    protected ResponseEntity<Object> handleHttpMessageNotReadable(HttpMessageNotReadableException ex,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        if (RequestSizeLimitFilter.causedByLimit(ex)) {
            ProblemDetail tooLarge = ProblemDetail.forStatusAndDetail(HttpStatus.CONTENT_TOO_LARGE,
                    JsonErrors.describe(ex));
            return handleExceptionInternal(ex, tooLarge, headers, HttpStatus.CONTENT_TOO_LARGE, request);
        }
        Throwable utf8 = ex.getMostSpecificCause();
        ProblemDetail body = utf8 instanceof Utf8BodyFilter.InvalidUtf8Exception
                ? ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, utf8.getMessage())
                : badRequest(List.of(JsonErrors.problem(ex)));
        return handleExceptionInternal(ex, body, headers, HttpStatus.BAD_REQUEST, request);
    }

    private static ProblemDetail badRequest(List<InvalidInputException.FieldProblem> problems) {
        List<InvalidInputException.FieldProblem> sorted = problems.stream()
                .sorted(java.util.Comparator.comparing(p -> p.field() == null ? "" : p.field()))
                .toList();
        ProblemDetail body = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, sorted.stream()
                .map(InvalidInputException.FieldProblem::toString).collect(Collectors.joining("; ")));
        body.setProperty("errors", sorted.stream()
                .map(p -> p.field() == null ? Map.of("message", p.message())
                        : Map.of("field", p.field(), "message", p.message()))
                .toList());
        return body;
    }
}
