/** The App Store's pure parts: plugin forms read from the zod schemas, masking, and safe file names. */
import { describe, expect, test } from 'bun:test';
import { PLUGINS, pluginByTitle } from '../../src/plugins/catalog';
import { fieldsOf, maskInput, MASK, secretNames } from '../../src/plugins/fields';
import { acceptedFile, safeFileName } from '../../src/attachments/file-names';
import { contentDisposition } from '../../src/http/content-disposition';

describe('plugin forms', () => {
  test('every plugin has a field list; secrets are the password, the S3 secret and the chat URLs', () => {
    for (const p of PLUGINS) expect(fieldsOf(p).length).toBeGreaterThan(0);
    expect(secretNames(pluginByTitle('SMTP')!)).toEqual(['password']);
    expect(secretNames(pluginByTitle('S3')!)).toEqual(['secretAccessKey']);
    expect(secretNames(pluginByTitle('Slack')!)).toEqual(['webhookUrl']);
    expect(secretNames(pluginByTitle('Branding')!)).toEqual([]);
    expect(fieldsOf(pluginByTitle('SMTP')!).find((f) => f.name === 'secure')).toEqual({ name: 'secure', type: 'boolean', label: 'Use TLS from the start (port 465)', required: false, secret: false, default: false });
    expect(fieldsOf(pluginByTitle('SMTP')!).find((f) => f.name === 'host')!.required).toBe(true);
  });

  test("the Local folder stays out of the folders Tablo keeps for itself", () => {
    const local = pluginByTitle('Local')!.schema;
    for (const folder of ['keys', 'xcdb/files', 'tmp/imports', 'TMP', 'branding', 'workspace']) {
      const r = local.safeParse({ folder });
      expect(r.success, folder).toBe(false);
      expect(r.error!.issues[0]!.message).toBe('Folder may not be one Tablo keeps for itself (keys, xcdb, tmp, branding, workspace)');
    }
    for (const folder of ['attachments', 'files/b', 'my-keys', 'tmpfiles']) expect(local.safeParse({ folder }).success, folder).toBe(true);
  });

  test('masking replaces set secrets only', () => {
    const p = pluginByTitle('SMTP')!;
    expect(maskInput(p, { host: 'h', password: 'pw' })).toEqual({ host: 'h', password: MASK });
    expect(maskInput(p, { host: 'h' })).toEqual({ host: 'h' });
  });
});

describe('file names', () => {
  test('only the last segment is kept; control and path characters go; dot names are refused', () => {
    expect(safeFileName('../../etc/passwd')).toBe('passwd');
    expect(safeFileName('C:\\Users\\me\\photo.png')).toBe('photo.png');
    expect(safeFileName('a\u0000b<c>.txt')).toBe('a_b_c_.txt');
    expect(safeFileName('.htaccess')).toBe('htaccess');
    expect(() => safeFileName('..')).toThrow();
    expect(() => safeFileName('dir/')).toThrow();
    expect(safeFileName(`${'x'.repeat(300)}.png`)).toHaveLength(200);
    expect(safeFileName(`${'x'.repeat(300)}.png`).endsWith('.png')).toBe(true);
  });

  test('quotes stay, as browsers (%22) or older clients (\\") send them; line breaks go; a header never breaks', () => {
    expect(safeFileName('say %22hi%22; Año.txt')).toBe('say "hi"; Año.txt');
    expect(safeFileName('it\\"s.txt')).toBe('it"s.txt');
    expect(safeFileName('a%0Ab%0d.txt')).toBe('a_b_.txt');
    expect(safeFileName('..%22/x.txt')).toBe('x.txt');
    expect(contentDisposition('attachment', 'a"b\\c;\r\nd 😀.txt')).toBe(`attachment; filename="a_b_c___d _.txt"; filename*=UTF-8''a%22b%5Cc%3B%0D%0Ad%20%F0%9F%98%80.txt`);
  });

  test('accept entries match by extension, exact type or type family', () => {
    expect(acceptedFile('a.PDF', 'application/pdf', ['.pdf'])).toBe(true);
    expect(acceptedFile('a.png', 'image/png', ['image/*'])).toBe(true);
    expect(acceptedFile('a.zip', 'application/zip', ['image/*', '.txt'])).toBe(false);
  });
});
