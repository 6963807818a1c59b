/** relationCreate, relationDelete: has-many and many-to-many links made from the dashboard. */
import { z } from 'zod';
import { schemaChangeOp } from './schema-change-op';
import { OnDeleteArg, Preview, SqlName } from './ddl-args';
import { planRelationCreate, planRelationDelete } from '../../../schema/relation-changes';

const Type = z.enum(['hm', 'mm']);

/** Links two tables: `hm` adds a foreign key column to the child, `mm` creates the junction table. */
export const relationCreate = schemaChangeOp(
  'relationCreate',
  z.object({ type: Type, parentTn: z.string().min(1), childTn: z.string().min(1), childColumn: SqlName.optional(), onDelete: OnDeleteArg.optional(), ...Preview }),
  planRelationCreate,
);

/** Removes a link: `hm` drops the foreign key and its column, `mm` the junction table. */
export const relationDelete = schemaChangeOp(
  'relationDelete',
  z.object({ type: Type, parentTn: z.string().min(1), childTn: z.string().min(1), ...Preview }),
  planRelationDelete,
);
