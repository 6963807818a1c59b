/**
 * The web form of a plugin, read from its zod schema: each field's name, type, label, whether it is
 * required, secret, its default and its choices. Secrets are masked in every answer.
 */
import { z } from 'zod';
import type { PluginDef } from './catalog';

export interface PluginField {
  name: string;
  type: 'string' | 'number' | 'boolean' | 'enum';
  label: string;
  required: boolean;
  secret: boolean;
  default?: unknown;
  options?: string[];
}

/** What a stored secret is shown as; sending it back keeps the stored value. */
export const MASK = '••••••••';

type Def = { type: string; innerType?: z.ZodType; defaultValue?: unknown; entries?: Record<string, string>; in?: z.ZodType };

/** The field list of a plugin's schema. */
export function fieldsOf(p: PluginDef): PluginField[] {
  return Object.entries(p.schema.shape).map(([name, schema]) => {
    const meta = (schema.meta() ?? {}) as { label?: string; secret?: boolean };
    let inner: z.ZodType = schema;
    let required = true;
    let dflt: unknown;
    for (let i = 0; i < 5; i++) {
      const def = (inner as unknown as { def: Def }).def;
      if (def.type === 'optional' || def.type === 'default') {
        required = false;
        if (def.type === 'default') dflt = typeof def.defaultValue === 'function' ? (def.defaultValue as () => unknown)() : def.defaultValue;
        inner = def.innerType!;
      } else if (def.type === 'pipe' && def.in) inner = def.in;
      else break;
    }
    const def = (inner as unknown as { def: Def }).def;
    const type: PluginField['type'] = def.type === 'number' ? 'number' : def.type === 'boolean' ? 'boolean' : def.type === 'enum' ? 'enum' : 'string';
    return {
      name,
      type,
      label: meta.label ?? name,
      required,
      secret: !!meta.secret,
      ...(dflt !== undefined ? { default: dflt } : {}),
      ...(type === 'enum' && def.entries ? { options: Object.values(def.entries) } : {}),
    };
  });
}

/** Names of a plugin's secret fields. */
export const secretNames = (p: PluginDef): string[] => fieldsOf(p).filter((f) => f.secret).map((f) => f.name);

/** A copy of the input with every secret that is set replaced by the mask. */
export function maskInput(p: PluginDef, input: Record<string, unknown>): Record<string, unknown> {
  const out = { ...input };
  for (const k of secretNames(p)) if (out[k] !== undefined && out[k] !== '') out[k] = MASK;
  return out;
}
