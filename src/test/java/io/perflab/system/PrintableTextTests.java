package io.perflab.system;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** What counts as printable text, and how a message shows text that is not. */
class PrintableTextTests {

    @Test
    void controlAndHiddenFormatCharactersAreNotPrintableButTheEmojiJoinerIs() {
        assertThat(PrintableText.Validator.firstProblem("plain ascii, ünïcode, 日本", false)).isEqualTo(-1);
        assertThat(PrintableText.Validator.firstProblem("👩\u200D💻", false)).as("joined emoji").isEqualTo(-1);
        assertThat(PrintableText.Validator.firstProblem("ab\u001b[31m", false)).isEqualTo(2);
        assertThat(PrintableText.Validator.firstProblem("a\u202eb", false)).isEqualTo(1);
        assertThat(PrintableText.Validator.firstProblem("a\u200bb", false)).as("zero-width space").isEqualTo(1);
        assertThat(PrintableText.Validator.firstProblem("a\ud800b", false)).as("half a pair").isEqualTo(1);
        assertThat(PrintableText.Validator.firstProblem("one\r\ntwo", true)).isEqualTo(-1);
        assertThat(PrintableText.Validator.firstProblem("one\rtwo", true)).as("a lone CR").isEqualTo(3);
        assertThat(PrintableText.Validator.firstProblem("one\ntwo", false)).isEqualTo(3);
        assertThat(PrintableText.Validator.firstProblem("cpu:\tAMD", true)).as("a tab lays out lines").isEqualTo(-1);
        assertThat(PrintableText.Validator.firstProblem("cpu:\tAMD", false)).as("but not in a name").isEqualTo(4);
    }

    @Test
    void aMessageShowsWhatIsNotPrintableSoThatItCannotHideOrReorderTheMessage() {
        assertThat(PrintableText.Validator.problemAt("ab\u001b[31m", 2)).isEqualTo(
                "a control character (U+001B) at position 3");
        assertThat(PrintableText.Validator.problemAt("a\u202eb", 1)).isEqualTo(
                "a hidden format character (U+202E) at position 2");
        assertThat(PrintableText.Validator.shown("exe.\u202etxt\u001b\n日")).isEqualTo("exe.\\u202Etxt\\u001B\\u000A日");
        // each was '?', which says neither which character it was nor that there was one (a '?' typed as it is)
        assertThat(PrintableText.Validator.quoted("exe.\u202etxt\u001b")).isEqualTo("exe.\\u202Etxt\\u001B");
        assertThat(PrintableText.Validator.quoted("<script>x\u001b")).isEqualTo("<script>x\\u001B");
        assertThat(PrintableText.Validator.quoted("x".repeat(100))).hasSize(60).endsWith("…");
        assertThat(PrintableText.Validator.quoted("\u001b".repeat(100))).as("60 characters, escapes whole")
                .isEqualTo("\\u001B".repeat(9) + "…");
        assertThat(PrintableText.Validator.quoted("x".repeat(55) + "\u202e😀")).isEqualTo("x".repeat(55) + "…");
        assertThat(PrintableText.Validator.quoted("x".repeat(57) + "😀😀")).isEqualTo("x".repeat(57) + "😀…");
        assertThat(PrintableText.Validator.quoted(null)).isEmpty();
        assertThat(PrintableText.Validator.quoted("\u001b".repeat(100), 20)).as("at most as many as asked")
                .isEqualTo("\\u001B".repeat(3) + "…");
        assertThat(FieldMessages.violation("must be short", "a\u202eb")).isEqualTo("must be short, got 'a\\u202Eb'");
    }

    /**
     * The line and paragraph separators were shown as they came: a log viewer or an editor breaks a line at them, so a
     * message quoting one was split in two. A name may still hold them; a message shows them escaped, as NEL.
     */
    @Test
    void aMessageShowsTheLineAndParagraphSeparatorsEscapedWhichANameMayHold() {
        String name = "a\u2028b\u2029c\u0085d";
        assertThat(PrintableText.Validator.firstProblem("a\u2028b\u2029c", false)).as("a name").isEqualTo(-1);
        assertThat(PrintableText.Validator.shown(name)).isEqualTo("a\\u2028b\\u2029c\\u0085d");
        assertThat(PrintableText.Validator.quoted(name)).isEqualTo("a\\u2028b\\u2029c\\u0085d");
        assertThat(PrintableText.Validator.quoted("x".repeat(55) + "\u2028y")).as("an escape fits whole or not at all")
                .isEqualTo("x".repeat(55) + "…");
        assertThat(FieldMessages.violation("must be short", name)).doesNotContain("\u2028", "\u2029", "\u0085");
        assertThat(PrintableText.Validator.replaced("a\u2028b", '?', "")).as("as pages show stored text")
                .isEqualTo("a\u2028b");
    }

    @Test
    void severalLinesAreShownKeepingTheLineBreaksAndTabsThatLayThemOut() {
        assertThat(PrintableText.Validator.shownLines("one\u001b[2J\r\ntwo\u202e\n\n\tthree\u2028four\r"))
                .isEqualTo("one\\u001B[2J\ntwo\\u202E\n\n\tthree\\u2028four\\u000D");
    }
}
