package io.perflab.upload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Uploaded bytes are UTF-8 or refused. */
class UploadTextTests {

    private static byte[] bytes(int... values) {
        byte[] b = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            b[i] = (byte) values[i];
        }
        return b;
    }

    @Test
    void decodesUtf8AndDropsAByteOrderMark() {
        assertThat(UploadText.decode("metric,value,unit\nt,1,µs\n".getBytes(StandardCharsets.UTF_8), "The body"))
                .isEqualTo("metric,value,unit\nt,1,µs\n");
        assertThat(UploadText.decode(bytes(0xEF, 0xBB, 0xBF, 'a'), "The body")).isEqualTo("a");
    }

    @Test
    void refusesAnOverlongFormInsteadOfDecodingIt() {
        // C0 BC is an overlong (2-byte) encoding of '<', which lenient decoders turn into '<'
        assertThatThrownBy(() -> UploadText.decode(bytes('a', '\n', 'b', 0xC0, 0xBC), "The request body"))
                .isInstanceOf(InvalidUploadException.class)
                .hasMessage("The request body is not valid UTF-8: byte 0xC0 at offset 3 (line 2) begins an invalid "
                        + "UTF-8 sequence; save or send the output as UTF-8.");
    }

    @Test
    void refusesLatin1ASurrogateAndATruncatedSequence() {
        assertThatThrownBy(() -> UploadText.decode("t,1,µs".getBytes(StandardCharsets.ISO_8859_1), "The file 'with'"))
                .hasMessageContaining("The file 'with' is not valid UTF-8: byte 0xB5 at offset 4");
        // ED A0 80 would be U+D800, a surrogate, which UTF-8 does not encode
        assertThatThrownBy(() -> UploadText.decode(bytes('x', 0xED, 0xA0, 0x80), "The body"))
                .hasMessageContaining("byte 0xED at offset 1");
        assertThatThrownBy(() -> UploadText.decode(bytes('x', 0xE2, 0x82), "The body"))
                .hasMessageContaining("byte 0xE2 at offset 1");
    }
}
