package io.perflab.report;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TextSafetyTests {

    @Test
    void markdownShowsUserTextLiterallyOnOneLine() {
        assertThat(TextSafety.markdown("<img src=x onerror=alert(1)>")).isEqualTo("&lt;img src=x onerror=alert(1)&gt;");
        assertThat(TextSafety.markdown("a|b\nc")).isEqualTo("a\\|b c");
        assertThat(TextSafety.markdown("[x](javascript:alert(1)) `code` *em* ![i](u) # h"))
                .isEqualTo("\\[x\\](javascript:alert(1)) \\`code\\` \\*em\\* \\!\\[i\\](u) \\# h");
        assertThat(TextSafety.markdown("&lt; \\")).isEqualTo("&amp;lt; \\\\");
        assertThat(TextSafety.markdown(null)).isEmpty();
        assertThat(TextSafety.markdown("__init__ _x_ cpu_us_per_req ~~gone~~ a: b"))
                .isEqualTo("\\_\\_init\\_\\_ \\_x\\_ cpu_us_per_req \\~\\~gone\\~\\~ a: b");
        assertThat(TextSafety.markdown("https://evil.example WWW.evil.example a@b.example 1.5"))
                .isEqualTo("https\\://evil.example WWW\\.evil.example a\\@b.example 1.5");
    }

    @Test
    void severalLinesAreQuotedInMarkdownLineForLineWithoutStartingABlock() {
        assertThat(TextSafety.markdownQuote("\n  first <b>\r\n\n\n## second\n+ 3\n2) four\n---\n\tcode\n\n"))
                .isEqualTo("> first &lt;b&gt;\n>\n> \\#\\# second\\\n> \\+ 3\\\n> 2\\) four\\\n> \\---\\\n> code\n");
        assertThat(TextSafety.markdownQuote("ends in \\\nnext")).isEqualTo("> ends in \\\\\\\n> next\n");
        assertThat(TextSafety.markdownQuote(" \n ")).isEmpty();
        assertThat(TextSafety.markdownQuote(null)).isEmpty();
        assertThat(TextSafety.lines("a\u2028b\n\n\tc\u001b\n")).containsExactly("a b", "", " c");
    }

    @Test
    void plainTextLosesControlCharactersButKeepsMarkup() {
        assertThat(TextSafety.line("red \u001b[31mtext\r\nnext\u2028")).isEqualTo("red  [31mtext  next ");
        assertThat(TextSafety.block("one\r\ntwo\u0007\n\tthree")).isEqualTo("one\ntwo \n\tthree");
        assertThat(TextSafety.line("<b>bold</b>")).isEqualTo("<b>bold</b>");
        assertThat(TextSafety.line("exe.\u202etxt \u200bx 👩\u200D💻")).isEqualTo("exe. txt  x 👩\u200D💻");
        assertThat(TextSafety.block("a\u202eb\n\tc")).isEqualTo("a b\n\tc");
        assertThat(TextSafety.markdown("m\u202e|x")).isEqualTo("m \\|x");
    }
}
