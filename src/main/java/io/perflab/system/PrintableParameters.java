package io.perflab.system;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.MethodParameter;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.StringUtils;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * A query parameter bound as text that holds a control character (NUL, ESC, a line break) is refused naming it:
 * {@code ?branch=%00} was looked up and echoed back as {@code "\u0000"}. The API answers 400 with the message; a
 * page shows it on the error page with 400. A character that hides or reorders text is shown escaped by the
 * messages that quote it.
 */
@Configuration
class PrintableParameters implements WebMvcConfigurer, HandlerInterceptor {

    private static final DefaultParameterNameDiscoverer NAMES = new DefaultParameterNameDiscoverer();

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        registry.addInterceptor(this);
    }

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
        // a form's fields are checked by its own rules, which show the message on the form
        if (!(handler instanceof HandlerMethod method)
                || !("GET".equals(request.getMethod()) || "HEAD".equals(request.getMethod()))) {
            return true;
        }
        boolean rest = AnnotatedElementUtils.hasAnnotation(method.getBeanType(), RestController.class);
        for (MethodParameter parameter : method.getMethodParameters()) {
            RequestParam annotation = parameter.getParameterAnnotation(RequestParam.class);
            if (annotation == null || parameter.getParameterType() != String.class) {
                continue;
            }
            String name = StringUtils.hasText(annotation.name()) ? annotation.name() : annotation.value();
            if (!StringUtils.hasText(name)) {
                parameter.initParameterNameDiscovery(NAMES);
                name = parameter.getParameterName();
            }
            String[] values = name == null ? null : request.getParameterValues(name);
            for (String value : values == null ? new String[0] : values) {
                int at = firstControl(value);
                if (at >= 0) {
                    String message = name + ": must be text without control characters; it has "
                            + PrintableText.Validator.problemAt(value, at);
                    throw rest ? ApiProblem.badRequest(message) : InvalidInputException.of(null, message);
                }
            }
        }
        return true;
    }

    /** Where {@code text}'s first control character is (NUL, ESC, a line break), or -1. */
    private static int firstControl(String text) {
        for (int i = 0; i < text.length(); i++) {
            if (Character.isISOControl(text.charAt(i))) {
                return i;
            }
        }
        return -1;
    }
}
