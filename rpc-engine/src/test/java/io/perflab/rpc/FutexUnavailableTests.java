package io.perflab.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A JVM started without the foreign linker's flags: {@code completion=futex} is refused with a message that names
 * them, before any connection, and every other completion still works there (nothing else touches the module).
 */
class FutexUnavailableTests {

    @Test
    void aJvmWithoutTheFlagsRefusesFutexAndSaysWhichFlagsItNeeds() throws Exception {
        String out = run(List.of());
        assertThat(out).contains("notification waited: true")
                .contains("refused: completion=futex cannot run in this JVM: the JVM was started without "
                        + "--add-modules=jdk.incubator.foreign --enable-native-access=ALL-UNNAMED");
    }

    @Test
    void theModuleWithoutNativeAccessIsRefusedToo() throws Exception {
        String out = run(List.of("--add-modules=jdk.incubator.foreign"));
        assertThat(out).contains("notification waited: true")
                .contains("refused: completion=futex cannot run in this JVM: native access is not enabled "
                        + "(--enable-native-access=ALL-UNNAMED)");
    }

    @Test
    void aJvmOnAnotherPlatformRefusesFutexNamingThePlatformItNeeds() throws Exception {
        List<String> flags = new java.util.ArrayList<>(FutexCompletion.JVM_FLAGS);
        flags.add("-Dos.name=Mac OS X");
        assertThat(run(flags)).contains("notification waited: true")
                .contains("refused: completion=futex cannot run in this JVM: futex(2) is called directly on Linux on "
                        + "amd64 or aarch64 only, this is Mac OS X on ");
    }

    @Test
    void withBothFlagsItRuns() throws Exception {
        assertThat(run(FutexCompletion.JVM_FLAGS)).contains("futex waited: true");
    }

    private static String run(List<String> flags) throws IOException, InterruptedException {
        List<String> command = new java.util.ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.addAll(flags);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), Probe.class.getName()));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(out).isZero();
        return out;
    }

    /** Runs in the child JVM. */
    static final class Probe {
        public static void main(String[] args) {
            Completion notification = Completion.create(EngineOptions.Completion.NOTIFICATION);
            notification.signal();
            System.out.println("notification waited: " + notification.awaitInterruptibly());
            EngineOptions futex = EngineOptions.builder().completion(EngineOptions.Completion.FUTEX).build();
            try (RpcClient client = RpcClient.create(futex)) {
                Completion c = Completion.create(EngineOptions.Completion.FUTEX);
                c.signal();
                System.out.println("futex waited: " + c.awaitInterruptibly());
            } catch (IllegalStateException e) {
                System.out.println("refused: " + e.getMessage());
            }
        }
    }
}
