/**
 * Type maps are data: each engine lists native type names -> logical UI type and value kind,
 * and logical type -> native type for DDL. This file holds the shared lookup.
 */
import type { UiType, ValueKind } from './model';

export interface NativeTypeEntry {
  /** Native type names (lower case, without length), e.g. ['varchar', 'character varying']. */
  names: string[];
  uidt: UiType;
  kind: ValueKind;
}

export interface TypeMap {
  native: NativeTypeEntry[];
  /** Logical type -> native DDL type. */
  ddl: Partial<Record<UiType, string>>;
}

/** `character varying(255)` -> `character varying`; `int(11) unsigned` -> `int`. */
export function baseTypeName(native: string): string {
  return native.toLowerCase().replace(/\(.*$/, '').replace(/\s+(unsigned|zerofill|signed)\b.*$/, '').trim();
}

/** Logical type and value kind of a native type; unknown types are SpecificDBType strings. */
export function lookupNative(map: TypeMap, native: string): { uidt: UiType; kind: ValueKind } {
  const base = baseTypeName(native);
  const hit = map.native.find((e) => e.names.includes(base));
  return hit ? { uidt: hit.uidt, kind: hit.kind } : { uidt: 'SpecificDBType', kind: 'string' };
}

/** Native DDL type of a logical type (falls back to the engine's text type). */
export function nativeFor(map: TypeMap, uidt: UiType): string {
  return map.ddl[uidt] ?? map.ddl.SingleLineText ?? 'text';
}
