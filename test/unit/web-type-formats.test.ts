/** The grid's formats by logical type, and the column form's type options turned into ColumnInput.meta. */
import { expect, test } from 'bun:test';
import type { ColumnMeta } from '../../web/src/api/dashboard';
import { attachmentsOf, chosen, formatCurrency, formatDuration, formatPercent, formatTyped } from '../../web/src/features/grid/cell-format';
import { newTypeMeta, typeMetaDraftOf, typeMetaInput, typeMetaProblem } from '../../web/src/features/schema/type-meta-draft';

const col = (uidt: string, meta: ColumnMeta['meta'] = null): ColumnMeta => ({ cn: 'c', _cn: 'C', uidt, kind: 'decimal', dt: 'decimal', pk: false, ai: false, nullable: true, enumValues: null, hidden: false, meta });

test('currency with its code and locale, percent with %, decimals to their places', () => {
  expect(formatCurrency(1234.5, 'USD', 'en-US')).toBe('$1,234.50');
  expect(formatCurrency('12.5', 'EUR', 'de-DE')).toBe('12,50\u00a0€');
  expect(formatCurrency(null)).toBe('');
  expect(formatCurrency(3, 'JPY', 'en-US')).toBe('¥3');
  expect(formatCurrency(3, 'USD', 'en-US', 0)).toBe('$3');
  expect(formatPercent(42.5)).toBe('42.5%');
  expect(formatPercent('7', 1)).toBe('7.0%');
  expect(formatTyped(col('Decimal', { precision: 2 }), 3.14159)).toBe('3.14');
  expect(formatTyped(col('SingleLineText'), 'x')).toBeNull();
});

test('durations in their format', () => {
  expect(formatDuration(5400)).toBe('1:30');
  expect(formatDuration(5399, 'h:mm')).toBe('1:30');
  expect(formatDuration(3605, 'h:mm:ss')).toBe('1:00:05');
  expect(formatDuration(1.5, 'h:mm:ss.s')).toBe('0:00:01.5');
  expect(formatDuration(-90, 'h:mm:ss')).toBe('-0:01:30');
  expect(formatTyped(col('Duration', { format: 'h:mm' }), '36000')).toBe('10:00');
});

test('select chips keep their colours; attachments show names and links', () => {
  const c = { ...col('MultiSelect', { options: [{ title: 'a', color: '#ff0000' }, { title: 'b', color: '#00ff00' }] }), kind: 'string' };
  expect(chosen(c, 'a,b')).toEqual([{ title: 'a', color: '#ff0000' }, { title: 'b', color: '#00ff00' }]);
  expect(chosen(c, ['z'])[0]!.title).toBe('z');
  expect(attachmentsOf([{ url: 'https://x.test/files/report.pdf' }, { path: 'uploads/a.png', title: 'Photo' }])).toEqual([
    { name: 'report.pdf', href: 'https://x.test/files/report.pdf' },
    { name: 'Photo', href: null },
  ]);
  expect(attachmentsOf('not json')).toEqual([]);
  // A shared link's uploaded files open through their short-lived link; a script or protocol-relative one is no link.
  expect(attachmentsOf([{ path: 'p/fl_1/a.png', title: 'a.png', signedUrl: '/api/files/fl_1?exp=1&sig=x' }, { path: 'b', title: 'b', signedUrl: 'javascript:alert(1)' }, { path: 'c', title: 'c', signedUrl: '//evil.test/c' }])).toEqual([
    { name: 'a.png', href: '/api/files/fl_1?exp=1&sig=x' },
    { name: 'b', href: null },
    { name: 'c', href: null },
  ]);
});

test('the form options become ColumnInput.meta by type, and are checked', () => {
  const m = newTypeMeta();
  expect(typeMetaInput('Currency', { ...m, currency: 'eur', places: '2' }, [])).toEqual({ currency: 'EUR', precision: 2 });
  expect(typeMetaInput('Rating', { ...m, max: '10', icon: 'heart' }, [])).toEqual({ max: 10, icon: 'heart' });
  expect(typeMetaInput('Duration', { ...m, format: 'h:mm:ss' }, [])).toEqual({ format: 'h:mm:ss' });
  expect(typeMetaInput('Attachment', { ...m, maxFiles: '3', accept: 'image/*, .pdf' }, [])).toEqual({ maxFiles: 3, accept: ['image/*', '.pdf'] });
  expect(typeMetaInput('Email', m, [])).toBeUndefined();
  expect(typeMetaProblem('Rating', { ...m, max: '11' })).toBe('Maximum rating must be from 1 to 10');
  expect(typeMetaProblem('Percent', { ...m, places: '9' })).toBe('Decimal places must be a whole number from 0 to 8');
  expect(typeMetaProblem('Attachment', { ...m, maxFiles: '0' })).toBe('Maximum files must be a positive whole number');
  expect(typeMetaProblem('Currency', m)).toBeNull();
  expect(typeMetaDraftOf(col('Rating', { max: 3, icon: 'heart' }))).toMatchObject({ max: '3', icon: 'heart' });
});

test('a rollup of a typed column is formatted as that column', () => {
  const rollup = { ...col('Rollup'), virtual: { _cn: 'Total', uidt: 'Rollup' as const, shows: { uidt: 'Currency', meta: { currency: 'EUR', locale: 'de-DE' } } } };
  expect(formatTyped(rollup, 12.5)).toBe('12,50\u00a0€');
  expect(formatTyped({ ...col('Rollup'), virtual: { _cn: 'Count', uidt: 'Rollup' as const } }, 3)).toBeNull();
});
