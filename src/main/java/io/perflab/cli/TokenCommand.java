package io.perflab.cli;

import io.perflab.security.ApiTokens;
import io.perflab.system.PrintableText;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.Callable;
import org.springframework.http.MediaType;
import org.springframework.web.client.RestClient;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.JsonNode;

/**
 * {@code perflab token create NAME} / {@code revoke ID}: manage API tokens of a running server, as an admin
 * ({@code --user admin --password …}) or with the bootstrap token ({@code --token}).
 */
@Command(name = "token", mixinStandardHelpOptions = true,
        description = "Create or revoke API tokens on a running PerfLab server (needs an admin login or the "
                + "bootstrap token).",
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {ExitCodes.DONE, ExitCodes.USAGE, ExitCodes.SERVER, ExitCodes.INTERNAL},
        subcommands = {TokenCommand.Create.class, TokenCommand.Revoke.class})
final class TokenCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** Without a subcommand there is nothing to do: a usage error (it printed the usage and exited 0). */
    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "token needs a subcommand: create NAME or "
                + "revoke ID");
    }

    /** Prints the new token's secret on the first line (for scripts), then its id. */
    @Command(name = "create", mixinStandardHelpOptions = true, description = "Create a token; prints it once.",
            exitCodeListHeading = ExitCodes.HEADING,
            exitCodeList = {ExitCodes.DONE, ExitCodes.USAGE, ExitCodes.SERVER, ExitCodes.INTERNAL})
    static final class Create implements Callable<Integer> {

        @Mixin
        ServerOptions server;

        @Parameters(paramLabel = "NAME", description = "what the token is for, e.g. github-actions")
        String name;

        @picocli.CommandLine.Option(names = "--role", paramLabel = "ROLE", defaultValue = "user",
                description = "user (uploads and writes; default) or agent (a benchmark host's perflab agent)")
        String role;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            // the server's rules, checked before sending: its answer named the API's fields (role: …) and exited 3
            String nameProblem = ApiTokens.nameProblem(name);
            if (nameProblem != null) {
                throw new CommandLine.ParameterException(spec.commandLine(), "NAME: " + nameProblem);
            }
            String roleProblem = ApiTokens.roleProblem(role);
            if (roleProblem != null) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--role: " + roleProblem);
            }
            return exchange(server, client -> client.post().uri("/api/v1/tokens")
                    .contentType(MediaType.APPLICATION_JSON).body(Map.of("name", name, "role", role)), 201,
                    new String[] {"token", "id", "name"}, spec, created -> {
                spec.commandLine().getOut().println(PrintableText.Validator.shown(created.get("token").asString()));
                spec.commandLine().getOut().println("id " + created.get("id").asLong() + ", name '"
                        + PrintableText.Validator.shown(created.get("name").asString()) + "'; it is shown only now.");
            });
        }
    }

    @Command(name = "revoke", mixinStandardHelpOptions = true, description = "Revoke a token by its id.",
            exitCodeListHeading = ExitCodes.HEADING,
            exitCodeList = {ExitCodes.DONE, ExitCodes.USAGE, ExitCodes.SERVER, ExitCodes.INTERNAL})
    static final class Revoke implements Callable<Integer> {

        @Mixin
        ServerOptions server;

        @Parameters(paramLabel = "ID", description = "the token's id (see Settings → API tokens)")
        long id;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            if (id < 1) {
                throw new CommandLine.ParameterException(spec.commandLine(), "ID: a token's id is a whole number from "
                        + "1 (see Settings → API tokens), got " + id);
            }
            return exchange(server, client -> client.delete().uri("/api/v1/tokens/{id}", id), 200,
                    new String[] {"name"}, spec, revoked -> spec.commandLine().getOut().println("revoked token " + id
                            + " ('" + PrintableText.Validator.shown(revoked.get("name").asString()) + "')"));
        }
    }

    private static int exchange(ServerOptions server,
            java.util.function.Function<RestClient, RestClient.RequestHeadersSpec<?>> request, int expected,
            String[] fields, CommandLine.Model.CommandSpec spec, java.util.function.Consumer<JsonNode> onSuccess) {
        ServerOptions.Answer response;
        try {
            response = server.send(request);
        } catch (IOException e) {
            spec.commandLine().getErr().println("perflab token: cannot reach " + server.server + ": " + e.getMessage());
            return ServerOptions.EXIT_SERVER_ERROR;
        }
        if (response.status() != expected) {
            spec.commandLine().getErr().println("perflab token: the server answered " + response.status() + ": "
                    + response.detail() + ServerOptions.pathHint(server.server, response.status()));
            return ServerOptions.EXIT_SERVER_ERROR;
        }
        JsonNode answer;
        try {
            answer = response.expected(fields);
        } catch (ServerOptions.NotPerfLabsAnswer e) {
            spec.commandLine().getErr().println("perflab token: " + response.notPerfLabs(server.server, e));
            return ServerOptions.EXIT_SERVER_ERROR;
        }
        onSuccess.accept(answer);
        spec.commandLine().getOut().flush();
        return 0;
    }
}
