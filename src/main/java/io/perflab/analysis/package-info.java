/**
 * The stateless analyze API, {@code POST /api/v1/analyze}: two samples in, the comparison of
 * {@link io.perflab.stats.Comparison} out, as JSON ({@link io.perflab.analysis.ComparisonView}) or, with
 * {@code Accept: text/plain}, as R's {@code t.test(with, without)} print-out. Open to anonymous callers unless
 * {@code perflab.security.anonymous-reads} is false; bodies are limited to 16 MiB.
 *
 * <pre>
 * $ curl -s -H 'Content-Type: application/json' -H 'Accept: text/plain' \
 *     -d '{"with":[16.1,17.2,16.5,16.9,17.0,16.4],"without":[18.3,18.0,17.1,17.9,18.4,17.6]}' \
 *     localhost:8080/api/v1/analyze
 *
 * 	Welch Two Sample t-test
 *
 * data:  with and without
 * t = -4.6283, df = 9.8109, p-value = 0.000987
 * alternative hypothesis: true difference in means is not equal to 0
 * 95 percent confidence interval:
 *  -1.7792082 -0.6207918
 * sample estimates:
 * mean of x mean of y
 *  16.68333  17.88333
 * </pre>
 *
 * (byte for byte what R 4.2.2 prints for {@code t.test(with, without)} on these numbers). Without the
 * {@code Accept} header the answer is JSON with {@code with}, {@code without}, {@code welch}, {@code student},
 * {@code mannWhitney}, {@code effectSize}, {@code relativeChange}, {@code equivalence}, {@code power},
 * {@code verdict} and {@code warnings}. With {@code "paired": true} (equal lengths) the JSON adds {@code paired}, R's
 * {@code t.test(with, without, paired = TRUE)}, and the text is that test's print-out.
 */
package io.perflab.analysis;
