/** The API client shows an answer as text only when it is text: a textual (or no) media type and UTF-8 bytes. */
import { expect, test } from 'bun:test';
import { base64Bytes, keptResponse, responseBody } from '../../web/src/features/api-client/request-model';
import { isTextBody } from '../../src/api/clients/http-send';

const utf8 = (s: string) => new TextEncoder().encode(s);

test('JSON, text, XML and answers without a type are text', () => {
  expect(responseBody('application/json; charset=utf-8', utf8('{"a":"é"}'))).toEqual({ data: '{"a":"é"}' });
  expect(responseBody('text/csv', utf8('a,b')).data).toBe('a,b');
  expect(responseBody('application/problem+json', utf8('{}')).data).toBe('{}');
  expect(responseBody('application/xml', utf8('<a/>')).data).toBe('<a/>');
  expect(responseBody(null, utf8('plain')).data).toBe('plain');
});

test('images, PDFs and bytes that are not UTF-8 are binary, with their bytes and type', async () => {
  const png = base64Bytes('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==');
  const image = responseBody('image/png', png);
  expect(image.binary).toBe('image/png');
  expect(image.data).toBe('');
  expect([...new Uint8Array(await image.blob!.arrayBuffer())]).toEqual([...png]);
  expect(responseBody('application/pdf', utf8('%PDF-1.7')).binary).toBe('application/pdf');
  expect(responseBody('text/plain', new Uint8Array([0xff, 0xfe, 0x00])).binary).toBe('text/plain');
  expect(responseBody(null, new Uint8Array([0xc3])).binary).toBe('');
});

test('the history keeps a binary answer without its bytes', () => {
  const r = { status: 200, headers: [], data: '', binary: 'image/png', blob: new Blob([new Uint8Array([1])]), size: 1, timeTaken: 1 };
  expect(keptResponse(r)).toEqual({ ...r, blob: undefined });
  expect(JSON.stringify(keptResponse(r))).not.toContain('blob');
});

test('the server reads a body cut at its cap inside a character as text', () => {
  const cut = utf8('ab€').subarray(0, 3); // '€' is three bytes: one of them kept
  expect(isTextBody('text/plain', cut, true)).toBe(true);
  expect(isTextBody('text/plain', cut, false)).toBe(false);
  expect(isTextBody('image/gif', utf8('GIF89a'))).toBe(false);
});
