/**
 * What the gRPC client sends, checked before the call: the request JSON against the method's
 * message type, and the metadata against gRPC's rules. protobufjs turns whatever it is given into
 * the message without a word ('abc' for a number becomes 0, an object for a string
 * '[object Object]', an unknown field vanishes), so the server would get another request than the
 * one written; here such a request is a 400 naming the field, as grpcurl would refuse it.
 */
import * as grpc from '@grpc/grpc-js';
import protobuf from 'protobufjs';
import { badRequest } from '../../lib/errors';

const INT32 = new Set(['int32', 'uint32', 'sint32', 'fixed32', 'sfixed32']);
const INT64 = new Set(['int64', 'uint64', 'sint64', 'fixed64', 'sfixed64']);
const FLOAT = new Set(['float', 'double']);
const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

const shown = (v: unknown) => (typeof v === 'string' ? `'${v.slice(0, 60)}'` : JSON.stringify(v)?.slice(0, 60) ?? String(v));

/** Why `v` cannot be a value of a scalar or enum field of type `type`, or null when it can. */
function scalarProblem(type: string, resolved: protobuf.ReflectionObject | null, v: unknown): string | null {
  if (resolved instanceof protobuf.Enum) {
    if (typeof v === 'string') return v in resolved.values ? null : `is not one of ${resolved.name}'s values ${Object.keys(resolved.values).join(', ')}`;
    return Number.isInteger(v) ? null : `must be one of ${Object.keys(resolved.values).join(', ')}`;
  }
  if (type === 'string') return typeof v === 'string' ? null : 'must be text';
  if (type === 'bool') return typeof v === 'boolean' ? null : 'must be true or false';
  if (type === 'bytes') return typeof v === 'string' && BASE64.test(v) ? null : 'must be base64 text';
  const text = typeof v === 'string' ? v.trim() : null;
  if (INT32.has(type) || INT64.has(type)) {
    const ok = (typeof v === 'number' && Number.isInteger(v)) || (text !== null && /^-?\d+$/.test(text));
    if (!ok) return 'must be a whole number';
    if (type.startsWith('u') || type.startsWith('fixed')) return String(v).trim().startsWith('-') ? 'must not be negative' : null;
    return null;
  }
  if (FLOAT.has(type)) {
    if (typeof v === 'number') return null;
    return text !== null && text !== '' && (!Number.isNaN(Number(text)) || ['NaN', 'Infinity', '-Infinity'].includes(text)) ? null : 'must be a number';
  }
  return null;
}

/**
 * Throws 400 naming the first field of `value` that does not fit message type `type`: an unknown
 * field, or a value of another kind than the field's.
 */
export function checkRequest(type: protobuf.Type, value: unknown, path = ''): void {
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw badRequest(`${path || 'The request'} must be a JSON object (a ${type.name} message)`);
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    const f = type.fields[key] ?? type.fieldsArray.find((x) => x.name === key || x.options?.json_name === key);
    const at = path ? `${path}.${key}` : key;
    if (!f) throw badRequest(`${type.name} has no field '${key}'${path ? ` (at ${at})` : ''}`);
    if (v === null) continue;
    f.resolve();
    const one = (x: unknown, where: string) => {
      if (f.resolvedType instanceof protobuf.Type) return checkRequest(f.resolvedType, x, where);
      const problem = scalarProblem(f.type, f.resolvedType, x);
      if (problem) throw badRequest(`${where} ${problem} (got ${shown(x)})`);
    };
    if (f.map) {
      if (typeof v !== 'object' || Array.isArray(v)) throw badRequest(`${at} must be a JSON object (a map)`);
      for (const [k, x] of Object.entries(v as Record<string, unknown>)) one(x, `${at}.${k}`);
    } else if (f.repeated) {
      if (!Array.isArray(v)) throw badRequest(`${at} must be a JSON array`);
      v.forEach((x, i) => one(x, `${at}[${i}]`));
    } else one(v, at);
  }
}

/**
 * Call metadata from the form's name/value pairs: names lower-cased as gRPC sends them, a 400
 * naming a name gRPC does not allow or a value it cannot carry; `-bin` values are base64.
 */
export function metadataOf(pairs: Record<string, string>): grpc.Metadata {
  const m = new grpc.Metadata();
  for (const [name, value] of Object.entries(pairs)) {
    const key = name.trim().toLowerCase();
    if (!/^[0-9a-z_.-]+$/.test(key)) throw badRequest(`'${name}' is not a valid metadata name: use letters, digits and - _ . only`);
    if (key.startsWith('grpc-')) throw badRequest(`'${name}' is reserved by gRPC itself`);
    if (key.endsWith('-bin')) {
      if (!BASE64.test(value.trim())) throw badRequest(`The value of '${name}' must be base64 (a -bin name carries bytes)`);
      m.add(key, Buffer.from(value.trim(), 'base64'));
    } else {
      if (!/^[ -~]*$/.test(value)) throw badRequest(`The value of '${name}' cannot be sent: metadata holds printable ASCII only (or base64 under a name ending in -bin)`);
      m.add(key, value);
    }
  }
  return m;
}
