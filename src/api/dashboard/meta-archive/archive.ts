/**
 * Export, import and reset of a project's metadata. The archive is a zip: `manifest.json` (format,
 * versions, time, source engines, the project's title and API type) and per project database
 * `db/<alias>/<section>.json`. It never holds a connection, a password, a token or a secret.
 * Import checks everything before it writes: a damaged, foreign or newer archive answers 400 naming
 * the problem and changes nothing; entries naming objects this database lacks are reported and
 * skipped; the rest is applied in one metadata transaction, then the project reads its schema afresh.
 */
import { z } from 'zod';
import type { AppContext } from '../../../context';
import { badRequest } from '../../../lib/errors';
import { nowIso } from '../../../lib/ids';
import { projectsRepo } from '../../../meta/projects-repo';
import { aclRepo } from '../../../meta/acl-repo';
import { clearedByReset, databaseSections, PROJECT_SECTIONS } from './sections';
import { readZip, writeZip } from './zip-io';
import { fileNameOf } from '../../../http/content-disposition';

/** What an archive says it is. */
export const ARCHIVE_FORMAT = 'tablo-project-meta';
/** Versions of the archive format this Tablo reads; it writes the last. */
export const ARCHIVE_VERSIONS = [1] as const;

const Manifest = z.object({
  format: z.literal(ARCHIVE_FORMAT, { message: `not a Tablo metadata archive (format '${ARCHIVE_FORMAT}' expected)` }),
  formatVersion: z.number().int().positive(),
  tabloVersion: z.string(),
  createdAt: z.string(),
  project: z.object({ title: z.string(), projectType: z.enum(['rest', 'graphql']) }),
  databases: z.array(z.object({ dbAlias: z.string().regex(/^db[0-9]*$/), engine: z.string() })).max(50),
});
export type Manifest = z.infer<typeof Manifest>;

/** The project databases whose metadata an archive covers: one per alias of the working environment. */
async function databasesOf(ctx: AppContext, projectId: string) {
  const repo = projectsRepo(ctx.meta);
  const project = (await repo.get(projectId))!;
  const dbs = (await repo.dbs(projectId)).filter((d) => d.env === project.working_env);
  return { project, dbs };
}

/** Builds the metadata zip of a project, named after its title. */
export async function exportProjectMeta(ctx: AppContext, projectId: string): Promise<{ zip: Uint8Array; filename: string }> {
  const { project, dbs } = await databasesOf(ctx, projectId);
  const manifest: Manifest = {
    format: ARCHIVE_FORMAT,
    formatVersion: ARCHIVE_VERSIONS[ARCHIVE_VERSIONS.length - 1]!,
    tabloVersion: ctx.version,
    createdAt: nowIso(),
    project: { title: project.title, projectType: project.project_type },
    databases: dbs.map((d) => ({ dbAlias: d.db_alias, engine: d.client })),
  };
  const files: Record<string, unknown> = { 'manifest.json': manifest };
  for (const d of dbs) for (const s of databaseSections(ctx.secrets.connectionKey)) files[`db/${d.db_alias}/${s.name}.json`] = await s.read(ctx.meta, projectId, d.db_alias);
  for (const s of PROJECT_SECTIONS) files[`project/${s.name}.json`] = await s.read(ctx.meta, projectId, dbs[0]?.db_alias ?? 'db');
  return { zip: writeZip(files), filename: `${fileNameOf(project.title, projectId)}-metadata.zip` };
}

/** A parsed and checked archive: its manifest and the section rows per database alias. */
export interface ParsedArchive {
  manifest: Manifest;
  sections: Map<string, Map<string, unknown[]>>;
  /** Project-wide sections by name. */
  project: Map<string, unknown[]>;
}

const parseJson = (name: string, text: string) => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw badRequest(`The zip entry '${name}' is not valid JSON`);
  }
};

