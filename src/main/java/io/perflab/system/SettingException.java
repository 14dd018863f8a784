package io.perflab.system;

/**
 * Settings of the service that cannot work together, found when it starts: the message names the settings, says
 * what is wrong and what to do, in the operator's terms ({@link StartupFailure} reports it in one line).
 */
public final class SettingException extends RuntimeException {

    public SettingException(String message) {
        super(message);
    }
}
