package io.perflab.experiment;

import io.perflab.agent.HostPlatform;
import io.perflab.rpc.EngineOptions;
import io.perflab.rpc.Platform;
import io.perflab.runner.experiment.VariantName;
import io.perflab.system.ApiValues;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * An engine option of an experiment's variant whose code path runs on one platform only
 * ({@link EngineOptions#platforms()}, e.g. {@code completion=futex} on Linux on amd64 or aarch64): the experiment is
 * claimed only by a host of that platform, as only by one that carries the labels it asks for.
 *
 * @param variant the variant whose option it is, {@code without} or {@code with}
 * @param option the option and its value, {@code completion=futex}
 * @param platform where it runs
 */
public record PlatformNeed(@ApiValues(value = VariantName.class, written = "label") String variant, String option,
                           Platform platform) {

    /**
     * The needs of an experiment's variants, {@code without}'s first, from their engine options as stored (name →
     * value); none for a command experiment, whose variants have none.
     */
    static List<PlatformNeed> of(Map<VariantName, Map<String, String>> storedOptions) {
        List<PlatformNeed> needs = new ArrayList<>();
        for (VariantName variant : VariantName.values()) {
            Map<String, String> options = storedOptions.getOrDefault(variant, Map.of());
            if (options.isEmpty()) {
                continue;
            }
            EngineOptions engine;
            try {
                engine = EngineOptions.fromMap(options);
            } catch (IllegalArgumentException notAnOption) {
                // a value this engine does not know runs nowhere: its trials fail saying so, wherever it is claimed
                continue;
            }
            engine.platforms().forEach((option, platform) -> needs.add(new PlatformNeed(variant.label(), option,
                    platform)));
        }
        return List.copyOf(needs);
    }

    /**
     * Whether a host of {@code host}'s platform runs it. A host whose agent registered no platform (null) runs none
     * ({@link Claimant#platform()}).
     */
    boolean metBy(HostPlatform host) {
        return host != null && host.isOn(platform);
    }
}
