package io.perflab.rpc;

import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import io.netty.handler.ssl.util.SelfSignedCertificate;
import java.security.cert.CertificateException;
import javax.net.ssl.SSLException;

/**
 * TLS for {@code tls=true}. The server generates a throwaway self-signed certificate at start
 * (Netty's {@link SelfSignedCertificate}, backed by Bouncy Castle); no key material is stored. The
 * client encrypts without authenticating the server: what {@code tls} measures is the cost of
 * encryption, as the "Encryption" column of rpc-bench.
 */
final class TlsSupport {

    private TlsSupport() {
    }

    static SslContext serverContext() {
        try {
            SelfSignedCertificate certificate = new SelfSignedCertificate("perflab-rpc");
            try {
                return SslContextBuilder.forServer(certificate.certificate(), certificate.privateKey()).build();
            } finally {
                certificate.delete();
            }
        } catch (CertificateException | SSLException e) {
            throw new IllegalStateException("cannot set up TLS for tls=true: " + e.getMessage(), e);
        }
    }

    static SslContext clientContext() {
        try {
            return SslContextBuilder.forClient()
                    .trustManager(InsecureTrustManagerFactory.INSTANCE)
                    .endpointIdentificationAlgorithm(null)
                    .build();
        } catch (SSLException e) {
            throw new IllegalStateException("cannot set up TLS for tls=true: " + e.getMessage(), e);
        }
    }
}
