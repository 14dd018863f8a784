package io.perflab.system;

import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.springframework.core.ResolvableType;
import org.springframework.web.bind.WebDataBinder;
import org.springframework.web.bind.annotation.InitBinder;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;

/**
 * A parameter of a REST handler's record of parameters (such as an upload's {@code ?benchmark=&branch=…}) given
 * more than once is refused naming it and its values. Spring binds the values of a parameter given twice to a text
 * field joined with commas: {@code ?benchmark=parser&benchmark=lexer} was stored as the benchmark "parser,lexer",
 * {@code ?benchmark=qp&benchmark=} as "qp,". A record's fields each hold one value, so every such parameter is
 * checked, for every handler that binds one, here.
 */
@RestControllerAdvice(annotations = RestController.class)
class SingleValuedParameters {

    /** How many of a repeated parameter's values the message quotes. */
    private static final int QUOTED_VALUES = 3;

    /** How much of each value the message quotes. */
    private static final int QUOTED_LENGTH = 60;

    /**
     * Runs before a record is made from the request's parameters; a record that came from the body (its target is
     * set already) or a single value bound on its own is no concern of this check.
     */
    @InitBinder
    void refuseRepeated(WebDataBinder binder, WebRequest request) {
        ResolvableType targetType = binder.getTargetType();
        Class<?> type = targetType == null ? null : targetType.resolve();
        if (binder.getTarget() != null || type == null || !type.isRecord()) {
            return;
        }
        for (RecordComponent component : type.getRecordComponents()) {
            String[] values = request.getParameterValues(component.getName());
            if (values != null && values.length > 1) {
                throw ApiProblem.badRequest(repeated(component.getName(), values));
            }
        }
    }

    /** "Parameter 'benchmark' given twice ('parser', 'lexer'); give each parameter once." */
    private static String repeated(String name, String[] values) {
        String quoted = Stream.concat(Arrays.stream(values).limit(QUOTED_VALUES)
                        .map(value -> "'" + Texts.cut(value, QUOTED_LENGTH) + "'"),
                values.length > QUOTED_VALUES ? Stream.of("…") : Stream.empty())
                .collect(Collectors.joining(", "));
        return "Parameter '" + name + "' given " + (values.length == 2 ? "twice" : values.length + " times") + " ("
                + quoted + "); give each parameter once.";
    }
}
