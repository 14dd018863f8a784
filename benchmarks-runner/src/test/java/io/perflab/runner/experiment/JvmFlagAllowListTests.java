package io.perflab.runner.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class JvmFlagAllowListTests {

    @Test
    void allowsHeapGcAndJitFlags() {
        assertThat(List.of("-Xms512m", "-Xmx2G", "-Xmn64m", "-Xss1m", "-Xbatch", "-Xint", "-XX:+UseG1GC",
                "-XX:-UseSerialGC", "-XX:+AlwaysPreTouch", "-XX:TieredStopAtLevel=1", "-XX:CICompilerCount=2",
                "-XX:MaxHeapSize=1073741824", "-XX:-UseDynamicNumberOfCompilerThreads", "-XX:MaxRAMPercentage=50.0",
                "-Dio.netty.allocator.type=unpooled", "-Dio.netty.leakDetection.level=disabled", "-ea",
                "-Dperflab.cpuSplit=tick", "-Dperflab.cpuSplit=sampled", "-Dperflab.cpuSplitHz=9973",
                "-Dperflab.countSyscalls=false", "-Dperflab.countHardware=false", "-Dperflab.countHardware=true"))
                .allSatisfy(flag -> assertThat(JvmFlagAllowList.allows(flag)).as(flag).isTrue());
        assertThat(JvmFlagAllowList.allows("-Dperflab.countHardware=yes")).isFalse();
        assertThat(ExperimentPlan.DEFAULT_JVM_ARGS).allSatisfy(flag ->
                assertThat(JvmFlagAllowList.allows(flag)).as(flag).isTrue());
    }

    @Test
    void refusesFlagsThatRunLoadOrUnlockCode() {
        assertThat(List.of("-XX:OnOutOfMemoryError=sh -c id", "-XX:OnError=id", "-XX:+UnlockDiagnosticVMOptions",
                "-XX:+UnlockExperimentalVMOptions", "-XX:CompileCommand=option,*.*,PrintAssembly",
                "-agentpath:/x.so", "-agentlib:jdwp=transport=dt_socket", "-javaagent:/x.jar", "@args",
                "-Djava.library.path=/tmp", "-Dio.netty.x=$(id)", "-Dio.netty.x=a b", "-XX:Flags=.hotspotrc",
                "-XX:VMOptionsFile=x", "-cp", "-jar", "--add-opens", "-Xmx1g;id", "-Xmx1g\n", "-XX:+UseG1GC ",
                "-XX:TieredStopAtLevel=1 -XX:OnError=id", "-Xlog:gc:file=/etc/passwd", "-XX:ErrorFile=/tmp/x", "",
                "-Dperflab.cpuSplit=perf", "-Dperflab.cpuSplitHz=1e9", "-Dperflab.other=1"))
                .allSatisfy(flag -> assertThat(JvmFlagAllowList.allows(flag)).as(flag).isFalse());
        assertThat(JvmFlagAllowList.allows(null)).isFalse();
    }

    @Test
    void namesTheFieldAndTheFirstRefusedFlag() {
        assertThatThrownBy(() -> JvmFlagAllowList.requireAllowed("withJvmArgs",
                List.of("-Xmx1g", "-XX:OnError=id", "-javaagent:x")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("withJvmArgs: the JVM flag '-XX:OnError=id' is not allowed");
    }

    /** A control or hidden character in a refused flag was '?', which said neither which it was nor that it was one. */
    @Test
    void aRefusedFlagIsQuotedWithItsHiddenCharactersEscaped() {
        assertThat(JvmFlagAllowList.refusal("-Xmx1g\u001b[31m\u202e\n?")).startsWith(
                "the JVM flag '-Xmx1g\\u001B[31m\\u202E\\u000A?' is not allowed;");
        assertThat(JvmFlagAllowList.refusal("-D" + "x".repeat(77) + "😀")).startsWith(
                "the JVM flag '-D" + "x".repeat(77) + "…' is not allowed;");
        assertThat(JvmFlagAllowList.refusal("-D👩\u200D💻")).startsWith("the JVM flag '-D👩\u200D💻' is not");
        // as they were: a log viewer broke the message in two there
        assertThat(JvmFlagAllowList.refusal("-Dx=\u2028y\u2029")).startsWith(
                "the JVM flag '-Dx=\\u2028y\\u2029' is not allowed;");
    }

    /** A host of 16 GiB: 4 GiB per trial JVM. */
    private static final JvmFlagAllowList.Bounds HOST = JvmFlagAllowList.Bounds.quarterOf(16L << 30);

    @Test
    void flagsWithinTheHostsBoundsAskNothingMore() {
        assertThat(JvmFlagAllowList.excess(ExperimentPlan.DEFAULT_JVM_ARGS, HOST)).isEmpty();
        assertThat(JvmFlagAllowList.excess(List.of("-Xms4g", "-Xmx4g", "-XX:+AlwaysPreTouch", "-Xmn3g"), HOST))
                .as("the heap's flags count once, by the largest").isEmpty();
        assertThat(JvmFlagAllowList.excess(List.of("-Xmx3g", "-XX:MaxDirectMemorySize=512m",
                "-XX:ReservedCodeCacheSize=256m", "-XX:MaxMetaspaceSize=256m"), HOST)).isEmpty();
        assertThat(JvmFlagAllowList.excess(List.of("-XX:MaxRAMPercentage=25", "-XX:ParallelGCThreads=256",
                "-XX:ActiveProcessorCount=256", "-Xss1g", "-XX:+UseG1GC"), HOST)).isEmpty();
        assertThat(JvmFlagAllowList.excess(List.of(), HOST)).isEmpty();
    }

    @Test
    void namesTheFlagThatAsksMoreMemoryThanTheHostGivesATrialJvm() {
        assertThat(JvmFlagAllowList.excess(List.of("-Xmx1g", "-Xms5g", "-XX:+AlwaysPreTouch"), HOST))
                .hasValue("the JVM flag '-Xms5g' asks for 5 GiB of memory; a trial JVM's heap, direct memory, code "
                        + "cache and metaspace may take at most 4 GiB together on this server "
                        + "(perflab.trials.max-jvm-memory; by default a quarter of the host's 16 GiB)");
        assertThat(JvmFlagAllowList.excess(List.of("-Xmx3g", "-XX:MaxDirectMemorySize=1536m"), HOST))
                .hasValueSatisfying(why -> assertThat(why).startsWith(
                        "the JVM flags '-Xmx3g', '-XX:MaxDirectMemorySize=1536m' ask for 4.5 GiB of memory;"));
        assertThat(JvmFlagAllowList.excess(List.of("-XX:InitialRAMPercentage=50"), HOST))
                .hasValueSatisfying(why -> assertThat(why).contains("asks for 8 GiB"));
        assertThat(JvmFlagAllowList.excess(List.of("-XX:MaxHeapSize=4294967297"), HOST)).isPresent();
        assertThat(JvmFlagAllowList.excess(List.of("-XX:MaxHeapSize=4294967296"), HOST)).isEmpty();
    }

    @Test
    void sizesTooLargeForALongAreRefusedNotOverflowed() {
        for (String flag : List.of("-Xmx999999999999T", "-XX:MaxDirectMemorySize=999999999999t",
                "-XX:MaxRAMPercentage=999999")) {
            assertThat(JvmFlagAllowList.allows(flag)).as(flag).isTrue();
            assertThat(JvmFlagAllowList.excess(List.of("-Xmx1g", flag), HOST)).as(flag).isPresent();
        }
        assertThat(JvmFlagAllowList.excess(List.of("-Xmx999999999999T", "-XX:MaxDirectMemorySize=999999999999T",
                "-XX:ReservedCodeCacheSize=999999999999T"), HOST)).hasValueSatisfying(why ->
                assertThat(why).contains("ask for 8 EiB"));
    }

    @Test
    void refusesAFlagForMoreThreadsThanATrialJvmMayHave() {
        assertThat(JvmFlagAllowList.excess(List.of("-XX:CICompilerCount=2", "-XX:ParallelGCThreads=257"), HOST))
                .hasValue("the JVM flag '-XX:ParallelGCThreads=257' asks for more than 256 threads or processors, the "
                        + "most a trial JVM may have");
        assertThat(JvmFlagAllowList.excess(List.of("-XX:ActiveProcessorCount=999999"), HOST)).isPresent();
    }

    /** The JVM takes the last of a flag given twice, in whichever spelling: the one left is where it stood. */
    @Test
    void aFlagGivenAgainReplacesTheEarlierOneAsTheJvmTakesIt() {
        assertThat(JvmMemoryFlags.asTheJvmTakes(List.of("-Xms512m", "-Xmx512m", "-XX:+AlwaysPreTouch", "-Xmx2g",
                "-XX:-AlwaysPreTouch", "-XX:MaxDirectMemorySize=1g")))
                .containsExactly("-Xms512m", "-Xmx2g", "-XX:-AlwaysPreTouch", "-XX:MaxDirectMemorySize=1g");
        assertThat(JvmMemoryFlags.asTheJvmTakes(List.of("-Xmx6g", "-Xms6g", "-XX:MaxHeapSize=1g",
                "-XX:InitialHeapSize=1g", "-Xss1m", "-XX:ThreadStackSize=2048", "-Dio.netty.a=1", "-Dio.netty.a=2")))
                .containsExactly("-XX:MaxHeapSize=1g", "-XX:InitialHeapSize=1g", "-XX:ThreadStackSize=2048",
                        "-Dio.netty.a=2");
        // -Xmn sets the young generation, not the heap: it replaces neither -Xms nor -Xmx
        assertThat(JvmMemoryFlags.asTheJvmTakes(List.of("-Xmn1g", "-Xms2g", "-Xmx3g", "-Xmn512m")))
                .containsExactly("-Xms2g", "-Xmx3g", "-Xmn512m");
        // a request's repeated -Xmx asks what the JVM takes, the last
        assertThat(JvmFlagAllowList.excess(List.of("-Xmx8g", "-Xmx1g"), HOST)).isEmpty();
        assertThat(JvmMemoryFlags.sizesMemory("-XX:MaxRAMPercentage=25")).isTrue();
        assertThat(JvmMemoryFlags.sizesMemory("-XX:+UseSerialGC")).isFalse();
        assertThat(JvmMemoryFlags.sizesMemory("-Xss1m")).isFalse();
    }

    /**
     * With fixed {@code -Xmx6g} and a bound of 6 GiB, a request's {@code -XX:MaxDirectMemorySize=5g} was within the
     * bound alone, and the JVM got both: 11 GiB. A request's {@code -Xmx} replaces the fixed one instead.
     */
    @Test
    void aRequestsSizesAreCountedWithTheFixedFlagsAsTheJvmTakesThem() {
        JvmFlagAllowList.Bounds sixGib = new JvmFlagAllowList.Bounds(64L << 30, 6L << 30, 256);
        List<String> fixed = List.of("-Xmx6g", "-XX:+UseSerialGC", "-Dcompany.secret=hunter2");
        String from = "on this server (perflab.trials.jvm-args)";

        assertThat(JvmFlagAllowList.excess(List.of("-XX:MaxDirectMemorySize=5g"), sixGib)).isEmpty();
        assertThat(JvmFlagAllowList.excess(fixed, from, List.of("-XX:MaxDirectMemorySize=5g"), sixGib))
                .hasValue("the JVM flags '-Xmx6g' (fixed), '-XX:MaxDirectMemorySize=5g' ask for 11 GiB of memory; a "
                        + "trial JVM's heap, direct memory, code cache and metaspace may take at most 6 GiB together "
                        + "on this server (perflab.trials.max-jvm-memory; by default a quarter of the host's 64 GiB); "
                        + "the fixed flags every trial JVM starts with on this server (perflab.trials.jvm-args) are "
                        + "counted too: -Xmx6g (a flag given again replaces its fixed one, as -Xmx does; other sizes "
                        + "add to them)");
        assertThat(JvmFlagAllowList.excess(fixed, from, List.of("-Xmx1g", "-XX:MaxDirectMemorySize=5g"), sixGib))
                .isEmpty();
        assertThat(JvmFlagAllowList.excess(fixed, from, List.of("-XX:MaxHeapSize=1g", "-XX:MaxDirectMemorySize=5g"),
                sixGib)).isEmpty();
        // a request's own flag that the fixed ones repeat is the request's, not marked as fixed
        assertThat(JvmFlagAllowList.excess(fixed, from, List.of("-Xmx6g", "-XX:MaxDirectMemorySize=1g"), sixGib))
                .hasValueSatisfying(why -> assertThat(why).startsWith("the JVM flags '-Xmx6g', "
                        + "'-XX:MaxDirectMemorySize=1g' ask for 7 GiB"));
        // fixed flags that size nothing are not named; the request's threads are still bounded
        assertThat(JvmFlagAllowList.excess(List.of("-XX:+UseSerialGC"), from, List.of("-Xmx7g"), sixGib))
                .hasValueSatisfying(why -> assertThat(why).doesNotContain("fixed"));
        assertThat(JvmFlagAllowList.excess(fixed, from, List.of("-XX:ParallelGCThreads=999"), sixGib)).isPresent();
    }

    @Test
    void describesSizesInBinaryUnits() {
        assertThat(JvmFlagAllowList.describe(512)).isEqualTo("512 bytes");
        assertThat(JvmFlagAllowList.describe(1536L << 20)).isEqualTo("1.5 GiB");
        assertThat(JvmFlagAllowList.describe(24L << 30)).isEqualTo("24 GiB");
        assertThatThrownBy(() -> new JvmFlagAllowList.Bounds(0, 1, 1)).isInstanceOf(IllegalArgumentException.class);
    }
}
