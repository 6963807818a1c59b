/**
 * The import's dashboard operations: importUpload (multipart `file` + `json`: stores the file and
 * answers its kind, sheets, delimiter and preview), importPreview (another sheet or delimiter),
 * importStart (into an existing table, or a new one created through the schema-change path),
 * importStatus and importCancel. A new table is for owners and creators; an existing one for
 * whoever may create its rows (the data core's rights).
 */
import { z } from 'zod';
import type { DashboardOp, OpCall } from '../dashboard/op';
import { parseArgs } from '../dashboard/op';
import { badRequest, forbidden, notFound } from '../../lib/errors';
import { ownerKey } from '../../lib/actor';
import { assertCan, assertColumns, rolesInProject } from '../../data/access';
import { HIDDEN_REQUIRED, writableColumn } from '../../data/columns';
import { knownToWriter } from '../../data/read-scope';
import { requirePk } from '../../data/row-id';
import type { ColumnModel } from '../../schema/model';
import type { ColumnInput } from '../../schema/column-input';
import { LIMITS } from '../../config/limits';
import { MSG_ROW_TOO_LARGE } from '../../sql/driver-errors';
import { dataContext, tableByName } from '../rest/context';
import { tableCreate, tableDelete } from '../dashboard/ops/table-changes';
import { migrationRollback } from '../dashboard/ops/migrations';
import { sniffFile, DELIMITERS } from './sniff';
import { utf16ToUtf8 } from './utf16';
import { xlsxSheets } from './row-sources';
import { jsonKeys } from './json-rows';
import { dropUpload, keepUpload, previewOf, uploadOf, type StoredUpload } from './uploads';
import { IMPORT_TYPES, columnInputOf, fitRowSize, importTypeOf } from './column-types';
import { cancelAnywhere, jobOf, jobView, startImport } from './import-job';

const ownerOf = (call: OpCall) => ownerKey(call.actor);

/** Owners, creators, the Super Admin and the master key (not while previewing another role). */
function isAdmin(call: OpCall): boolean {
  const a = call.actor;
  if ((a.kind === 'master' || a.superAdmin || a.roles.includes('super')) && !a.previewAs) return true;
  const roles = rolesInProject(a, call.projectRoles);
  return roles.some((r) => r === 'owner' || r === 'creator');
}

/** 403 unless the caller may import into `tn` (create rows) or, without one, create a table. */
async function assertMayImport(call: OpCall, tn: string | undefined) {
  if (!tn) {
    if (!isAdmin(call)) throw forbidden('Only owners and creators may import into a new table');
    return undefined;
  }
  const dc = await dataContext(call.ctx, call.request, call.projectId, call.dbAlias);
  const t = tableByName(dc.pdb, tn);
  const grant = assertCan(dc.actor, t, 'create', dc.acl);
  requirePk(t);
  return { dc, t, grant };
}

const Delimiter = z.enum(DELIMITERS).optional();
const Target = { tn: z.string().min(1).optional() };

/** The preview of `sheet`, or of the first sheet that holds rows under its header. */
async function firstPreview(u: StoredUpload, sheet?: string, delimiter?: string) {
  if (sheet !== undefined || !u.sheets || u.sheets.length < 2) return { sheet: sheet ?? u.sheets?.[0], preview: await previewOf(u, sheet, delimiter) };
  let first: unknown;
  for (const s of u.sheets) {
    try {
      return { sheet: s, preview: await previewOf(u, s) };
    } catch (e) {
      first ??= e;
    }
  }
  throw first;
}

const describe = async (u: StoredUpload, sheet?: string, delimiter?: string) => {
  const p = await firstPreview(u, sheet, delimiter);
  return {
    uploadId: u.id,
    filename: u.filename,
    size: u.size,
    format: u.kind.format,
    delimiter: delimiter ?? u.kind.delimiter ?? null,
    sheets: u.sheets ?? null,
    sheet: u.kind.format === 'xlsx' ? (p.sheet ?? null) : null,
    preview: p.preview,
  };
};

