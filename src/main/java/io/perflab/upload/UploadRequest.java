package io.perflab.upload;

import java.util.List;

/**
 * One upload as the API received it.
 *
 * @param contents the body; or two files, {@code without} then {@code with}
 * @param parts the names of the multipart body's files {@code contents} are ({@code file}, or {@code without} and
 *     {@code with}); empty for the request body
 * @param format the {@code ?format=}, or null to detect it
 * @param variant the side of a one-sided output ({@code with}, {@code without} or a label)
 * @param git git fields from the request's parameters (they take precedence over the content's)
 * @param idempotencyKey the {@code Idempotency-Key} header, or null
 * @param principal who uploads (a token's or a user's name)
 * @param principalToken the stored API token that uploads, or null (a user, the bootstrap token)
 * @param baseUrl the server's address, for the experiment page link
 */
record UploadRequest(List<String> contents, List<String> parts, UploadFormat format, String benchmark, String name,
                     String variant, GitInfo git, String idempotencyKey, String principal, Long principalToken,
                     String baseUrl) {

    /**
     * Whose {@code Idempotency-Key}s this upload's key is told among: a stored API token's own, by its id
     * ({@code token#ID}), not its name, which a revoked token frees for a new token that must not replay or be
     * refused by the old one's keys; else the user's (or the bootstrap token's) name.
     */
    String idempotencyScope() {
        return principalToken != null ? "token#" + principalToken : principal;
    }
}
