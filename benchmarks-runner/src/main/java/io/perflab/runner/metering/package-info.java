/**
 * Exact resource metering of a process: {@code getrusage(2)} through JNA
 * ({@link io.perflab.runner.metering.ResourceUsage}), bytes allocated and collector counters
 * ({@link io.perflab.runner.metering.ProcessMeter}), and how busy the rest of the host was
 * ({@link io.perflab.runner.metering.HostCpu}).
 */
package io.perflab.runner.metering;
