package io.perflab.cli;

import io.perflab.agent.AgentClient;
import java.io.Console;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.function.Function;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClient;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code --server} and credentials of the commands that talk to a running PerfLab, and the HTTP client they use:
 * Spring's {@link RestClient} on the JDK's client, built without a Spring context.
 */
final class ServerOptions {

    /** Exit status when the server could not be reached or refused the request. */
    static final int EXIT_SERVER_ERROR = 3;

    static final JsonMapper JSON = JsonMapper.builder().build();

    @Option(names = "--server", required = true, paramLabel = "URL", converter = HttpUrl.class,
            description = "PerfLab server, e.g. http://perflab.example.com:8080")
    String server;

    /** An http:// or https:// URL with a host; anything else is a usage error naming the flag. */
    static final class HttpUrl implements ITypeConverter<String> {
        @Override
        public String convert(String text) {
            return PerfLabCommand.converted(() -> {
                try {
                    URI uri = new URI(text.strip());
                    if (("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) && uri.getHost() != null) {
                        return text.strip();
                    }
                } catch (URISyntaxException e) {
                    // said below
                }
                throw new IllegalArgumentException("'" + text + "' is not an http:// or https:// URL with a host, "
                        + "e.g. http://perflab.example.com:8080");
            });
        }
    }

    @Option(names = "--token", paramLabel = "TOKEN", defaultValue = "${env:PERFLAB_TOKEN}",
            description = "API token (Authorization: Bearer); default: $PERFLAB_TOKEN")
    String token;

    @Option(names = "--user", paramLabel = "NAME", description = "sign in as this user (basic auth) instead of a token")
    String user;

    @Option(names = "--password", paramLabel = "PASSWORD", defaultValue = "${env:PERFLAB_PASSWORD}",
            description = "password of --user; default: $PERFLAB_PASSWORD, else asked for at the terminal")
    String password;

    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    /** What the server answered: its status and body, whatever the status. */
    record Answer(int status, String body) {

        JsonNode json() {
            return JSON.readTree(body);
        }

        /** The problem detail of an error answer, or its body. */
        String detail() {
            try {
                JsonNode problem = json();
                if (problem.has("detail")) {
                    return problem.get("detail").asString();
                }
            } catch (RuntimeException e) {
                // not JSON: show the body as it is
            }
            return body;
        }
    }

    /** A client of the server with the credentials and JSON answers. */
    RestClient client() {
        JdkClientHttpRequestFactory requests = new JdkClientHttpRequestFactory(HttpClient.newBuilder()
                .connectTimeout(Duration.ofSeconds(10)).build());
        requests.setReadTimeout(Duration.ofMinutes(2));
        RestClient.Builder client = RestClient.builder().baseUrl(server).requestFactory(requests)
                .defaultHeader(HttpHeaders.ACCEPT, MediaType.APPLICATION_JSON_VALUE);
        if (user != null) {
            String credentials = user + ":" + password();
            client.defaultHeader(HttpHeaders.AUTHORIZATION, "Basic "
                    + Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8)));
        } else if (token != null && !token.isBlank()) {
            client.defaultHeader(HttpHeaders.AUTHORIZATION, "Bearer " + token.strip());
        }
        return client.build();
    }

    /**
     * The password of {@code --user}: {@code --password} or {@code $PERFLAB_PASSWORD}, else read from the terminal
     * without echo. With neither and no terminal (a CI job) it is a usage error: an empty password would be sent,
     * refused, and counted as a failed sign-in against the account.
     */
    private String password() {
        if (password != null) {
            return password;
        }
        Console console = System.console();
        char[] typed = console == null ? null : console.readPassword("Password of %s: ", user);
        if (typed == null) {
            throw new ParameterException(command.commandLine(), "--user " + user + " needs a password: give "
                    + "--password or set PERFLAB_PASSWORD (there is no terminal to ask at)");
        }
        return new String(typed);
    }

    /**
     * Sends a request built on {@link #client()} and reads the answer, whatever its status.
     *
     * @throws IOException when the server cannot be reached
     */
    Answer send(Function<RestClient, RestClient.RequestHeadersSpec<?>> request) throws IOException {
        try {
            return request.apply(client()).exchange((sent, response) -> new Answer(response.getStatusCode().value(),
                    new String(response.getBody().readAllBytes(), StandardCharsets.UTF_8)));
        } catch (ResourceAccessException e) {
            throw e.getCause() instanceof IOException io ? new IOException(AgentClient.describe(io), io)
                    : new IOException(e.getMessage(), e);
        }
    }
}
