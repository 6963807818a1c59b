/**
 * The data-access core: every read and write of project rows goes through these functions, for
 * REST, GraphQL, the dashboard grid and shared views alike. Each takes a DataContext (project
 * database, caller, limits, audit sink) and a table model.
 */
export { list, listNested, findOne, count, read, exists, runList, listQueryOf } from './records-read';
export { create, update, remove, bulkCreate, bulkUpdate, bulkDelete } from './records-write';
export { groupBy, aggregate, distinct, distribute } from './aggregates';
export { m2mNotChildren, link, unlink } from './m2m';
export { listChildren, listWithRelation, createChild, readChild, updateChild, deleteChild } from './children';
export type { DataContext, AuditSink, DataAuditEntry } from './data-context';
export { WriteEventBus, type WriteEvent, type WriteListener, type WrittenRow } from './write-events';
export { insertMany, type InsertProblem } from './records-insert-many';
export { listPages } from './records-pages';
