/**
 * The options of a logical type (`ColumnInput.meta`): Currency code and locale, Percent and
 * Decimal precision, Rating maximum and icon, Duration format, select choices with colours and
 * Attachment limits, DateTime's `touch` (set to the time of each change). Each type's options are checked by its own zod schema (400 naming the
 * option), completed with the type's defaults, and kept in the column's user metadata.
 */
import { z } from 'zod';
import { badRequest } from '../lib/errors';
import { LIMITS } from '../config/limits';
import type { ColumnModel, ColumnTypeMeta, SelectChoice, UiType } from './model';

const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

/** Colours given in turn to choices that come without one. */
export const CHOICE_COLORS = ['#cfdffe', '#d0f1fd', '#c2f5e9', '#ffdaf6', '#ffdce5', '#fee2d5', '#ffeab6', '#d1f7c4', '#ede2fe', '#eeeeee'] as const;

/** The durations a Duration column reads and shows. */
export const DURATION_FORMATS = ['h:mm', 'h:mm:ss', 'h:mm:ss.s'] as const;

/** Icons a Rating column may show. */
export const RATING_ICONS = ['star', 'heart', 'circle', 'diamond'] as const;

const Locale = z
  .string()
  .trim()
  .min(1)
  .max(35)
  .refine((l) => {
    try {
      return Intl.NumberFormat.supportedLocalesOf(l).length > 0;
    } catch {
      return false;
    }
  }, 'locale is not a known locale (like en-US)');

const Precision = z.number().int('precision is a whole number').min(0).max(LIMITS.displayPrecisionMax, `precision is at most ${LIMITS.displayPrecisionMax}`);

/** A choice title: the rules of plain `options`. */
export const ChoiceTitle = z.string().trim().min(1, 'A choice cannot be empty').max(255).refine((s) => !s.includes(','), 'A choice cannot hold a comma');

const Color = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'A colour is written #rrggbb');

const Choices = z
  .array(z.union([ChoiceTitle, z.object({ title: ChoiceTitle, color: Color.optional() }).strict()]))
  .max(1000)
  .transform((l) => l.map((o) => (typeof o === 'string' ? { title: o } : o)))
  .refine((l) => new Set(l.map((o) => o.title)).size === l.length, 'The choices must differ');

const Accept = z
  .union([z.string(), z.array(z.string())])
  .transform((v) => (Array.isArray(v) ? v : v.split(',')).map((s) => s.trim().toLowerCase()).filter(Boolean))
  .refine((l) => l.length <= 50 && l.every((s) => /^(\.[a-z0-9][\w-]*|[a-z]+\/(\*|[\w.+-]+))$/.test(s)), 'accept lists file types like image/*, application/pdf or .pdf');

/** Options as a caller gives them: choices may come without a colour. */
type MetaInput = Omit<ColumnTypeMeta, 'options'> & { options?: { title: string; color?: string }[] };

/** The options each logical type takes; types left out take none. */
const SCHEMAS: Partial<Record<UiType, z.ZodType<MetaInput>>> = {
  Currency: z
    .object({
      currency: z.string().trim().toUpperCase().refine((c) => CURRENCIES.has(c), 'currency is an ISO 4217 code (like USD or EUR)').optional(),
      locale: Locale.optional(),
      precision: Precision.optional(),
    })
    .strict(),
  Percent: z.object({ precision: Precision.optional() }).strict(),
  Decimal: z.object({ precision: Precision.optional() }).strict(),
  Rating: z
    .object({
      max: z.number().int('max is a whole number').min(1, 'max is at least 1').max(LIMITS.ratingMax, `max is at most ${LIMITS.ratingMax}`).optional(),
      icon: z.enum(RATING_ICONS).optional(),
    })
    .strict(),
  Duration: z.object({ format: z.enum(DURATION_FORMATS).optional() }).strict(),
  SingleSelect: z.object({ options: Choices.optional() }).strict(),
  MultiSelect: z.object({ options: Choices.optional() }).strict(),
  Attachment: z
    .object({
      maxFiles: z.number().int('maxFiles is a whole number').min(1, 'maxFiles is at least 1').max(LIMITS.attachmentMaxFiles, `maxFiles is at most ${LIMITS.attachmentMaxFiles}`).optional(),
      accept: Accept.optional(),
    })
    .strict(),
  DateTime: z.object({ touch: z.boolean({ message: 'touch is true or false' }).optional() }).strict(),
};

