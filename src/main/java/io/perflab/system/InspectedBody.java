package io.perflab.system;

import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

/**
 * A request whose body bytes pass an inspection as they are read — counted against a limit, checked as UTF-8 —
 * without being held in memory. The reader, when a handler asks for one, reads through the same inspection.
 */
final class InspectedBody extends HttpServletRequestWrapper {

    /** Looks at each run of bytes as it is read; throws to refuse the body. */
    @FunctionalInterface
    interface Inspection {
        /** {@code end} is true once, when the body has ended. */
        void inspect(byte[] bytes, int offset, int length, boolean end) throws IOException;
    }

    private final Inspection inspection;
    private ServletInputStream stream;

    InspectedBody(HttpServletRequest request, Inspection inspection) {
        super(request);
        this.inspection = inspection;
    }

    @Override
    public ServletInputStream getInputStream() throws IOException {
        if (stream == null) {
            stream = new Stream(super.getInputStream(), inspection);
        }
        return stream;
    }

    @Override
    public BufferedReader getReader() throws IOException {
        String encoding = getCharacterEncoding();
        Charset charset = encoding == null ? StandardCharsets.UTF_8 : Charset.forName(encoding);
        return new BufferedReader(new InputStreamReader(getInputStream(), charset));
    }

    private static final class Stream extends ServletInputStream {

        private final ServletInputStream in;
        private final Inspection inspection;
        private boolean ended;

        Stream(ServletInputStream in, Inspection inspection) {
            this.in = in;
            this.inspection = inspection;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            int n = read(one, 0, 1);
            return n < 0 ? -1 : one[0] & 0xFF;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            int n = in.read(buffer, offset, length);
            if (n > 0) {
                inspection.inspect(buffer, offset, n, false);
            } else if (n < 0 && !ended) {
                ended = true;
                inspection.inspect(buffer, offset, 0, true);
            }
            return n;
        }

        @Override
        public boolean isFinished() {
            return in.isFinished();
        }

        @Override
        public boolean isReady() {
            return in.isReady();
        }

        @Override
        public void setReadListener(ReadListener listener) {
            in.setReadListener(listener);
        }
    }
}
