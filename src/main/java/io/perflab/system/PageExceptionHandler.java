package io.perflab.system;

import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.beans.InvalidPropertyException;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ExceptionHandler;

/**
 * The pages' answer to what features throw: the status it stands for, shown by the error page with the message
 * ({@link ErrorPagesController}). REST controllers have {@link ApiExceptionHandler}, which comes first.
 */
@ControllerAdvice(annotations = Controller.class)
@Order(Ordered.LOWEST_PRECEDENCE)
class PageExceptionHandler {

    @ExceptionHandler(NotFoundException.class)
    void notFound(NotFoundException ex, HttpServletResponse response) throws IOException {
        response.sendError(HttpStatus.NOT_FOUND.value(), ex.getMessage());
    }

    @ExceptionHandler(ConflictException.class)
    void conflict(ConflictException ex, HttpServletResponse response) throws IOException {
        response.sendError(HttpStatus.CONFLICT.value(), ex.getMessage());
    }

    @ExceptionHandler(NotAllowedException.class)
    void notAllowed(NotAllowedException ex, HttpServletResponse response) throws IOException {
        response.sendError(HttpStatus.FORBIDDEN.value(), ex.getMessage());
    }

    /** A form field the form object has no place for, such as {@code name[0]} or {@code without[x][y]}. */
    @ExceptionHandler(InvalidPropertyException.class)
    void unknownField(InvalidPropertyException ex, HttpServletResponse response) throws IOException {
        response.sendError(HttpStatus.BAD_REQUEST.value(), FieldMessages.unknownField(ex));
    }

    @ExceptionHandler(InvalidInputException.class)
    void invalid(InvalidInputException ex, HttpServletResponse response) throws IOException {
        response.sendError(HttpStatus.BAD_REQUEST.value(), ex.getMessage());
    }
}
