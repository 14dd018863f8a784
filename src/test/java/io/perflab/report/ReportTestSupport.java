package io.perflab.report;

import io.perflab.experiment.ExperimentRepository;
import io.perflab.upload.UploadServer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Report tests store their experiments directly and read the reports over HTTP from the whole service, in the
 * application context that the server tests share.
 */
abstract class ReportTestSupport extends UploadServer {

    @Autowired
    ExperimentRepository store;

    HttpResponse<String> get(String path, String accept) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base() + path));
        if (accept != null) {
            request.header("Accept", accept);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** {@code path} without an {@code Accept} header, as a browser's download link asks for it. */
    @Override
    protected HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return get(path, null);
    }
}
