/**
 * Uploaded file names made safe: only the last path segment is kept (`../../x.png` and `C:\x.png`
 * become `x.png`), control characters and characters that mean something in paths are replaced
 * (quotes stay: headers encode the name, storage keys replace them), and names that are empty, `.`
 * or `..` afterwards are refused (400).
 */
import { badRequest } from '../lib/errors';

const MAX_NAME = 200;

export function safeFileName(raw: string): string {
  // Browsers send a quote and line breaks of a file name as %22, %0A and %0D (HTML's multipart
  // encoding), older clients a quote as \": back to what the user named the file.
  const sent = raw.replace(/%(22|0a|0d)/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))).replace(/\\"/g, '"');
  const last = sent.split(/[\\/]/).pop() ?? '';
  let name = last.replace(/[\u0000-\u001f\u007f<>|:*?%]/g, '_').trim();
  name = name.replace(/^\.+/, (dots) => (dots.length === name.length ? dots : '')).trim();
  if (!name || name === '.' || name === '..' || /^\.+$/.test(name)) throw badRequest(`'${raw.slice(0, 100)}' is not a usable file name`);
  if (name.length > MAX_NAME) {
    const dot = name.lastIndexOf('.');
    const ext = dot > 0 && name.length - dot <= 16 ? name.slice(dot) : '';
    name = name.slice(0, MAX_NAME - ext.length) + ext;
  }
  return name;
}

/** Whether a file matches an `accept` entry (`image/*`, `application/pdf`, `.pdf`). */
export function acceptedFile(name: string, type: string, accept: string[]): boolean {
  const n = name.toLowerCase();
  const t = type.toLowerCase();
  return accept.some((a) => (a.startsWith('.') ? n.endsWith(a.toLowerCase()) : a.endsWith('/*') ? t.startsWith(a.slice(0, -1).toLowerCase()) : t === a.toLowerCase()));
}
