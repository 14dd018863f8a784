/**
 * Kudu's rpc-bench on PerfLab's engine ({@link io.perflab.runner.rpcbench.RpcBench}): its parameters
 * ({@link io.perflab.runner.rpcbench.Workload}, {@link io.perflab.runner.rpcbench.Warmup}), its measured result
 * ({@link io.perflab.runner.rpcbench.RpcBenchResult}) and its text report
 * ({@link io.perflab.runner.rpcbench.RpcBenchReport}).
 *
 * <p>The load: {@code Load} owns the client threads (sync) and call chains (async) and drives a stack through
 * {@code RpcStack}, whose connections offer a blocking call and an asynchronous call with a listener. The stacks:
 * {@code PerfLabStack} (the engine), {@code GrpcStack} (gRPC-java, messages in {@code GrpcMessages}) and
 * {@code NettyStack} (bare Netty: bootstraps and threads; {@code NettyFrameDecoder}, {@code NettyMessages},
 * {@code NettyServerHandler}, {@code NettyClientHandler} and {@code NettyConnection} by role). Every stack answers
 * with the layout and checks of {@code CalculatorMessages}.
 */
package io.perflab.runner.rpcbench;
