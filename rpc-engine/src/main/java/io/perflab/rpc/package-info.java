/**
 * PerfLab's embedded RPC engine on Netty, modelled on Kudu's RPC subsystem: the system under test
 * of every PerfLab experiment. {@link io.perflab.rpc.EngineOptions} selects the code paths users
 * A/B-test; {@link io.perflab.rpc.ServerConfig} sizes the server.
 *
 * <h2>Usage</h2>
 * <pre>{@code
 * EngineOptions options = EngineOptions.defaults().withOption("completion", "monitor");
 * try (RpcServer server = RpcServer.builder()
 *          .options(options)
 *          .config(ServerConfig.defaults())          // 4 reactors, 1 worker, queue 50, 64 MiB frames
 *          .addService(BenchmarkService.definition())
 *          .start();
 *      RpcClient client = RpcClient.create(options)) {
 *     RpcProxy proxy = client.proxy(server.address());
 *     int sum = BenchmarkService.add(proxy, 2, 3, 1000);                 // sync, 1 s timeout
 *     RpcFuture<Integer> f = proxy.callFuture(BenchmarkService.ADD,       // async
 *             body -> body.writeInt(4).writeInt(5), body -> body.readInt(), 1000);
 *     int length = BenchmarkService.echo(proxy, 1024, 4096, 1000);        // 1 KiB in, 4 KiB out
 * } catch (RpcException e) {
 *     RpcStatus status = e.status();                                      // e.g. TIMED_OUT
 * }
 * }</pre>
 *
 * <h2>Options and sizing</h2>
 * {@link io.perflab.rpc.EngineOptions#optionSpecs()} lists every option with its allowed values and
 * default (for forms and API validation); {@code describe()} gives the stable {@code name -> value}
 * list shown with every experiment, and {@code differencesFrom} the difference between two variants.
 * A client has one options set, hence one connection per (remote, options); all its proxies for that
 * remote share it. Server sizing lives in {@link io.perflab.rpc.ServerConfig}, client sizing
 * (reactors, frame limit, connect timeout) in {@link io.perflab.rpc.RpcClient.Builder}.
 *
 * <h2>Threads</h2>
 * Server: one acceptor, {@code serverReactors} event loops reading requests and writing responses,
 * {@code workerThreads} service-pool threads running handlers (behind a queue of
 * {@code serviceQueueLength}; overflow is answered {@code SERVER_TOO_BUSY}, a call whose deadline
 * passed while queued is answered {@code TIMED_OUT} without running). Client: the calling threads
 * encode requests, client event loops write them and complete calls. Only an event loop writes to
 * its channel; other threads hand it work.
 *
 * <h2>Wire format</h2>
 * A connection starts with a 5-byte preamble from the client, then frames in both directions. All
 * integers are big-endian. A frame is a 4-byte length (of what follows it) and a header and body;
 * the length must lie in {@code [header size, maxFrameBytes]} (default 64 MiB) or the receiver
 * closes the connection without allocating for the claimed length.
 * <pre>
 * Preamble (client to server, once)
 * +------+------+------+------+---------+
 * | 'P'  | 'R'  | 'P'  | 'C'  | version |   version = 1
 * +------+------+------+------+---------+
 *
 * Request frame (client to server)
 * +--------------+-----------+-------------------+-------+-----------+--------------------+---------+
 * | length int32 | callId    | timeoutMillis     | flags | methodLen | method name        | body    |
 * |              | int32     | int32 (0 = none)  | int8  | uint8 ≥ 1 | methodLen bytes    |         |
 * +--------------+-----------+-------------------+-------+-----------+--------------------+---------+
 *                 \______________ length = 10 + methodLen + body bytes ___________________________/
 *
 * Response frame (server to client)
 * +--------------+-----------+--------+------------------------------------------------------+
 * | length int32 | callId    | status | body: the result if status = OK (0),                 |
 * |              | int32     | int8   | otherwise a UTF-8 error message                      |
 * +--------------+-----------+--------+------------------------------------------------------+
 *                 \_____ length = 5 + body bytes _______________________________________________/
 * </pre>
 * The method name is {@code Service.Method} in ASCII; flags are reserved and must be 0. Status codes:
 * 0 OK, 1 REMOTE_ERROR, 2 NO_SUCH_METHOD, 3 INVALID_REQUEST, 4 SERVER_TOO_BUSY, 5 TIMED_OUT.
 * Responses carry the request's call id and may arrive in any order. A wrong preamble, a length out
 * of range or a malformed header closes the connection with one log line; an unknown method or an
 * undecodable body is answered with a status and the connection stays open.
 */
package io.perflab.rpc;
