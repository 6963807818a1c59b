/**
 * A submission to a shared form view: one row made through the data core with the link creator's
 * rights, from the form's shown fields only (any other key answers 400 naming it), its required
 * fields checked, audited as made by "shared form". An Attachment field takes only files uploaded
 * through this link (form-upload.ts), attached to the row once it is made.
 */
import * as data from '../../data/records-service';
import { findColumn } from '../../data/columns';
import { badRequest, forbidden } from '../../lib/errors';
import type { SharedLink } from './link-context';
import type { AppContext } from '../../context';
import { attachClaimed, claimUploads, uploadOwner } from '../../attachments/form-uploads';

const DEFAULT_MESSAGE = 'Thank you for submitting the form.';

const isEmpty = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '') || (Array.isArray(v) && v.length === 0);

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
  const claimed = await claimUploads(ctx, s.dc, s.table, row, uploadOwner.link(s.link.uuid), true);
  const form = s.view.query_params.form;
  for (const f of form?.fields ?? []) {
    if (!f.required) continue;
    const c = findColumn(s.table, f.cn);
    if (c && fields.includes(c) && isEmpty(claimed.body[c._cn])) throw badRequest(`'${f.label || c._cn}' is required`);
  }
  const made = await data.create(s.dc, s.table, claimed.body);
  await attachClaimed(ctx, s.table, made, claimed.ids);
  const answer: { ok: true; message: string; redirectUrl?: string } = { ok: true, message: form?.submitMessage || DEFAULT_MESSAGE };
  if (form?.redirectUrl) answer.redirectUrl = form.redirectUrl;
  return answer;
}
