package io.perflab.cli;

import io.perflab.agent.AgentClient;
import io.perflab.system.PrintableText;
import io.perflab.system.Texts;
import java.io.Console;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClient;
import picocli.CommandLine;
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

    /**
     * An http:// or https:// URL with a host and, if any, a port from 1 to 65535, without credentials, a query or a
     * fragment (none of which a call would use); anything else is a usage error naming the flag.
     */
    static class HttpUrl implements ITypeConverter<String> {

        /** A port at the end of an authority, which {@link URI} may not have parsed (too many digits). */
        private static final Pattern PORT = Pattern.compile(":(\\d+)$");

        /** How this command signs in, for the message about credentials in the URL. */
        String signIn() {
            return "sign in with --user NAME (and --password or $PERFLAB_PASSWORD) or --token TOKEN";
        }

        @Override
        public String convert(String text) {
            return PerfLabCommand.converted(() -> {
                URI uri = null;
                try {
                    uri = new URI(text.strip());
                } catch (URISyntaxException e) {
                    // said below
                }
                if (uri == null || !("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))
                        || uri.getRawAuthority() == null) {
                    throw notAnHttpUrl(text);
                }
                Matcher port = PORT.matcher(uri.getRawAuthority());
                if (port.find() && (port.group(1).length() > 5 || Integer.parseInt(port.group(1)) < 1
                        || Integer.parseInt(port.group(1)) > 65535)) {
                    throw new IllegalArgumentException("port " + port.group(1) + " is out of range (1–65535)");
                }
                if (uri.getRawUserInfo() != null) {
                    throw new IllegalArgumentException("credentials in the URL are not used; give the URL without "
                            + "them and " + signIn());
                }
                if (uri.getHost() == null) {
                    throw notAnHttpUrl(text);
                }
                if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
                    // not shown: a query may hold a secret (?token=…), which a CI log would keep
                    throw new IllegalArgumentException("the URL has a " + (uri.getRawQuery() != null ? "query (?…)"
                            : "fragment (#…)") + ", which no call uses; give the server's URL alone, e.g. "
                            + "http://perflab.example.com:8080");
                }
                return text.strip();
            });
        }

        private static IllegalArgumentException notAnHttpUrl(String text) {
            return new IllegalArgumentException("'" + text + "' is not an http:// or https:// URL with a host, "
                    + "e.g. http://perflab.example.com:8080");
        }
    }

    /** The URL of {@code perflab agent}, which signs in with its token only. */
    static final class AgentUrl extends HttpUrl {
        @Override
        String signIn() {
            return "give the agent's token as --token";
        }
    }

    /**
     * What to say after an answer of {@code status} to a call below {@code server}: a server URL with a path is
     * called below that path (as a PerfLab behind a proxy at https://host/perflab is), so a PerfLab that is not
     * served there answers 403 (a POST outside its API) or 404, saying nothing of the path. Empty for other answers.
     */
    static String pathHint(String server, int status) {
        URI uri = URI.create(server);
        String path = uri.getRawPath() == null ? "" : uri.getRawPath();
        if ((status != 403 && status != 404) || path.isEmpty() || "/".equals(path)) {
            return "";
        }
        return " (--server has the path " + path + ", and PerfLab's API was called below it: if PerfLab is not "
                + "served there, give --server without the path, e.g. " + uri.getScheme() + "://"
                + uri.getRawAuthority() + ")";
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

    /** A successful answer that is not what PerfLab answers, said in a few words. */
    static final class NotPerfLabsAnswer extends Exception {
        NotPerfLabsAnswer(String what) {
            super(what);
        }
    }

    /** What the server answered: its status and body, whatever the status. */
    record Answer(int status, String body) {

        JsonNode json() {
            return JSON.readTree(body);
        }

        /**
         * The JSON object of a successful answer, holding each of {@code fields}.
         *
         * @throws NotPerfLabsAnswer when it is not (another service answers at {@code --server}): what it is instead
         */
        JsonNode expected(String... fields) throws NotPerfLabsAnswer {
            if (body.isBlank()) {
                throw new NotPerfLabsAnswer("an empty body");
            }
            JsonNode answer;
            try {
                answer = json();
            } catch (RuntimeException e) {
                throw new NotPerfLabsAnswer("no JSON but '" + PrintableText.Validator.shown(Texts.cut(
                        body.strip().replaceAll("\\s+", " "), 60)) + "'");
            }
            if (answer == null || !answer.isObject()) {
                throw new NotPerfLabsAnswer("JSON, but no object");
            }
            for (String field : fields) {
                if (!answer.hasNonNull(field)) {
                    throw new NotPerfLabsAnswer("a JSON object without '" + field + "'");
                }
            }
            return answer;
        }

        /** What the command says of an answer that is not PerfLab's, after the command's name. */
        String notPerfLabs(String server, NotPerfLabsAnswer e) {
            return server + " answered " + status + " with " + e.getMessage() + ", which is no answer of PerfLab's: is "
                    + "--server the URL of a PerfLab service?";
        }

        /** The problem detail of an error answer, or its body, as {@link AgentClient#detail} shows it. */
        String detail() {
            return AgentClient.detail(body);
        }
    }

    /**
     * Refuses credentials that would be ignored or sent empty: {@code --user} with {@code --token} (the user was
     * taken), {@code --password} without {@code --user} (the call went out without credentials), neither a user nor
     * a token. A token from {@code $PERFLAB_TOKEN} and a password from {@code $PERFLAB_PASSWORD} are defaults, which
     * the other way of signing in overrides.
     */
    void checkCredentials() {
        CommandLine.ParseResult parsed = command.commandLine().getParseResult();
        if (user != null && parsed.hasMatchedOption("--token")) {
            throw new ParameterException(command.commandLine(), "--user and --token are two ways to sign in; give "
                    + "one: --user NAME (with --password or $PERFLAB_PASSWORD) or --token TOKEN");
        }
        if (user == null && parsed.hasMatchedOption("--password")) {
            throw new ParameterException(command.commandLine(), "--password without --user: it is the password of "
                    + "--user NAME; give --user too, or sign in with --token");
        }
        if (user != null && user.isBlank()) {
            throw new ParameterException(command.commandLine(), "--user: give the name of a user");
        }
        if (user == null && (token == null || token.isBlank())) {
            throw new ParameterException(command.commandLine(), "no credentials: give --token TOKEN (or set "
                    + "PERFLAB_TOKEN) or --user NAME (with --password or $PERFLAB_PASSWORD)");
        }
        if (user == null && tokenProblem(token) != null) {
            throw new ParameterException(command.commandLine(), tokenProblem(token));
        }
    }

    /**
     * Why {@code token} cannot be sent, or null: a character that an HTTP header cannot carry (a line break of a pasted
     * token, another control character, one beyond Latin-1), which the HTTP client refused as an internal error that
     * showed the token. The message never shows it.
     */
    static String tokenProblem(String token) {
        if (token.strip().chars().allMatch(c -> c >= ' ' && c != 0x7F && c <= 0xFF)) {
            return null;
        }
        return "--token: the token given (by --token or $PERFLAB_TOKEN) holds a line break or another control "
                + "character, which an HTTP header cannot carry; PerfLab's tokens are printable ASCII (not shown "
                + "here: it is a secret)";
    }

    /** A client of the server with the credentials and JSON answers. */
    RestClient client() {
        checkCredentials();
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
