package io.perflab.system;

import java.io.IOException;

/** A request body passed the API's size limit while it was read; answered with 413. */
public class BodyTooLargeException extends IOException {

    public BodyTooLargeException(long limit) {
        super("The request body is larger than the limit of " + limit + " bytes; send less data per request.");
    }
}
