package io.perflab.experiment;

import io.perflab.system.NotAllowedException;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * Command experiments run arbitrary shell commands on the server, so they are off unless
 * {@code perflab.commands.enabled=true}, and then only for administrators.
 */
@Component
public class CommandExperimentsPolicy {

    private final boolean enabled;

    public CommandExperimentsPolicy(@Value("${perflab.commands.enabled:false}") boolean enabled) {
        this.enabled = enabled;
    }

    public boolean enabled() {
        return enabled;
    }

    /** Throws 403 with the reason unless the caller may run a command experiment. */
    void check(boolean admin) {
        if (!enabled) {
            throw new NotAllowedException("kind: command experiments are disabled on this server; an operator can "
                    + "enable them with perflab.commands.enabled=true");
        }
        if (!admin) {
            throw new NotAllowedException("kind: command experiments need an administrator");
        }
    }
}
