package io.perflab.security;

import io.perflab.system.ApiProblem;
import io.perflab.system.ApiValues;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.ExampleObject;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import java.net.URI;
import java.security.Principal;
import io.perflab.system.ApiPage;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.support.ServletUriComponentsBuilder;

/** {@code /api/v1/tokens}: create (the secret is in this response only), list and revoke API tokens; admins only. */
@RestController
// an Accept that takes no JSON is refused (406) before the handler runs, so before any write
@RequestMapping(path = "/api/v1/tokens", produces = MediaType.APPLICATION_JSON_VALUE)
class TokenApiController {

    /**
     * Body of a create request.
     *
     * @param name what the token is for
     * @param role {@code user} (default: uploads and writes) or {@code agent} (a benchmark agent, nothing else)
     */
    record CreateToken(@Schema(requiredMode = Schema.RequiredMode.REQUIRED) String name, String role) {
    }

    /** A created token with its secret. */
    record Created(long id, String name, String token, @ApiValues(ApiTokens.TokenRole.class) String role,
                   String createdBy, java.time.Instant createdAt) {
    }

    private final ApiTokens tokens;

    TokenApiController(ApiTokens tokens) {
        this.tokens = tokens;
    }

    @Operation(summary = "Create an API token (admin); the answer holds its secret, shown this once")
    @ApiResponse(responseCode = "201", description = "created; Location is the token's URL")
    @PostMapping
    ResponseEntity<Created> create(@io.swagger.v3.oas.annotations.parameters.RequestBody(content = @Content(
            examples = {@ExampleObject(name = "user", value = "{\"name\": \"github-actions\"}"),
                @ExampleObject(name = "agent", value = "{\"name\": \"bench-x86-1\", \"role\": \"agent\"}")}))
            @RequestBody CreateToken request, Principal principal) {
        ApiTokens.CreatedToken created = tokens.create(request == null ? null : request.name(),
                request == null ? null : request.role(), principal.getName());
        ApiTokens.ApiToken t = created.token();
        URI location = ServletUriComponentsBuilder.fromCurrentRequest().path("/{id}").build(t.id());
        return ResponseEntity.status(HttpStatus.CREATED).location(location)
                .body(new Created(t.id(), t.name(), created.secret(), t.role(), t.createdBy(), t.createdAt()));
    }

    @Operation(summary = "List the API tokens, revoked ones too (admin)")
    @GetMapping
    ApiPage<ApiTokens.ApiToken> list(@RequestParam(defaultValue = "0") int page,
                                     @RequestParam(defaultValue = "50") int size) {
        ApiPage.check(page, size);
        return new ApiPage<>(tokens.list(page, size), page, size, tokens.count());
    }

    @Operation(summary = "One API token, without its secret (admin)")
    @GetMapping("/{id}")
    ApiTokens.ApiToken get(@PathVariable long id) {
        return tokens.find(id).orElseThrow(() -> ApiProblem.notFound("There is no API token with id " + id + "."));
    }

    /** Revokes; the token row stays, so lists show who revoked it and when. */
    @Operation(summary = "Revoke an API token (admin); it stays listed as revoked")
    @DeleteMapping("/{id}")
    ApiTokens.ApiToken revoke(@PathVariable long id, Principal principal) {
        if (!tokens.revoke(id, principal.getName())) {
            throw ApiProblem.notFound("There is no API token with id " + id + ".");
        }
        return get(id);
    }

    @Operation(summary = "Revoke an API token (admin), as DELETE does, for clients that only POST")
    @PostMapping("/{id}/revoke")
    ApiTokens.ApiToken revokeByPost(@PathVariable long id, Principal principal) {
        return revoke(id, principal);
    }
}
