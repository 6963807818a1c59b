/**
 * The model of a project database (tables, columns, relations, virtual columns, routines). Its
 * types live in the dialect layer, which produces the model by introspection (`sql/model.ts`);
 * schema/, data/ and api/ read them from here.
 */
export * from '../sql/model';
