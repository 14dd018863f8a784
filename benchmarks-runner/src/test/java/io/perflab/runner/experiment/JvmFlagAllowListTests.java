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
                "-Dperflab.countSyscalls=false"))
                .allSatisfy(flag -> assertThat(JvmFlagAllowList.allows(flag)).as(flag).isTrue());
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
}
