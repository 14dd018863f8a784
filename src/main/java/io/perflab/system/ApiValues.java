package io.perflab.system;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The values a text field of the API's JSON holds: the constants of an enum, each written as the field writes it. The
 * OpenAPI document lists them as the field's {@code enum} ({@link FixedValues}), so that a client generated from it
 * has a type for them, and the list is the enum's: a constant added, renamed or removed changes it too.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.METHOD, ElementType.PARAMETER})
public @interface ApiValues {

    /** The enum whose constants the field holds. */
    @SuppressWarnings("rawtypes")
    Class<? extends Enum> value();

    /**
     * How the field writes a constant: the name of the constant's public no-argument method that gives its text
     * ({@code label}, {@code rName}); {@code name}, its name, by default.
     */
    String written() default "name";

    /** Whether the field writes that text in lower case ({@code ENGINE} as {@code engine}). */
    boolean lowerCase() default false;

    /** The constants the field can hold, by name, where it holds only some; none: all of them. */
    String[] only() default {};

    /** Values the field holds beside the enum's, such as a metric's verdict {@code not compared}. */
    String[] also() default {};
}
