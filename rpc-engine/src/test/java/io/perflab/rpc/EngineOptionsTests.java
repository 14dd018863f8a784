package io.perflab.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class EngineOptionsTests {

    @Test
    void defaultsAreTheFasterValuesInAStableOrder() {
        assertThat(EngineOptions.defaults().describe()).containsExactly(
                Map.entry("completion", "notification"),
                Map.entry("callBufferInitialBytes", "4096"),
                Map.entry("allocator", "pooled"),
                Map.entry("callObjects", "recycled"),
                Map.entry("transport", "epoll"),
                Map.entry("flush", "consolidated"),
                Map.entry("tls", "false"));
        assertThat(EngineOptions.optionNames()).containsExactlyElementsOf(EngineOptions.defaults().describe().keySet());
        assertThat(EngineOptions.defaults().toString())
                .startsWith("completion=notification callBufferInitialBytes=4096");
    }

    @Test
    void everyListedValueParsesAndDescribesBackToItself() {
        for (EngineOptions.OptionSpec spec : EngineOptions.optionSpecs()) {
            assertThat(spec.allowedValues()).contains(spec.defaultValue());
            for (String value : spec.allowedValues()) {
                EngineOptions parsed = EngineOptions.defaults().withOption(spec.name(), value.toUpperCase());
                assertThat(parsed.describe()).containsEntry(spec.name(), value);
                assertThat(EngineOptions.fromMap(parsed.describe())).isEqualTo(parsed);
            }
        }
    }

    @Test
    void withOptionLeavesTheOriginalUnchanged() {
        EngineOptions defaults = EngineOptions.defaults();
        EngineOptions monitor = defaults.withOption("completion", "monitor");
        assertThat(defaults.completion()).isEqualTo(EngineOptions.Completion.NOTIFICATION);
        assertThat(monitor.completion()).isEqualTo(EngineOptions.Completion.MONITOR);
        assertThat(monitor.differencesFrom(defaults)).containsExactly(Map.entry("completion", "monitor"));
        assertThat(monitor).isNotEqualTo(defaults).isEqualTo(EngineOptions.builder()
                .completion(EngineOptions.Completion.MONITOR).build());
    }

    @Test
    void unknownNameListsTheAllowedOptions() {
        assertThatThrownBy(() -> EngineOptions.defaults().withOption("compression", "lz4"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown engine option 'compression'")
                .hasMessageContaining("completion (notification|monitor|condvar|futex|future)")
                .hasMessageContaining("callBufferInitialBytes (positive integer")
                .hasMessageContaining("tls (true|false)");
    }

    @Test
    void unknownValueListsTheAllowedValues() {
        assertThatThrownBy(() -> EngineOptions.defaults().withOption("allocator", "jemalloc"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("invalid value 'jemalloc' for engine option 'allocator'; "
                        + "allowed values: pooled, unpooled, adaptive");
        assertThatThrownBy(() -> EngineOptions.defaults().withOption("tls", "yes"))
                .hasMessageContaining("allowed values: true, false");
        assertThatThrownBy(() -> EngineOptions.defaults().withOption("callBufferInitialBytes", "0"))
                .hasMessageContaining("a positive integer");
        assertThatThrownBy(() -> EngineOptions.defaults().withOption("callBufferInitialBytes", "4k"))
                .hasMessageContaining("a positive integer");
    }

    @Test
    void serverConfigParsesSettingsAndRejectsBadOnes() {
        ServerConfig config = ServerConfig.defaults().withSetting("workerThreads", "0")
                .withSetting("serviceQueueLength", "2");
        assertThat(config.describe()).containsExactly(Map.entry("serverReactors", "4"),
                Map.entry("workerThreads", "0"), Map.entry("serviceQueueLength", "2"),
                Map.entry("maxFrameBytes", Integer.toString(64 * 1024 * 1024)));
        assertThatThrownBy(() -> config.withSetting("reactors", "2"))
                .hasMessageContaining("allowed settings: serverReactors, workerThreads, serviceQueueLength, "
                        + "maxFrameBytes");
        assertThatThrownBy(() -> config.withSetting("serverReactors", "0"))
                .hasMessageContaining("serverReactors must be at least 1");
        assertThatThrownBy(() -> config.withSetting("maxFrameBytes", "many"))
                .hasMessageContaining("expected an integer");
    }

    @Test
    void onlyFutexCompletionRunsOnOnePlatformTheOneItsRefusalChecks() {
        EngineOptions futex = EngineOptions.defaults().withOption("completion", "futex");
        assertThat(futex.platforms()).containsExactly(Map.entry("completion=futex", FutexCompletion.PLATFORM));
        Platform linux = futex.platforms().get("completion=futex");
        assertThat(linux).hasToString("Linux on amd64 or aarch64");
        assertThat(linux.includes("Linux", "amd64")).isTrue();
        assertThat(linux.includes("Linux", "aarch64")).isTrue();
        assertThat(linux.includes("Mac OS X", "aarch64")).isFalse();
        assertThat(linux.includes("Linux", "riscv64")).isFalse();
        assertThat(linux.includes("Windows 11", "amd64")).isFalse();
        assertThat(linux.includes(null, "amd64")).as("a platform not known").isFalse();
        assertThat(linux.includes("Linux", null)).isFalse();
        for (EngineOptions.OptionSpec spec : EngineOptions.optionSpecs()) {
            for (String value : spec.allowedValues()) {
                if (!(spec.name().equals("completion") && value.equals("futex"))) {
                    assertThat(EngineOptions.defaults().withOption(spec.name(), value).platforms())
                            .as(spec.name() + "=" + value).isEmpty();
                }
            }
        }
    }
}
