package io.perflab.system;

import org.springframework.boot.SpringBootExceptionReporter;
import org.springframework.core.Ordered;

/**
 * Keeps Spring from logging a {@link StartupFailure} as "Application run failed" with its stack trace (over a hundred
 * lines for a locked database): whoever started the service says it in one line (see
 * {@code PerfLabCommand.serve}). Any other failure is left to Spring's own failure analyzers and log. Registered in
 * {@code META-INF/spring.factories}, before Spring's analyzers.
 */
public final class StartupFailureReporter implements SpringBootExceptionReporter, Ordered {

    @Override
    public boolean reportException(Throwable failure) {
        return StartupFailure.of(failure).isPresent();
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }
}
