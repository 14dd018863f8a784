package io.perflab.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import io.perflab.upload.UploadServer;
import java.net.http.HttpResponse;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * No JVM flag that can run or load code reaches a trial's command line from a request: not from a USER token, not
 * from an administrator while {@code perflab.trials.raw-jvm-flags} is off (the default). That flags on the
 * allow-list still reach the trial JVM is shown end to end by {@code ExperimentApiTests}' preset experiment.
 */
class JvmFlagRuleTests extends UploadServer {

    private static Map<String, Object> experiment(String name, String field, List<String> flags) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("name", name);
        body.put("preset", "sync-completion");
        body.put("runsPerVariant", 2);
        body.put("workload", Map.of("warmupSeconds", 0.3, "runSeconds", 0.5, "clientThreads", 2));
        body.put(field, flags);
        return body;
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "-XX:OnOutOfMemoryError=touch /tmp/perflab-pwned",
        "-XX:OnError=touch /tmp/perflab-pwned",
        "-XX:+UnlockDiagnosticVMOptions",
        "-XX:CompileCommand=option,*.*,PrintAssembly",
        "-agentpath:/tmp/libevil.so",
        "-agentlib:jdwp=transport=dt_socket,server=y",
        "-javaagent:/tmp/evil.jar",
        "@/tmp/argfile",
        "-Djava.library.path=/tmp",
        "-XX:Flags=/tmp/.hotspotrc",
        "-XX:VMOptionsFile=/tmp/options",
        "-XX:+UnlockExperimentalVMOptions",
        "--add-opens=java.base/java.lang=ALL-UNNAMED",
        "-Dlogback.configurationFile=http://evil/x.xml",
        "-Xmx1g -XX:OnError=id",
        "-XX:+UseG1GC\n-XX:OnError=id"})
    void refusesFlagsThatCanRunCodeForUsersAndForAdministrators(String flag) throws Exception {
        String userToken = newToken("flags-user");
        Map<String, Long> before = rowCounts();
        // relative: the context is shared, and ExperimentPagesTests stores such a flag directly, as stored before
        long storedBefore = variantsWithCodeRunningFlags();
        for (String token : List.of(userToken, ADMIN_TOKEN)) {
            for (String field : List.of("withJvmArgs", "withoutJvmArgs")) {
                HttpResponse<String> response = post("/api/v1/experiments", token, "application/json",
                        json.writeValueAsString(experiment("flags", field, List.of("-Xbatch", flag))));
                assertThat(response.statusCode()).as(field + " " + flag).isEqualTo(400);
                assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                        type -> assertThat(type).startsWith("application/problem+json"));
                String detail = read(response.body()).get("detail").asString();
                assertThat(detail).contains(field).contains("is not allowed");
            }
        }
        assertThat(rowCounts()).isEqualTo(before);
        assertThat(variantsWithCodeRunningFlags()).isEqualTo(storedBefore);
    }

    /**
     * Flags on the list that ask more of the host than it can give are refused as well, for everyone, with what
     * they asked and the bound: {@code -Xms100g} with the default's {@code -XX:+AlwaysPreTouch} would commit a hundred
     * gigabytes.
     */
    @ParameterizedTest
    @ValueSource(strings = {"-Xms100g", "-XX:MaxHeapSize=999999999999T", "-XX:InitialRAMPercentage=90",
        "-XX:MaxDirectMemorySize=64t", "-XX:ParallelGCThreads=100000"})
    void refusesFlagsThatAskMoreOfTheHostThanItHas(String flag) throws Exception {
        String userToken = newToken("flags-bounds-user");
        Map<String, Long> before = rowCounts();
        for (String token : List.of(userToken, ADMIN_TOKEN)) {
            HttpResponse<String> response = post("/api/v1/experiments", token, "application/json",
                    json.writeValueAsString(experiment("flags", "withJvmArgs", List.of("-Xbatch", flag))));
            assertThat(response.statusCode()).as(flag).isEqualTo(400);
            String detail = read(response.body()).get("detail").asString();
            assertThat(detail).as(flag).contains("withJvmArgs").contains("'" + flag + "'")
                    .containsAnyOf("of memory; a trial JVM's heap", "threads or processors");
        }
        assertThat(rowCounts()).isEqualTo(before);
    }

    private long variantsWithCodeRunningFlags() {
        return jdbc.sql("SELECT COUNT(*) FROM variant WHERE jvm_args LIKE '%On%Error%' "
                + "OR jvm_args LIKE '%agent%' OR jvm_args LIKE '%@%'").query(Long.class).single();
    }
}
