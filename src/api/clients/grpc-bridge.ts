/**
 * The gRPC client's bridge: lists a server's services and methods through gRPC server reflection
 * (grpc-js-reflection-client over @grpc/grpc-js), gives a JSON template of a method's request
 * message, and calls unary and server-streaming methods with a JSON request, answering every
 * response message with the status and trailers. Same address rules as the API client.
 */
import * as grpc from '@grpc/grpc-js';
import { GrpcReflection } from 'grpc-js-reflection-client';
import protobuf from 'protobufjs';
import { z } from 'zod';
import { LIMITS } from '../../config/limits';
import { badGateway, badRequest } from '../../lib/errors';
import { assertReachable } from './address-guard';
import { checkRequest, metadataOf } from './grpc-request';

export const Target = z.object({
  address: z.string().trim().min(3).max(300),
  tls: z.boolean().default(false),
});
export type Target = z.infer<typeof Target>;

/** A method as the client lists it. */
export interface GrpcMethod {
  name: string;
  requestType: string;
  responseType: string;
  clientStreaming: boolean;
  serverStreaming: boolean;
  /** A request message with every field at its default, as JSON. */
  template: unknown;
}

/** `host:port` checked against the address rules; answers the address to dial. */
async function dialable(t: Target, allowPrivate: boolean): Promise<string> {
  const m = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(t.address);
  if (!m || Number(m[2]) < 1 || Number(m[2]) > 65535) throw badRequest(`'${t.address}' is not a server address: write host:port`);
  await assertReachable(m[1]!, allowPrivate);
  return t.address;
}

const credentialsOf = (t: Target) => (t.tls ? grpc.credentials.createSsl() : grpc.credentials.createInsecure());

/** A request message with defaults: '' for text and bytes, 0 for numbers, false, the first enum value, nested messages (3 levels). */
export function messageTemplate(type: protobuf.Type, depth = 0): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of type.fieldsArray) {
    f.resolve();
    const r = f.resolvedType;
    if (f.map) out[f.name] = {};
    else if (f.repeated) out[f.name] = [];
    else if (r instanceof protobuf.Type) out[f.name] = depth < 3 ? messageTemplate(r, depth + 1) : {};
    else if (r instanceof protobuf.Enum) out[f.name] = Object.keys(r.values)[0] ?? 0;
    else if (f.type === 'bool') out[f.name] = false;
    else if (f.type === 'string' || f.type === 'bytes') out[f.name] = '';
    else if (/64$/.test(f.type)) out[f.name] = '0';
    else out[f.name] = 0;
  }
  return out;
}

/** The reflection client of a target, with a time limit on each of its calls. */
function reflectionOf(address: string, t: Target) {
  return new GrpcReflection(address, credentialsOf(t));
}

const deadline = () => ({ deadline: Date.now() + LIMITS.grpcDeadlineMs });

/** The services (reflection itself left out) and their methods. */
/**
 * A reflection failure in a sentence: without the empty 'Resolution note:' and 'Last error: null'
 * that grpc-js appends, and without the 'Error: ' prefixes of the errors it wraps.
 */
function reasonOf(e: unknown): string {
  return String((e as Error).message ?? e)
    .replace(/\s*Resolution note:\s*$/, '')
    .replace(/\s*Last error: null\.?/, '')
    .replace(/\bError: /g, '')
    .trim();
}

export async function listServices(t: Target, allowPrivate: boolean): Promise<{ services: { name: string; methods: GrpcMethod[] }[] }> {
  const address = await dialable(t, allowPrivate);
  const reflection = reflectionOf(address, t);
  let names: string[];
  try {
    names = await reflection.listServices('*', deadline());
  } catch (e) {
    throw badGateway(`Could not list the services of ${address} (does it offer server reflection?): ${reasonOf(e)}`);
  }
  const services = [];
  for (const name of names.filter((n) => !n.startsWith('grpc.reflection.')).sort()) {
    const root = (await reflection.getDescriptorBySymbol(name, deadline())).getProtobufJsRoot();
    const service = root.lookupService(name);
    const methods: GrpcMethod[] = service.methodsArray.map((m) => {
      m.resolve();
      return {
        name: m.name,
        requestType: m.resolvedRequestType!.fullName.replace(/^\./, ''),
        responseType: m.resolvedResponseType!.fullName.replace(/^\./, ''),
        clientStreaming: !!m.requestStream,
        serverStreaming: !!m.responseStream,
        template: messageTemplate(m.resolvedRequestType!),
      };
    });
    services.push({ name, methods });
  }
  return { services };
}

