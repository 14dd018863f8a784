package io.perflab.security;

import io.perflab.system.ApiValues;
import io.perflab.system.FieldMessages;
import io.perflab.system.InvalidInputException;
import io.perflab.system.PrintableText;
import io.swagger.v3.oas.annotations.media.Schema;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.text.Normalizer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.support.GeneratedKeyHolder;
import org.springframework.stereotype.Repository;

/**
 * API tokens in table {@code api_token}. A token is {@code plt_} followed by 32 random bytes (base64url); only
 * its SHA-256 is stored. A fast hash is right here: the secret has 256 bits of entropy, so there is nothing to
 * guess, and a slow password hash would only slow every API request.
 */
@Repository
public class ApiTokens {

    static final String PREFIX = "plt_";

    /** Last-used times are written at most this often per token, so busy CI does not write on every request. */
    static final Duration LAST_USED_RESOLUTION = Duration.ofMinutes(1);

    /** A stored token, without its secret. */
    public record ApiToken(long id, String name, String prefix, @ApiValues(TokenRole.class) String role,
                           String createdBy, Instant createdAt,
                           @Schema(nullable = true) Instant lastUsedAt, @Schema(nullable = true) Instant revokedAt,
                           @Schema(nullable = true) String revokedBy) {

        public boolean revoked() {
            return revokedAt != null;
        }

        /** What a request with this token is told once it is revoked (401). */
        String refusal() {
            return "The bearer token '" + name + "' (" + prefix + "…) was revoked at " + revokedAt
                    + "; create a new token under Settings → API tokens.";
        }
    }

    /** A token just created: the secret, shown this once. */
    public record CreatedToken(ApiToken token, String secret) {
    }

    private final JdbcClient jdbc;
    private final Clock clock;
    private final SecureRandom random = new SecureRandom();

    public ApiTokens(JdbcClient jdbc, Clock clock) {
        this.jdbc = jdbc;
        this.clock = clock;
    }

    /** The roles a token may have, as stored and as the API writes them. */
    public enum TokenRole {
        /** Uploads and writes. */
        USER,
        /** Acts as a benchmark agent under {@code /api/v1/agents}, nothing else. */
        AGENT
    }

    /** Roles a token may have, by name: USER tokens upload and write; AGENT tokens only act as agents. */
    public static final java.util.Set<String> ROLES = java.util.Arrays.stream(TokenRole.values()).map(Enum::name)
            .collect(java.util.stream.Collectors.toUnmodifiableSet());

    /**
     * What is wrong with {@code role} as a new token's role, or null: one of {@link #ROLES} in any case, or none
     * (USER). Said without the field's name, which the API and the command line ({@code --role}) each give.
     */
    public static String roleProblem(String role) {
        String chosen = role == null ? "USER" : role.strip().toUpperCase(java.util.Locale.ROOT);
        return ROLES.contains(chosen) ? null : "'" + PrintableText.Validator.quoted(role) + "' is not a token role; "
                + "use 'user' (uploads and writes) or 'agent' (a benchmark agent)";
    }

    /** What is wrong with {@code name} as a new token's name, or null; said without the field's name. */
    public static String nameProblem(String name) {
        if (name == null || name.isBlank() || name.length() > 100) {
            return "a token needs a name of 1 to 100 characters (what it is for, e.g. 'github-actions').";
        }
        if (PrintableText.Validator.firstProblem(name, false) >= 0) {
            return FieldMessages.violation("must be printable text without control characters", name);
        }
        return null;
    }

    /** Creates a token of role USER. */
    public CreatedToken create(String name, String createdBy) {
        return create(name, "USER", createdBy);
    }

    /**
     * Creates a token of {@code role}: {@code USER} (uploads and writes) or {@code AGENT} (registers, polls and posts
     * trials as a benchmark agent under {@code /api/v1/agents}, nothing else).
     */
    public CreatedToken create(String name, String role, String createdBy) {
        String roleProblem = roleProblem(role);
        if (roleProblem != null) {
            throw InvalidInputException.of("role", roleProblem);
        }
        String chosen = role == null ? "USER" : role.strip().toUpperCase(java.util.Locale.ROOT);
        String nameProblem = nameProblem(name);
        if (nameProblem != null) {
            throw InvalidInputException.of("name", nameProblem);
        }
        // what a token does is shown under its name (token:NAME: experiments, uploads, agents it registered), and an
        // upload's Idempotency-Key is kept under it, so two live tokens of one name would be one to people and replay
        // each other's uploads (what a token controls is told by its id): the name is looked for first (tokens of
        // before V18 may share one), and the unique live_name refuses a second live token created at the same moment;
        // a name is stored composed (NFC), so that 'café' typed as e + U+0301 is the same name as 'café' typed as é
        String stripped = Normalizer.normalize(name.strip(), Normalizer.Form.NFC);
        if (jdbc.sql("SELECT COUNT(*) FROM api_token WHERE name = ? AND revoked_at IS NULL").param(stripped)
                .query(Long.class).single() > 0) {
            throw nameTaken(stripped);
        }
        byte[] bytes = new byte[32];
        random.nextBytes(bytes);
        String secret = PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
        GeneratedKeyHolder keys = new GeneratedKeyHolder();
        try {
            jdbc.sql("""
                    INSERT INTO api_token (name, live_name, token_hash, token_prefix, role, created_by, created_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?)""")
                    .params(stripped, stripped, hash(secret), secret.substring(0, 10), chosen, createdBy,
                            timestamp(clock.instant()))
                    .update(keys, "id");
        } catch (DuplicateKeyException raced) {
            throw nameTaken(stripped);
        }
        return new CreatedToken(find(keys.getKey().longValue()).orElseThrow(), secret);
    }

