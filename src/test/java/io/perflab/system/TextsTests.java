package io.perflab.system;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TextsTests {

    @Test
    void cutsToTheLengthWithAnEllipsisAndNeverBetweenTheHalvesOfACharacter() {
        assertThat(Texts.cut("abcdef", 6)).isEqualTo("abcdef");
        assertThat(Texts.cut("abcdefg", 6)).isEqualTo("abcde…").hasSize(6);
        assertThat(Texts.cut(null, 6)).isNull();
        // "abcd" then an emoji (two chars) at positions 4–5: a cut after 5 characters would keep its first half
        assertThat(Texts.cut("abcd😀fgh", 6)).isEqualTo("abcd…");
        assertThat(Texts.cut("abc😀efgh", 6)).isEqualTo("abc😀…").hasSize(6);
        String cut = Texts.cut("x".repeat(198) + "😀".repeat(20), 200);
        assertThat(PrintableText.Validator.firstProblem(cut, false)).isEqualTo(-1);
    }

    /** PostgreSQL refuses a NUL in text: a command's output that held one failed the store of its trial. */
    @Test
    void storableTextHasEachNulReplacedAndKeepsEveryOtherCharacter() {
        assertThat(Texts.storable("exit 3\n\u001b[31mbad\0byte\0", 100))
                .isEqualTo("exit 3\n\u001b[31mbad\uFFFDbyte\uFFFD");
        assertThat(Texts.storable("\0".repeat(10), 6)).isEqualTo("\uFFFD".repeat(5) + "…");
        assertThat(Texts.storable(null, 6)).isNull();
    }
}