export const CallArgs = Target.extend({
  service: z.string().min(1).max(300),
  method: z.string().min(1).max(200),
  request: z.record(z.string(), z.unknown()).default({}),
  metadata: z.record(z.string(), z.string()).default({}),
});
export type CallArgs = z.infer<typeof CallArgs>;

/** What a call answered: the messages, the final status and the trailers (and headers). */
export interface GrpcCallResult {
  messages: unknown[];
  status: { code: number; name: string; details: string };
  headers: Record<string, string>;
  trailers: Record<string, string>;
  timeMs: number;
  truncated: boolean;
}

const metadataObject = (m: grpc.Metadata | undefined): Record<string, string> =>
  Object.fromEntries(Object.entries(m?.getMap() ?? {}).map(([k, v]) => [k, typeof v === 'string' ? v : Buffer.from(v).toString('base64')]));

/** Calls a unary or server-streaming method with a JSON request. */
export async function callMethod(a: CallArgs, allowPrivate: boolean): Promise<GrpcCallResult> {
  const address = await dialable(a, allowPrivate);
  let pkg: grpc.GrpcObject;
  let root: protobuf.Root;
  try {
    const descriptor = await reflectionOf(address, a).getDescriptorBySymbol(a.service, deadline());
    pkg = descriptor.getPackageObject({ keepCase: true, longs: String, enums: String, defaults: true, oneofs: true });
    root = descriptor.getProtobufJsRoot();
  } catch (e) {
    throw badGateway(`Could not read the service '${a.service}' of ${address} through reflection: ${reasonOf(e)}`);
  }
  let node: unknown = pkg;
  for (const part of a.service.split('.')) node = (node as Record<string, unknown> | undefined)?.[part];
  const Client = node as (grpc.ServiceClientConstructor & { service: grpc.ServiceDefinition }) | undefined;
  if (typeof Client !== 'function' || !Client.service) throw badRequest(`'${a.service}' is not a service of ${address}`);
  const def = Client.service[a.method];
  if (!def) throw badRequest(`'${a.service}' has no method '${a.method}'`);
  if (def.requestStream) throw badRequest(`'${a.method}' takes a stream of requests: only unary and server-streaming methods can be called here`);
  // The request as written, or a 400: the message encoder would quietly send another one.
  const method = root.lookupService(a.service).methods[a.method];
  method?.resolve();
  if (method?.resolvedRequestType) checkRequest(method.resolvedRequestType, a.request);
  const metadata = metadataOf(a.metadata);

  const client = new Client(address, credentialsOf(a));
  const started = performance.now();
  const messages: unknown[] = [];
  let headers: grpc.Metadata | undefined;
  let truncated = false;
  const fn = (client as unknown as Record<string, (...args: unknown[]) => grpc.ClientUnaryCall & grpc.ClientReadableStream<unknown>>)[a.method]!.bind(client);
  try {
    const status = await new Promise<grpc.StatusObject>((resolve) => {
      if (!def.responseStream) {
        const call = fn(a.request, metadata, deadline(), (err: grpc.ServiceError | null, reply: unknown) => {
          if (!err) messages.push(reply);
        });
        call.on('metadata', (m: grpc.Metadata) => (headers = m));
        call.on('status', resolve);
        return;
      }
      const call = fn(a.request, metadata, deadline());
      call.on('metadata', (m: grpc.Metadata) => (headers = m));
      call.on('data', (m: unknown) => {
        if (messages.length < LIMITS.grpcMaxMessages) messages.push(m);
        else if (!truncated) {
          truncated = true;
          call.cancel();
        }
      });
      call.on('error', () => {});
      call.on('status', resolve);
    });
    return {
      messages,
      status: { code: status.code, name: grpc.status[status.code] ?? String(status.code), details: status.details },
      headers: metadataObject(headers),
      trailers: metadataObject(status.metadata),
      timeMs: Math.round(performance.now() - started),
      truncated,
    };
  } finally {
    client.close();
  }
}
