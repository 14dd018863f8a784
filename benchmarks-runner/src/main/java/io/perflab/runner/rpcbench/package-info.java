/**
 * Kudu's rpc-bench on PerfLab's engine ({@link io.perflab.runner.rpcbench.RpcBench}): its parameters
 * ({@link io.perflab.runner.rpcbench.Workload}, {@link io.perflab.runner.rpcbench.Warmup}), its measured result
 * ({@link io.perflab.runner.rpcbench.RpcBenchResult}) and its text report
 * ({@link io.perflab.runner.rpcbench.RpcBenchReport}).
 */
package io.perflab.runner.rpcbench;
