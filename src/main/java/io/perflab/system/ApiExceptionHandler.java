package io.perflab.system;

import jakarta.validation.ConstraintViolationException;
import java.util.List;
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
import org.springframework.web.ErrorResponse;
import org.springframework.web.bind.MethodArgumentNotValidException;
import org.springframework.web.bind.MissingRequestHeaderException;
import org.springframework.web.bind.MissingServletRequestParameterException;
import org.springframework.web.bind.ServletRequestBindingException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.multipart.support.MissingServletRequestPartException;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/**
 * Turns exceptions from REST controllers into {@code application/problem+json} whose {@code detail} says what
 * was wrong in the caller's terms: the JSON field at fault and what it may hold, never a Java type. Features
 * throw {@link InvalidInputException}, {@link NotFoundException}, {@link ConflictException},
 * {@link NotAllowedException} and {@link NotAuthenticatedException} (or, in controllers, {@link ApiProblem}, for
 * any status but 400). A 400 of refused input, theirs and Spring's own, lists each problem under {@code errors}, with
 * the field, query parameter, path variable or header at fault as the request wrote it ({@code
 * workload.clientThreads}, {@code page}, {@code id}), or without a field for the input as a whole (JSON that does not
 * parse); its {@code detail} is their text. Both name a field as {@link ProblemErrors} does, as every 400 does.
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
        return ProblemErrors.badRequest(ex.problems());
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

    /** A body that is not UTF-8: a problem of the body as a whole, which its message places by its byte. */
    @ExceptionHandler(Utf8BodyFilter.InvalidUtf8Exception.class)
    ProblemDetail invalidUtf8(Utf8BodyFilter.InvalidUtf8Exception ex) {
        return ProblemErrors.badRequest(List.of(new InvalidInputException.FieldProblem(null, ex.getMessage())));
    }

    /**
     * What no feature should throw for input it refuses, since it names no field: a 400 like every other, its one
     * error of the input as a whole.
     */
    @ExceptionHandler(IllegalArgumentException.class)
    ProblemDetail badArgument(IllegalArgumentException ex) {
        return ProblemErrors.badRequest(null, ex.getMessage() != null ? ex.getMessage()
                : "the request's input was refused");
    }

    /** A query or form parameter bound to an object that has no place for it, such as {@code page[0]}. */
    @ExceptionHandler(InvalidPropertyException.class)
    ProblemDetail unknownField(InvalidPropertyException ex) {
        return ProblemErrors.badRequest(List.of(new InvalidInputException.FieldProblem(ex.getPropertyName(),
                FieldMessages.unknownField(ex), true)));
    }

    @ExceptionHandler(ConstraintViolationException.class)
    ProblemDetail constraintViolation(ConstraintViolationException ex) {
        return ProblemErrors.badRequest(ex.getConstraintViolations().stream()
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
        return handleExceptionInternal(ex, ProblemErrors.badRequest(problems), headers, HttpStatus.BAD_REQUEST,
                request);
    }

    /** A path variable or query parameter that is not of its type ({@code /experiments/abc}): named by its name. */
    @Override
    protected ResponseEntity<Object> handleTypeMismatch(TypeMismatchException ex,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        ProblemDetail body = ProblemErrors.badRequest(List.of(new InvalidInputException.FieldProblem(
                FieldMessages.parameter(ex), FieldMessages.expectedValue(ex))));
        return handleExceptionInternal(ex, body, headers, HttpStatus.BAD_REQUEST, request);
    }

    /** A required query parameter left out ({@code /benchmarks/history} without {@code ?benchmark=}). */
    @Override
    protected ResponseEntity<Object> handleMissingServletRequestParameter(MissingServletRequestParameterException ex,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        return refused(ex, ex.getParameterName(), headers, request);
    }

    /** A required part of a multipart body left out. */
    @Override
    protected ResponseEntity<Object> handleMissingServletRequestPart(MissingServletRequestPartException ex,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        return refused(ex, ex.getRequestPartName(), headers, request);
    }

    /** A required header, cookie or parameter condition left out: the header named, else the request as a whole. */
    @Override
    protected ResponseEntity<Object> handleServletRequestBindingException(ServletRequestBindingException ex,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        if (!status.isSameCodeAs(HttpStatus.BAD_REQUEST)) {
            return super.handleServletRequestBindingException(ex, headers, status, request);
        }
        return refused(ex, ex instanceof MissingRequestHeaderException header ? header.getHeaderName() : null,
                headers, request);
    }

    /** Spring's refusal of {@code field} (null: of the request as a whole) in its own words, which name it. */
    private ResponseEntity<Object> refused(ErrorResponse ex, String field, HttpHeaders headers, WebRequest request) {
        ProblemDetail body = ProblemErrors.badRequest(List.of(new InvalidInputException.FieldProblem(field,
                ex.getBody().getDetail(), true)));
        return handleExceptionInternal((Exception) ex, body, headers, HttpStatus.BAD_REQUEST, request);
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
        ProblemDetail body = ProblemErrors.badRequest(List.of(utf8 instanceof Utf8BodyFilter.InvalidUtf8Exception
                ? new InvalidInputException.FieldProblem(null, utf8.getMessage()) : JsonErrors.problem(ex)));
        return handleExceptionInternal(ex, body, headers, HttpStatus.BAD_REQUEST, request);
    }
}