/** The options a type has when none are set. */
const DEFAULTS: Partial<Record<UiType, ColumnTypeMeta>> = {
  Currency: { currency: 'USD' },
  Rating: { max: LIMITS.ratingDefaultMax, icon: 'star' },
  Duration: { format: 'h:mm' },
  DateTime: { touch: false },
};

/** Whether a logical type takes options. */
export const takesTypeMeta = (uidt: UiType): boolean => uidt in SCHEMAS;

const aType = (uidt: UiType) => `${/^[AEIOU]/.test(uidt) ? 'an' : 'a'} ${uidt} column`;

/** A caller's options for a type, checked: 400 `meta.<option>: why` on a bad or foreign option. */
export function parseTypeMeta(uidt: UiType, raw: unknown): MetaInput {
  const schema = SCHEMAS[uidt];
  if (!schema) {
    const keys = raw && typeof raw === 'object' ? Object.keys(raw) : [];
    if (keys.length) throw badRequest(`meta: ${aType(uidt)} takes no options (${keys.map((k) => `'${k}'`).join(', ')} given)`);
    return {};
  }
  const r = schema.safeParse(raw ?? {});
  if (r.success) return r.data;
  const i = r.error.issues[0]!;
  const where = ['meta', ...i.path.map(String)].join('.');
  const msg = i.code === 'unrecognized_keys' ? `${aType(uidt)} takes no option ${i.keys.map((k) => `'${k}'`).join(', ')}` : i.message;
  throw badRequest(`${where}: ${msg}`);
}

/** Stored options, without those the type does not take (left from an earlier type). */
function knownMeta(uidt: UiType, stored: MetaInput | undefined): MetaInput {
  if (!stored || !SCHEMAS[uidt]) return {};
  const r = SCHEMAS[uidt]!.safeParse(stored);
  if (r.success) return r.data;
  const keys = Object.keys(SCHEMAS[uidt] instanceof z.ZodObject ? (SCHEMAS[uidt] as z.ZodObject<z.ZodRawShape>).shape : {});
  return Object.fromEntries(Object.entries(stored).filter(([k]) => keys.includes(k))) as MetaInput;
}

/** The choices with their colours: the stored colour of a title, else the palette's in turn. */
export function choicesWithColors(titles: string[], stored?: { title: string; color?: string }[]): SelectChoice[] {
  return titles.map((title, i) => ({ title, color: stored?.find((o) => o.title === title)?.color ?? CHOICE_COLORS[i % CHOICE_COLORS.length]! }));
}

/** The options of a column as the API shows them: the type's defaults, the stored options, choices with colours. */
export function shownTypeMeta(c: Pick<ColumnModel, 'uidt' | 'meta' | 'enumValues'>): ColumnTypeMeta | null {
  if (!takesTypeMeta(c.uidt)) return null;
  const { options: _stored, ...rest } = knownMeta(c.uidt, c.meta);
  const out: ColumnTypeMeta = { ...DEFAULTS[c.uidt], ...rest };
  if (c.uidt === 'SingleSelect' || c.uidt === 'MultiSelect') out.options = choicesWithColors(c.enumValues ?? [], c.meta?.options);
  return out;
}

/** What a column change keeps in metadata: the options to store and the select choices they name. */
export interface TypeMetaChange {
  meta?: ColumnTypeMeta;
  choices?: string[];
}

/**
 * The options to store after a change: the given ones over the current ones (the current ones are
 * dropped when the type changes), choices given as `options` or `meta.options` (not both, unless equal).
 */
export function typeMetaChange(uidt: UiType, raw: unknown, choices: string[] | undefined, current?: Pick<ColumnModel, 'uidt' | 'meta' | 'enumValues'>): TypeMetaChange {
  const given = parseTypeMeta(uidt, raw);
  const same = !!current && current.uidt === uidt;
  const keep = same ? knownMeta(uidt, current.meta) : {};
  const { options: _given, ...rest } = { ...keep, ...given };
  const meta: ColumnTypeMeta = rest;
  const titles = given.options?.map((o) => o.title);
  if (titles && choices && JSON.stringify(titles) !== JSON.stringify(choices)) throw badRequest('Give the choices either as options or as meta.options');
  const all = titles ?? choices ?? (same && current.enumValues?.length ? current.enumValues : undefined);
  if (all && (uidt === 'SingleSelect' || uidt === 'MultiSelect')) {
    // A choice given without a colour keeps the one it had.
    const known = [...(given.options ?? []).filter((o) => o.color), ...(keep.options ?? [])];
    meta.options = choicesWithColors(all, known);
  }
  return { meta: Object.keys(meta).length ? meta : undefined, choices: all };
}
