package io.perflab.system;

import org.springframework.beans.PropertyAccessException;
import org.springframework.beans.TypeMismatchException;
import org.springframework.stereotype.Controller;
import org.springframework.validation.BindingResult;
import org.springframework.validation.DefaultBindingErrorProcessor;
import org.springframework.validation.FieldError;
import org.springframework.web.bind.WebDataBinder;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.InitBinder;

/**
 * A form's field that does not hold its type ({@code pairs=abc}) is shown as {@code must be a whole number up to
 * 2147483647, got 'abc'} ({@link FieldMessages#expectedValue}) beside the field, not as Spring's "Failed to convert
 * property value of type java.lang.String to required type java.lang.Integer". Every page's form binds with it
 * ({@link PageForms}).
 */
final class PlainBindingErrors extends DefaultBindingErrorProcessor {

    /** Sets {@link PlainBindingErrors} on the binder of every page's form. */
    @ControllerAdvice(annotations = Controller.class)
    static class PageForms {

        @InitBinder
        void plainBindingErrors(WebDataBinder binder) {
            binder.setBindingErrorProcessor(new PlainBindingErrors());
        }
    }

    @Override
    public void processPropertyAccessException(PropertyAccessException ex, BindingResult bindingResult) {
        if (!(ex instanceof TypeMismatchException mismatch) || ex.getPropertyName() == null) {
            super.processPropertyAccessException(ex, bindingResult);
            return;
        }
        String field = ex.getPropertyName();
        // no message arguments: with them the message would go through MessageFormat, which drops the quotes
        bindingResult.addError(new FieldError(bindingResult.getObjectName(), field, ex.getValue(), true,
                bindingResult.resolveMessageCodes(ex.getErrorCode(), field), null,
                FieldMessages.expectedValue(mismatch)));
    }
}