    private static InvalidInputException nameTaken(String name) {
        return InvalidInputException.of("name", "a token named '" + name + "' exists; revoke it first or choose "
                + "another name");
    }

    /** Page {@code page} (from 0) of {@code size} of the tokens, newest first. */
    public List<ApiToken> list(int page, int size) {
        return jdbc.sql(SELECT + " ORDER BY id DESC OFFSET ? ROWS FETCH NEXT ? ROWS ONLY")
                .params((long) page * size, size).query(ApiTokens::token).list();
    }

    public long count() {
        return jdbc.sql("SELECT COUNT(*) FROM api_token").query(Long.class).single();
    }

    public Optional<ApiToken> find(long id) {
        return jdbc.sql(SELECT + " WHERE id = ?").param(id).query(ApiTokens::token).optional();
    }

    /** Revokes a token; false when there is none with that id. Revoking twice keeps the first time. */
    public boolean revoke(long id, String by) {
        jdbc.sql("UPDATE api_token SET revoked_at = ?, revoked_by = ?, live_name = NULL WHERE id = ? "
                + "AND revoked_at IS NULL")
                .params(timestamp(clock.instant()), by, id).update();
        return find(id).isPresent();
    }

    /**
     * Why token {@code id} no longer authenticates (it was revoked), or empty while it does. The row is locked until
     * the caller's transaction ends, so that a revocation comes wholly before what the caller does on the strength of
     * the token (and it is refused) or after it: a request checked when it came in may act after its token was
     * revoked (a long poll, a post in flight), and checks again here as it acts.
     */
    public Optional<String> refusal(long id) {
        Optional<ApiToken> token = jdbc.sql(SELECT + " WHERE id = ? FOR UPDATE").param(id).query(ApiTokens::token)
                .optional();
        if (token.isEmpty()) {
            return Optional.of("The bearer token (id " + id + ") is unknown to this server. Create a token under "
                    + "Settings → API tokens.");
        }
        return token.filter(ApiToken::revoked).map(ApiToken::refusal);
    }

    /** The token whose secret is {@code secret}, recording the use; empty if none. */
    Optional<ApiToken> use(String secret) {
        Optional<ApiToken> token = jdbc.sql(SELECT + " WHERE token_hash = ?").param(hash(secret))
                .query(ApiTokens::token).optional();
        token.filter(t -> !t.revoked()).ifPresent(t -> {
            Instant now = clock.instant();
            if (t.lastUsedAt() == null || t.lastUsedAt().isBefore(now.minus(LAST_USED_RESOLUTION))) {
                jdbc.sql("UPDATE api_token SET last_used_at = ? WHERE id = ?").params(timestamp(now), t.id()).update();
            }
        });
        return token;
    }

    private static final String SELECT = "SELECT id, name, token_prefix, role, created_by, created_at, last_used_at, "
            + "revoked_at, revoked_by FROM api_token";

    private static ApiToken token(ResultSet rs, int row) throws SQLException {
        return new ApiToken(rs.getLong("id"), rs.getString("name"), rs.getString("token_prefix"), rs.getString("role"),
                rs.getString("created_by"), instant(rs, "created_at"), instant(rs, "last_used_at"),
                instant(rs, "revoked_at"), rs.getString("revoked_by"));
    }

    static String hash(String secret) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(secret.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    private static Instant instant(ResultSet rs, String column) throws SQLException {
        OffsetDateTime value = rs.getObject(column, OffsetDateTime.class);
        return value == null ? null : value.toInstant();
    }

    private static OffsetDateTime timestamp(Instant instant) {
        return instant.atOffset(ZoneOffset.UTC);
    }
}