/** Multipart: `file` (CSV, XLSX or JSON) and `json` (the envelope, args `{ tn? }`). */
export const importUpload: DashboardOp = {
  name: 'importUpload',
  access: 'projectMember',
  async run(call) {
    const file = call.upload;
    if (!file) throw badRequest('Send the file as multipart form data in the field file (and the call in the field json)');
    const a = parseArgs(z.object({ ...Target }), call.args);
    await assertMayImport(call, a.tn);
    // UTF-16 text (Excel's Unicode Text) is read as UTF-8 from here on.
    const size = (await utf16ToUtf8(file.path)) ?? file.size;
    const kind = sniffFile(file.path, size);
    if (kind.format === 'json') {
      kind.keys = await jsonKeys(file.path);
      if (!kind.keys.length) throw badRequest('The file holds no rows');
    }
    const sheets = kind.format === 'xlsx' ? await xlsxSheets(file.path) : undefined;
    const u = keepUpload(call.ctx.dataDir, { ...file, size }, { projectId: call.projectId, dbAlias: call.dbAlias, owner: ownerOf(call), kind, sheets });
    try {
      return await describe(u);
    } catch (e) {
      dropUpload(u);
      throw e;
    }
  },
};

/** `{ uploadId, sheet?, delimiter? }`: the preview again, of another sheet or with another delimiter. */
export const importPreview: DashboardOp = {
  name: 'importPreview',
  access: 'projectMember',
  async run(call) {
    const a = parseArgs(z.object({ uploadId: z.string().min(1), sheet: z.string().optional(), delimiter: Delimiter }), call.args);
    const u = uploadOf(call.ctx.dataDir, a.uploadId, call.projectId, call.dbAlias, ownerOf(call));
    if (a.sheet !== undefined && !u.sheets?.includes(a.sheet)) throw badRequest(`The workbook has no sheet '${a.sheet}'`);
    return describe(u, a.sheet, a.delimiter);
  },
};

const ColumnSpec = z.object({
  index: z.number().int().min(0),
  skip: z.boolean().optional(),
  type: z.enum(IMPORT_TYPES).optional(),
  /** Existing table: the column to fill; new table: the SQL name of the new column. */
  cn: z.string().trim().min(1).max(LIMITS.sqlNameMax).optional(),
  /** New table: the display name of the new column (default: the header). */
  _cn: z.string().trim().min(1).max(128).optional(),
});

const StartArgs = z.object({
  uploadId: z.string().min(1),
  sheet: z.string().optional(),
  delimiter: Delimiter,
  ...Target,
  create: z.object({ tn: z.string().trim().min(1).max(LIMITS.sqlNameMax), _tn: z.string().trim().min(1).max(128).optional() }).optional(),
  columns: z.array(ColumnSpec).max(500).optional(),
  onError: z.enum(['skip', 'stop']).default('skip'),
  allOrNothing: z.boolean().default(false),
  batchSize: z.number().int().min(1).max(10_000).default(1000),
});

/** A SQL name made from a header: word characters, lower case, unique among `taken`. */
export function sqlNameOf(header: string, taken: Set<string>): string {
  let base = header.normalize('NFKD').replace(/[^\w]+/g, '_').replace(/^_+|_+$/g, '').toLowerCase().slice(0, 56) || 'column';
  if (/^\d/.test(base)) base = `c_${base}`;
  let name = base;
  for (let i = 2; taken.has(name); i++) name = `${base}_${i}`;
  taken.add(name);
  return name;
}

/**
 * A display name made from a header that another column of the new table is shown by (the key is
 * shown as Id, and a file exported from Tablo has an Id column of its own): the header and the first
 * number that makes it unique among `taken` in any case.
 */
