package io.perflab.agent;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * An answer's body as text, cut off with an {@link IOException} once it passes its limit, so that a service or
 * proxy that sends without end costs the agent no more memory than the limit; malformed UTF-8 is replaced.
 */
final class BoundedAnswer implements HttpResponse.BodySubscriber<String> {

    private final int maxBytes;
    private final CompletableFuture<String> body = new CompletableFuture<>();
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private Flow.Subscription subscription;

    BoundedAnswer(int maxBytes) {
        this.maxBytes = maxBytes;
    }

    @Override
    public CompletionStage<String> getBody() {
        return body;
    }

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
        this.subscription = subscription;
        subscription.request(Long.MAX_VALUE);
    }

    @Override
    public void onNext(List<ByteBuffer> buffers) {
        if (body.isDone()) {
            return;
        }
        for (ByteBuffer buffer : buffers) {
            if (bytes.size() + (long) buffer.remaining() > maxBytes) {
                subscription.cancel();
                body.completeExceptionally(new IOException("the service's answer is larger than " + (maxBytes >> 20)
                        + " MiB; no answer of PerfLab's is"));
                return;
            }
            byte[] chunk = new byte[buffer.remaining()];
            buffer.get(chunk);
            bytes.writeBytes(chunk);
        }
    }

    @Override
    public void onError(Throwable throwable) {
        body.completeExceptionally(throwable);
    }

    @Override
    public void onComplete() {
        body.complete(bytes.toString(StandardCharsets.UTF_8));
    }
}