/** Reads and validates an archive without touching any project (400 naming the first problem). */
export function parseArchive(data: Uint8Array): ParsedArchive {
  const SECTIONS = databaseSections('');
  const entries = readZip(data);
  const manifestText = entries.get('manifest.json');
  if (manifestText === undefined) throw badRequest('The zip has no manifest.json: it is not a Tablo metadata archive');
  const m = Manifest.safeParse(parseJson('manifest.json', manifestText));
  if (!m.success) {
    const i = m.error.issues[0]!;
    throw badRequest(`manifest.json: ${i.path.length ? `${i.path.join('.')}: ` : ''}${i.message}`);
  }
  const manifest = m.data;
  if (!(ARCHIVE_VERSIONS as readonly number[]).includes(manifest.formatVersion)) {
    throw badRequest(`The archive has format version ${manifest.formatVersion}, made by a newer Tablo (${manifest.tabloVersion}); this one reads version ${ARCHIVE_VERSIONS.join(', ')}`);
  }
  const aliases = new Set(manifest.databases.map((d) => d.dbAlias));
  const sections = new Map<string, Map<string, unknown[]>>();
  const project = new Map<string, unknown[]>();
  for (const [name, text] of entries) {
    if (name === 'manifest.json') continue;
    const projectPart = /^project\/([a-zA-Z]+)\.json$/.exec(name);
    const projectSection = projectPart && PROJECT_SECTIONS.find((s) => s.name === projectPart[1]);
    if (projectSection) {
      const r = projectSection.rows.safeParse(parseJson(name, text));
      if (!r.success) {
        const i = r.error.issues[0]!;
        throw badRequest(`${name}: ${i.path.join('.') || 'content'}: ${i.message}`);
      }
      project.set(projectSection.name, r.data);
      continue;
    }
    const parts = /^db\/(db[0-9]*)\/([a-zA-Z]+)\.json$/.exec(name);
    const section = parts && SECTIONS.find((s) => s.name === parts[2]);
    if (!parts || !section) throw badRequest(`The zip entry '${name}' is not part of a Tablo metadata archive`);
    if (!aliases.has(parts[1]!)) throw badRequest(`The zip entry '${name}' belongs to database '${parts[1]}', which the manifest does not list`);
    const r = section.rows.safeParse(parseJson(name, text));
    if (!r.success) {
      const i = r.error.issues[0]!;
      throw badRequest(`${name}: ${i.path.join('.') || 'content'}: ${i.message}`);
    }
    const byDb = sections.get(parts[1]!) ?? new Map<string, unknown[]>();
    byDb.set(section.name, r.data);
    sections.set(parts[1]!, byDb);
  }
  return { manifest, sections, project };
}

/**
 * Applies an archive to a project: every database alias of the archive that the project has gets
 * its sections replaced in one metadata transaction; then the project reads its schema afresh.
 * Answers what was skipped (objects this database lacks, or databases the project lacks) and, in
 * `retype`, the credential header values of hooks and jobs the archive did not hold (to type again).
 */
export async function importProjectMeta(ctx: AppContext, projectId: string, archive: ParsedArchive): Promise<{ skipped: string[]; retype: string[] }> {
  const { dbs } = await databasesOf(ctx, projectId);
  const SECTIONS = databaseSections(ctx.secrets.connectionKey);
  const skipped: string[] = [];
  const retype: string[] = [];
  const plan: { dbAlias: string; rows: Map<string, unknown[]> }[] = [];
  for (const [dbAlias, sections] of archive.sections) {
    if (!dbs.some((d) => d.db_alias === dbAlias)) {
      skipped.push(`database '${dbAlias}': this project has no such database`);
      continue;
    }
    const model = (await ctx.projects.get(projectId, dbAlias)).model;
    const rows = new Map<string, unknown[]>();
    for (const s of SECTIONS) {
      const given = sections.get(s.name);
      if (given) rows.set(s.name, s.check(given, model, (what) => skipped.push(`${dbAlias}: ${what}`), await s.read(ctx.meta, projectId, dbAlias)));
    }
    plan.push({ dbAlias, rows });
  }
  const projectRows = new Map<string, unknown[]>();
  for (const s of PROJECT_SECTIONS) {
    const given = archive.project.get(s.name);
    if (given) projectRows.set(s.name, s.check(given, { tables: [], functions: [], procedures: [], sequences: [] }, (what) => skipped.push(what), await s.read(ctx.meta, projectId, 'db')));
  }
  await ctx.meta.transaction(async (tx) => {
    for (const { dbAlias, rows } of plan) {
      for (const s of SECTIONS) {
        const r = rows.get(s.name);
        if (!r) continue;
        await s.clear(tx, projectId, dbAlias);
        await s.write(tx, projectId, dbAlias, r, (what) => retype.push(`${dbAlias}: ${what}`));
      }
    }
    for (const s of PROJECT_SECTIONS) {
      const r = projectRows.get(s.name);
      if (!r) continue;
      await s.clear(tx, projectId, 'db');
      await s.write(tx, projectId, 'db', r, (what) => retype.push(what));
    }
  });
  await restart(ctx, projectId, plan.map((p) => p.dbAlias));
  return { skipped, retype };
}

/** Clears a project's metadata (all but the history of schema changes) and reads its schema afresh. */
export async function resetProjectMeta(ctx: AppContext, projectId: string): Promise<void> {
  const { dbs } = await databasesOf(ctx, projectId);
  await ctx.meta.transaction(async (tx) => {
    for (const d of dbs) for (const s of databaseSections(ctx.secrets.connectionKey).filter(clearedByReset)) await s.clear(tx, projectId, d.db_alias);
    for (const s of PROJECT_SECTIONS) await s.clear(tx, projectId, 'db');
  });
  await restart(ctx, projectId, dbs.map((d) => d.db_alias));
}

/** Drops what was cached of the project's metadata and opens its databases again. */
async function restart(ctx: AppContext, projectId: string, aliases: string[]): Promise<void> {
  // Rights are cached per project database; a save through the repository drops them, a bulk write here must too.
  for (const a of aliases) aclRepo(ctx.meta).forget(projectId, a);
  await ctx.projects.evict(projectId);
  for (const a of aliases) await ctx.projects.get(projectId, a);
}