export function displayNameOf(header: string, taken: Set<string>): string {
  const base = header.trim().slice(0, 124);
  let name = base;
  for (let i = 2; taken.has(name.toLowerCase()); i++) name = `${base} ${i}`;
  taken.add(name.toLowerCase());
  return name;
}

/** `{ uploadId, tn | create: { tn, _tn? }, columns?, onError, allOrNothing }`: starts the import; answers the job. */
export const importStart: DashboardOp = {
  name: 'importStart',
  access: 'projectMember',
  async run(call) {
    const a = parseArgs(StartArgs, call.args);
    if (!a.tn === !a.create) throw badRequest('Give either tn (an existing table) or create (a new table)');
    const owner = ownerOf(call);
    const u = uploadOf(call.ctx.dataDir, a.uploadId, call.projectId, call.dbAlias, owner);
    if (u.busy) throw badRequest('This file is already being imported');
    if (a.sheet !== undefined && !u.sheets?.includes(a.sheet)) throw badRequest(`The workbook has no sheet '${a.sheet}'`);
    const existing = await assertMayImport(call, a.tn);
    const preview = await previewOf(u, a.sheet, a.delimiter);
    const specs = new Map((a.columns ?? []).map((c) => [c.index, c]));
    for (const i of specs.keys()) if (i >= preview.columns.length) throw badRequest(`The file has no column ${i + 1}`);
    const mappingByCn = new Map<number, string>();
    let dc;
    let t;
    let undoCreate: (() => Promise<void>) | undefined;
    if (existing) {
      ({ dc, t } = existing);
      // Columns hidden from the caller are as unknown to the import as columns the table does not have.
      const known = knownToWriter(dc, t, existing.grant);
      const isKnown = (c: ColumnModel) => !known || known(c);
      const used = new Map<string, number>();
      for (const col of preview.columns) {
        const s = specs.get(col.index);
        if (s?.skip) continue;
        // Unmapped columns go to the column of the same name when there is one, else are skipped.
        const header = col.header.toLowerCase();
        const name = s?.cn ?? t.columns.find((c) => isKnown(c) && (c._cn.toLowerCase() === header || c.cn.toLowerCase() === header))?.cn;
        if (!name) continue;
        const c = writableColumn(t, name, known);
        if (used.has(c.cn)) throw badRequest(`Columns ${used.get(c.cn)! + 1} and ${col.index + 1} of the file both go to '${c._cn}'`);
        used.set(c.cn, col.index);
        mappingByCn.set(col.index, c.cn);
      }
    } else {
      const taken = new Set<string>(['id']);
      const inputs: ColumnInput[] = [{ cn: 'id', uidt: 'ID' }];
      // Display names: the key's (Id), those the caller chose, then the headers; a header that meets
      // one of the first two takes a number no other column is shown by.
      const shown = new Set<string>(['id']);
      for (const s of specs.values()) {
        if (s.skip || !s._cn) continue;
        if (shown.has(s._cn.toLowerCase())) throw badRequest(`Two columns would be shown as '${s._cn}'`);
        shown.add(s._cn.toLowerCase());
      }
      const reserved = new Set([...shown, ...preview.columns.filter((c) => !specs.get(c.index)?.skip).map((c) => c.header.trim().toLowerCase())]);
      const displayName = (header: string) => {
        const name = shown.has(header.trim().toLowerCase()) ? displayNameOf(header, reserved) : header;
        shown.add(name.trim().toLowerCase());
        return name;
      };
      for (const col of preview.columns) {
        const s = specs.get(col.index);
        if (s?.skip) continue;
        const cn = s?.cn ? s.cn : sqlNameOf(col.header, taken);
        if (s?.cn) {
          if (taken.has(cn.toLowerCase())) throw badRequest(`Two columns would be named '${cn}'`);
          taken.add(cn.toLowerCase());
        }
        inputs.push(columnInputOf(s?.type ?? col.type, cn, s?._cn ?? displayName(col.header), col.choices, col.long));
        mappingByCn.set(col.index, cn);
      }
      if (inputs.length === 1) throw badRequest('Every column is skipped: keep at least one');
      const engine = (await call.ctx.projects.get(call.projectId, call.dbAlias)).db.config.client;
      // Even as long text, a few hundred columns are more than a MariaDB page holds: said in the file's terms.
      const created = (await tableCreate.run({ ...call, args: { tn: a.create!.tn, _tn: a.create!._tn, columns: fitRowSize(engine, inputs) } }).catch((e: unknown) => {
        if (engine === 'mysql' && (e as Error).message.includes(MSG_ROW_TOO_LARGE)) throw badRequest(`A row of ${inputs.length - 1} columns is more than a MariaDB or MySQL table holds: skip some of the file's columns`);
        throw e;
      })) as { migration?: { id: string } };
      dc = await dataContext(call.ctx, call.request, call.projectId, call.dbAlias);
      t = tableByName(dc.pdb, a.create!.tn);
      const tn = t.tn;
      const migrationId = created.migration?.id;
      undoCreate = async () => {
        try {
          if (!migrationId) throw new Error('no migration');
          await migrationRollback.run({ ...call, args: { id: migrationId } });
        } catch {
          await tableDelete.run({ ...call, args: { tn } });
        }
      };
    }
    if (mappingByCn.size === 0) throw badRequest('No column of the file goes to a column of the table: map at least one');
    // A column every row needs (required, without a default) that no column of the file fills would refuse
    // every row one by one: said before the import starts.
    if (existing) {
      const filled = new Set(mappingByCn.values());
      const missing = t.columns.filter((c) => !c.nullable && !c.ai && c.default === null && !filled.has(c.cn));
      // Columns hidden from the caller are not named: the import cannot make a row without them.
      const known = knownToWriter(dc, t, existing.grant);
      const shown = missing.filter((c) => !known || known(c));
      if (shown.length) throw badRequest(`No column of the file goes to ${shown.map((c) => `'${c._cn}'`).join(', ')} of '${t._tn}', which every row needs`);
      if (missing.length) throw forbidden(HIDDEN_REQUIRED);
    }
    const mapping = new Map<number, ColumnModel>([...mappingByCn].map(([i, cn]) => [i, t.columns.find((c) => c.cn === cn)!]));
    // A column the caller may not set refuses the import now, not at its first batch.
    if (existing) assertColumns(existing.grant, t, 'create', [...mapping.values()]);
    const job = await startImport(dc, t, { upload: u, sheet: a.sheet, delimiter: a.delimiter, mapping, onError: a.onError, allOrNothing: a.allOrNothing, batchSize: a.batchSize, undoCreate }, { owner, created: !existing }, { dataDir: call.ctx.dataDir, meta: call.ctx.meta }, call.ctx.log);
    return jobView(job);
  },
};

const JobArgs = z.object({ jobId: z.string().min(1) });

const jobOfCall = async (call: OpCall) => {
  const { jobId } = parseArgs(JobArgs, call.args);
  const j = await jobOf({ dataDir: call.ctx.dataDir, meta: call.ctx.meta }, jobId, call.projectId, call.dbAlias, ownerOf(call));
  if (!j) throw notFound(`Import '${jobId}' not found`);
  return j;
};

/** `{ jobId }`: the import's progress. */
export const importStatus: DashboardOp = { name: 'importStatus', access: 'projectMember', run: async (call) => jobView(await jobOfCall(call)) };

/** `{ jobId }`: cancels a running import (it ends as cancelled at its next row). */
export const importCancel: DashboardOp = {
  name: 'importCancel',
  access: 'projectMember',
  async run(call) {
    const j = await jobOfCall(call);
    await cancelAnywhere(call.ctx.meta, j);
    return jobView(j);
  },
};

export const IMPORT_OPS = [importUpload, importPreview, importStart, importStatus, importCancel];
