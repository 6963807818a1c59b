/**
 * A submission to a shared form view: one row made through the data core with the link creator's
 * rights, from the form's shown fields only (any other key answers 400 naming it), its required
 * fields checked, audited as made by "shared form". An Attachment field takes only files uploaded
 * through this link (form-upload.ts), attached to the row once it is made. A submission answering
 * no field (blank text, no files, unticked checkboxes) is refused: a form sets no values of its own
 * (no defaults, no hidden answers), so it would only make an empty row.
 */
import * as data from '../../data/records-service';
import { findColumn } from '../../data/columns';
import { badRequest, conflict, forbidden, isAppError } from '../../lib/errors';
import type { FormField } from '../../meta/views-repo';
import { requiredColumns } from '../../data/records-write';
import type { SharedLink } from './link-context';
import type { ColumnModel } from '../../schema/model';
import type { AppContext } from '../../context';
import { attachClaimed, claimUploads, uploadOwner } from '../../attachments/form-uploads';

const DEFAULT_MESSAGE = 'Thank you for submitting the form.';
/** A submission with no field filled in (the web form says the same before sending). */
export const FORM_NOTHING_FILLED = 'Fill in at least one field';
/**
 * A form that leaves out a column its table cannot do without: no one filling it in can send it. The
 * column is not named (the form hides it); the owner finds it as the one the form builder leaves out.
 */
export const FORM_MISSES_REQUIRED = "This form cannot be sent: its table needs a value the form does not ask for. Please tell the form's owner.";

const isEmpty = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '') || (Array.isArray(v) && v.length === 0);
/** A required checkbox ("I accept the terms") is answered only when ticked, as the web form asks. */
const isTicked = (v: unknown) => v === true || v === 1 || v === '1' || (typeof v === 'string' && v.trim().toLowerCase() === 'true');
const unanswered = (c: ColumnModel, v: unknown) => (c.kind === 'boolean' ? !isTicked(v) : isEmpty(v));

/**
 * A refused value as the form words it: the data core names the column (`Column 'FirstName' is longer than
 * 40 characters`), the person filling in the form sees the field's label ('Your name' is longer than ...).
 */
function inFormWords(e: unknown, s: SharedLink, fields: FormField[]): unknown {
  if (!isAppError(e) || e.code !== 'BAD_REQUEST') return e;
  for (const f of fields) {
    const c = findColumn(s.table, f.cn);
    const label = f.label?.trim();
    if (c && label && e.message.startsWith(`Column '${c._cn}'`)) return badRequest(`'${label}'${e.message.slice(`Column '${c._cn}'`.length)}`);
  }
  return e;
}

/**
 * Whether the form leaves out a column its table cannot do without (one the form does not show, or its
 * creator may not set on a new row): no submission can succeed, and the link's description says so.
 */
export const formMissesRequired = (s: SharedLink): boolean => {
  const fields = s.columns.filter((c) => !c.virtual);
  return requiredColumns(s.table).some((c) => !fields.includes(c));
};

/** Creates the row; answers `{ ok: true, message, redirectUrl? }`. */
export async function submitForm(ctx: AppContext, s: SharedLink, body: unknown): Promise<{ ok: true; message: string; redirectUrl?: string }> {
  if (s.view.type !== 'form') throw forbidden('Only a shared form accepts submissions');
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw badRequest('The body must be a JSON object of field values');
  const fields = s.columns.filter((c) => !c.virtual);
  const row: Record<string, unknown> = {};
  const unknown: string[] = [];
  for (const [name, value] of Object.entries(body as Record<string, unknown>)) {
    const c = findColumn(s.table, name);
    if (!c || !fields.includes(c)) unknown.push(name);
    else row[c._cn] = value;
  }
  if (unknown.length) throw badRequest(unknown.length === 1 ? `Column '${unknown[0]}' not found` : `Columns ${unknown.map((n) => `'${n}'`).join(', ')} not found`);
  if (formMissesRequired(s)) throw conflict(FORM_MISSES_REQUIRED);
  const claimed = await claimUploads(ctx, s.dc, s.table, row, uploadOwner.link(s.link.uuid), true);
  const form = s.view.query_params.form;
  for (const f of form?.fields ?? []) {
    if (!f.required) continue;
    const c = findColumn(s.table, f.cn);
    if (c && fields.includes(c) && unanswered(c, claimed.body[c._cn])) throw badRequest(`'${f.label || c._cn}' is required`);
  }
  if (fields.every((c) => unanswered(c, claimed.body[c._cn]))) throw badRequest(FORM_NOTHING_FILLED);
  const made = await data.create(s.dc, s.table, claimed.body).catch((e: unknown) => {
    throw inFormWords(e, s, form?.fields ?? []);
  });
  await attachClaimed(ctx, s.table, made, claimed.ids);
  const answer: { ok: true; message: string; redirectUrl?: string } = { ok: true, message: form?.submitMessage || DEFAULT_MESSAGE };
  if (form?.redirectUrl) answer.redirectUrl = form.redirectUrl;
  return answer;
}
