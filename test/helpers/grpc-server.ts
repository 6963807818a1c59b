/** A real gRPC server with reflection on a loopback port, for the gRPC client's tests. */
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { ReflectionService } from '@grpc/reflection';
import { join } from 'node:path';

export interface TestGrpcServer {
  address: string;
  stop(): Promise<void>;
}

/**
 * Greeter (test/fixtures/grpc/greeter.proto): SayHello answers 'Hello <name>' (or INVALID_ARGUMENT without a name;
 * the metadata x-greeting replaces Hello, and x-token-bin is echoed as hex in the trailer x-token-hex), Count streams 1..to.
 */
export async function startGrpcServer(): Promise<TestGrpcServer> {
  const definition = protoLoader.loadSync(join(import.meta.dir, '../fixtures/grpc/greeter.proto'), { keepCase: true, defaults: true });
  const pkg = grpc.loadPackageDefinition(definition) as any;
  const server = new grpc.Server();
  server.addService(pkg.tablo.test.Greeter.service, {
    SayHello(call: grpc.ServerUnaryCall<any, any>, done: grpc.sendUnaryData<any>) {
      if (!call.request.name) return done({ code: grpc.status.INVALID_ARGUMENT, details: 'name is required' });
      const trailer = new grpc.Metadata();
      trailer.set('x-served-by', 'test-greeter');
      const bin = call.metadata.get('x-token-bin')[0];
      if (bin) trailer.set('x-token-hex', Buffer.from(bin as Buffer).toString('hex'));
      const greeting = call.metadata.get('x-greeting')[0] ?? 'Hello';
      done(null, { message: `${greeting} ${call.request.name}${call.request.address?.city ? ` from ${call.request.address.city}` : ''}` }, trailer);
    },
    Count(call: grpc.ServerWritableStream<any, any>) {
      for (let n = 1; n <= call.request.to; n++) call.write({ n });
      call.end();
    },
  });
  new ReflectionService(definition).addToServer(server);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
  );
  return {
    address: `127.0.0.1:${port}`,
    stop: () => new Promise<void>((resolve) => server.tryShutdown(() => resolve())),
  };
}
