package io.perflab.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/** {@link FixedValues} lists an enum's constants as a field writes them. */
class FixedValuesTests {

    enum Shade {
        LIGHT_GREY, DARK_GREY, BLACK;

        public String label() {
            return name().toLowerCase(Locale.ROOT).replace('_', ' ');
        }
    }

    record Paint(@ApiValues(Shade.class) String named,
                 @ApiValues(value = Shade.class, lowerCase = true) String lower,
                 @ApiValues(value = Shade.class, written = "label", only = {"BLACK", "LIGHT_GREY"}, also = "none")
                 String some,
                 @ApiValues(value = Shade.class, only = "WHITE") String missing,
                 @ApiValues(value = Shade.class, written = "hex") String unwritten) {
    }

    @Test
    void listsTheConstantsAsTheFieldWritesThemInTheirOrder() {
        assertThat(FixedValues.values(of("named"))).containsExactly("LIGHT_GREY", "DARK_GREY", "BLACK");
        assertThat(FixedValues.values(of("lower"))).containsExactly("light_grey", "dark_grey", "black");
        assertThat(FixedValues.values(of("some"))).containsExactly("light grey", "black", "none");
    }

    /** A constant or a method the enum does not have is said, naming it, not left out of the document. */
    @Test
    void refusesAConstantOrAMethodTheEnumDoesNotHave() {
        assertThatThrownBy(() -> FixedValues.values(of("missing"))).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("WHITE");
        assertThatThrownBy(() -> FixedValues.values(of("unwritten"))).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("hex()");
    }

    private static ApiValues of(String component) {
        return Arrays.stream(Paint.class.getRecordComponents()).filter(c -> c.getName().equals(component))
                .findFirst().orElseThrow().getAccessor().getAnnotation(ApiValues.class);
    }
}
