package io.perflab.rpc;

import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import javax.net.ssl.SSLException;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * TLS for {@code tls=true}. Each server generates a throwaway self-signed certificate (EC P-256,
 * built with Bouncy Castle's certificate builder) when it starts and keeps it in memory only; no
 * key material is stored anywhere. The client encrypts without authenticating the server: what
 * {@code tls} measures is the cost of encryption, as the "Encryption" column of rpc-bench.
 */
final class TlsSupport {

    private static final String SUBJECT = "CN=perflab-rpc";

    private TlsSupport() {
    }

    static SslContext serverContext() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(256);
            KeyPair keys = generator.generateKeyPair();
            X500Name subject = new X500Name(SUBJECT);
            Instant now = Instant.now();
            X509Certificate certificate = new JcaX509CertificateConverter().getCertificate(
                    new JcaX509v3CertificateBuilder(subject, BigInteger.valueOf(now.toEpochMilli()),
                            Date.from(now.minus(Duration.ofDays(1))), Date.from(now.plus(Duration.ofDays(365))),
                            subject, keys.getPublic())
                            .build(new JcaContentSignerBuilder("SHA256withECDSA").build(keys.getPrivate())));
            return SslContextBuilder.forServer(keys.getPrivate(), certificate).build();
        } catch (GeneralSecurityException | OperatorCreationException | SSLException e) {
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
