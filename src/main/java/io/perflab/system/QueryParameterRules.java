package io.perflab.system;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.MethodParameter;
import org.springframework.core.ParameterNameDiscoverer;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.StringUtils;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RequestPart;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.multipart.MultipartFile;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * The rules every handler's request parameters are held to before it runs, each refusing with the parameter named.
 *
 * <p>A parameter that holds one value, given more than once, is refused naming it and its values. Spring binds the
 * values of a parameter given twice to a text joined with commas, and to a number as the first of them:
 * {@code ?benchmark=parser&benchmark=lexer} was stored as the benchmark "parser,lexer",
 * {@code ?benchmark=qp&benchmark=} as "qp,", {@code ?name=a&name=b} listed the experiments named "a,b" (none) and
 * {@code ?page=1&page=5} showed page 1.
 *
 * <p>Checked before the handler runs, for every handler: each {@code @RequestParam} of one value (not a list, an
 * array, a map or a file) and, for a REST handler, each field of a record its parameters are bound to (an upload's
 * {@code ?benchmark=&branch=…}). A page's form objects may hold lists and are bound by their own rules. The API
 * answers 400 with the message, its error's field the parameter; a page shows it on the error page with 400.
 *
 * <p>A {@code @RequestParam} read as text on a {@code GET} or {@code HEAD} that holds a control character (NUL, ESC, a
 * line break) is refused: {@code ?branch=%00} was looked up and echoed back as {@code "\u0000"}. A character that
 * hides or reorders text is shown escaped by the messages that quote it; a form's fields are checked by its own
 * rules, which show the message on the form.
 */
@Configuration
class QueryParameterRules implements WebMvcConfigurer, HandlerInterceptor {

    /** How many of a repeated parameter's values the message quotes. */
    private static final int QUOTED_VALUES = 3;

    private static final ParameterNameDiscoverer NAMES = new DefaultParameterNameDiscoverer();

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        registry.addInterceptor(this);
    }

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
        if (!(handler instanceof HandlerMethod method)) {
            return true;
        }
        boolean rest = AnnotatedElementUtils.hasAnnotation(method.getBeanType(), RestController.class);
        boolean read = "GET".equals(request.getMethod()) || "HEAD".equals(request.getMethod());
        for (MethodParameter parameter : method.getMethodParameters()) {
            for (String name : singleValued(parameter, rest)) {
                String[] values = request.getParameterValues(name);
                if (values != null && values.length > 1) {
                    throw refused(name, repeated(name, values), rest);
                }
                boolean text = parameter.getParameterType() == String.class
                        && parameter.hasParameterAnnotation(RequestParam.class);
                for (String value : read && text && values != null ? values : new String[0]) {
                    int at = firstControl(value);
                    if (at >= 0) {
                        throw refused(name, name + ": must be text without control characters; it has "
                                + PrintableText.Validator.problemAt(value, at), rest);
                    }
                }
            }
        }
        return true;
    }

    /** The refusal of parameter {@code name}: the API's names it as its error's field; a page says it alone. */
    private static RuntimeException refused(String name, String message, boolean rest) {
        return rest ? InvalidInputException.ofSentence(name, message) : InvalidInputException.of(null, message);
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

    /** The names of the request parameters {@code parameter} takes one value of. */
    private static List<String> singleValued(MethodParameter parameter, boolean rest) {
        Class<?> type = parameter.getParameterType();
        RequestParam annotation = parameter.getParameterAnnotation(RequestParam.class);
        if (annotation != null) {
            if (type.isArray() || Collection.class.isAssignableFrom(type) || Map.class.isAssignableFrom(type)
                    || MultipartFile.class.isAssignableFrom(type)) {
                return List.of();
            }
            // name and value are aliases: either may be given
            String named = StringUtils.hasText(annotation.name()) ? annotation.name() : annotation.value();
            if (StringUtils.hasText(named)) {
                return List.of(named);
            }
            parameter.initParameterNameDiscovery(NAMES);
            return parameter.getParameterName() == null ? List.of() : List.of(parameter.getParameterName());
        }
        if (rest && type.isRecord() && !parameter.hasParameterAnnotation(RequestBody.class)
                && !parameter.hasParameterAnnotation(RequestPart.class)) {
            return Arrays.stream(type.getRecordComponents()).map(RecordComponent::getName).toList();
        }
        return List.of();
    }

    /**
     * "Parameter 'benchmark' given twice ('parser', 'lexer'); give each parameter once.": each value {@link
     * PrintableText.Validator#quoted quoted}, a line break or an escape in it written as its escape.
     */
    private static String repeated(String name, String[] values) {
        String quoted = Stream.concat(Arrays.stream(values).limit(QUOTED_VALUES)
                        .map(value -> "'" + PrintableText.Validator.quoted(value) + "'"),
                values.length > QUOTED_VALUES ? Stream.of("…") : Stream.empty())
                .collect(Collectors.joining(", "));
        return "Parameter '" + name + "' given " + (values.length == 2 ? "twice" : values.length + " times") + " ("
                + quoted + "); give each parameter once.";
    }
}
