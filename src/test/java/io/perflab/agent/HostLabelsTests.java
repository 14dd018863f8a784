package io.perflab.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HostLabelsTests {

    @Test
    void parsesLabelsIntoTheCanonicalTextSortedByKey() {
        HostLabels labels = HostLabels.parse(" kernel=6.8 , arch=x86_64,pool=bench-1");

        assertThat(labels.labels()).containsExactly(Map.entry("arch", "x86_64"), Map.entry("kernel", "6.8"),
                Map.entry("pool", "bench-1"));
        assertThat(labels.canonical()).isEqualTo("arch=x86_64,kernel=6.8,pool=bench-1");
        assertThat(HostLabels.parse(labels.canonical())).isEqualTo(labels);
        assertThat(HostLabels.of(Map.of("pool", "bench-1", "arch", "x86_64", "kernel", "6.8"))).isEqualTo(labels);
    }

    @Test
    void blankTextIsNoLabels() {
        assertThat(HostLabels.parse(null)).isEqualTo(HostLabels.NONE);
        assertThat(HostLabels.parse("  ")).isEqualTo(HostLabels.NONE);
        assertThat(HostLabels.of(null).canonical()).isEmpty();
    }

    @Test
    void aHostSatisfiesLabelsItCarriesAllOfWithTheSameValues() {
        HostLabels host = HostLabels.parse("arch=x86_64,kernel=6.8");

        assertThat(host.satisfies(HostLabels.NONE)).isTrue();
        assertThat(host.satisfies(HostLabels.parse("arch=x86_64"))).isTrue();
        assertThat(host.satisfies(host)).isTrue();
        assertThat(host.satisfies(HostLabels.parse("arch=aarch64"))).isFalse();
        assertThat(host.satisfies(HostLabels.parse("arch=x86_64,gpu=none"))).isFalse();
        assertThat(HostLabels.NONE.satisfies(HostLabels.parse("arch=x86_64"))).isFalse();
    }

    @Test
    void twoSetsOfLabelsOneHostCouldCarryGiveNoKeyTwoValues() {
        HostLabels asked = HostLabels.parse("arch=x86_64");

        assertThat(asked.compatibleWith(HostLabels.parse("kernel=6.8"))).isTrue();
        assertThat(asked.compatibleWith(HostLabels.parse("arch=x86_64,gpu=none"))).isTrue();
        assertThat(asked.compatibleWith(HostLabels.NONE)).isTrue();
        assertThat(HostLabels.NONE.compatibleWith(asked)).isTrue();
        assertThat(asked.compatibleWith(HostLabels.parse("arch=aarch64,gpu=none"))).isFalse();
    }

    @Test
    void refusesWhatIsNotALabelSayingWhich() {
        assertThatThrownBy(() -> HostLabels.parse("arch")).hasMessageContaining("'arch' is not a label")
                .hasMessageContaining("key=value");
        assertThatThrownBy(() -> HostLabels.parse("arch=x86_64,,kernel=6")).hasMessageContaining("is not a label");
        assertThatThrownBy(() -> HostLabels.parse("=x86_64")).hasMessageContaining("label key ''");
        assertThatThrownBy(() -> HostLabels.parse("arch=")).hasMessageContaining("label arch: value ''");
        assertThatThrownBy(() -> HostLabels.parse("arch=x86 64")).hasMessageContaining("label arch: value");
        assertThatThrownBy(() -> HostLabels.parse("arch=a,arch=b")).hasMessageContaining("arch is given twice");
        assertThatThrownBy(() -> HostLabels.parse("a=b=c")).hasMessageContaining("label a: value 'b=c'");
    }

    @Test
    void controlCharactersAreRefusedAndNotEchoed() {
        assertThatThrownBy(() -> HostLabels.parse("arch=x86\u001b[31m")).hasMessageContaining("x86\\u001B[31m")
                .hasMessageNotContaining("\u001b");
        assertThatThrownBy(() -> HostLabels.of(Map.of("ar\nch", "x")))
                .hasMessageContaining("label key 'ar\\u000Ach'");
    }

    @Test
    void sizesAreBounded() {
        Map<String, String> many = new HashMap<>();
        for (int i = 0; i <= HostLabels.MAX_LABELS; i++) {
            many.put("k" + i, "v");
        }
        assertThatThrownBy(() -> HostLabels.of(many)).hasMessageContaining("at most " + HostLabels.MAX_LABELS);
        assertThatThrownBy(() -> HostLabels.parse("k=" + "v".repeat(HostLabels.MAX_VALUE + 1)))
                .hasMessageContaining("1 to " + HostLabels.MAX_VALUE);
        assertThatThrownBy(() -> HostLabels.parse("k".repeat(HostLabels.MAX_KEY + 1) + "=v"))
                .hasMessageContaining("1 to " + HostLabels.MAX_KEY);
        assertThat(HostLabels.parse("k".repeat(HostLabels.MAX_KEY) + "=" + "v".repeat(HostLabels.MAX_VALUE))
                .labels()).hasSize(1);
    }
}
