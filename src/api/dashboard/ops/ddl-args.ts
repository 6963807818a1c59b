/** The argument shapes of the schema-changing operations (ColumnInput and friends), as zod schemas. */
import { z } from 'zod';
import { DDL_UITYPES } from '../../../schema/column-input';
import { LIMITS } from '../../../config/limits';

/** A display name (metadata only). */
export const Alias = z
  .string()
  .trim()
  .min(1, 'A display name cannot be empty')
  .max(128)
  .regex(/^[^\u0000-\u001f]+$/, 'A display name cannot hold control characters')
  .refine((v) => !/^\.+$/.test(v), "A display name cannot be '.' or '..' (dots only)");

/**
 * A SQL name of a table or column as given (checked further by the planners). Names made of dots
 * only (`.`, `..`) are refused: URLs normalise them away, so their rows could not be reached.
 */
export const SqlName = z
  .string()
  .trim()
  .min(1, 'A name is required')
  .max(LIMITS.sqlNameMax, `A name is at most ${LIMITS.sqlNameMax} characters`)
  .refine((v) => !/^\.+$/.test(v), "A name cannot be '.' or '..' (dots only)");

const Dtxp = z
  .union([z.string(), z.number()])
  .transform((v) => String(v).replace(/\s+/g, ''))
  .refine((v) => /^\d{1,5}(,\d{1,3})?$/.test(v), 'dtxp is a length (255) or a precision and scale (10,2)');

const Default = z.union([z.string().max(1000), z.number().finite(), z.boolean(), z.null()]);

/** Options of the logical type: an object here, checked per type by the planner. */
const TypeMeta = z.record(z.string(), z.unknown(), 'meta is an object of type options');

const Options = z
  .array(z.string().trim().min(1, 'A choice cannot be empty').max(255).refine((s) => !s.includes(','), 'A choice cannot hold a comma'))
  .max(1000)
  .refine((l) => new Set(l).size === l.length, 'The choices must differ');

/** ColumnInput of the op contract. */
export const ColumnInputArgs = z.object({
  cn: SqlName,
  _cn: Alias.optional(),
  uidt: z.enum(DDL_UITYPES),
  dtxp: Dtxp.optional(),
  nullable: z.boolean().optional(),
  default: Default.optional(),
  unique: z.boolean().optional(),
  pk: z.boolean().optional(),
  ai: z.boolean().optional(),
  options: Options.optional(),
  meta: TypeMeta.optional(),
});

/** The changes columnUpdate accepts. */
export const ColumnChangeArgs = z.object({
  cn: SqlName.optional(),
  _cn: Alias.optional(),
  uidt: z.enum(DDL_UITYPES).optional(),
  dtxp: Dtxp.optional(),
  nullable: z.boolean().optional(),
  default: Default.optional(),
  unique: z.boolean().optional(),
  options: Options.optional(),
  meta: TypeMeta.optional(),
});

/** What a foreign key does when its parent row is deleted. */
export const OnDeleteArg = z.enum(['CASCADE', 'SET NULL', 'RESTRICT', 'NO ACTION']);

/** Every schema-changing operation may only preview its statements. */
export const Preview = { preview: z.boolean().optional() };
