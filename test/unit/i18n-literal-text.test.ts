/** The finder of interface text written in code (scripts/i18n/literal-text.ts), and web/src kept free of it. */
import { describe, expect, test } from 'bun:test';
import { literalText, scan } from '../../scripts/i18n/literal-text';

const texts = (source: string, file = 'x.tsx') => literalText(file, source).map((f) => f.text);

describe('literal interface text', () => {
  test('JSX text, text attributes, label properties, toasts, errors and conditionals are found', () => {
    const found = texts(`
      export function A({ busy }: { busy: boolean }) {
        toast('error', 'Could not save');
        const items = [{ id: 'x', label: 'Sort ascending' }];
        if (!busy) throw new Error('Table name is required');
        return <div aria-label="Row actions" title={\`Open \${items.length}\`}>Add row {busy ? 'Saving…' : 'Save'}</div>;
      }`);
    expect(found).toEqual(["toast('Could not save')", "label: 'Sort ascending'", "new Error('Table name is required')", 'aria-label="Row actions"', 'title="Open …"', 'Add row', "'Saving…'", "'Save'"]);
  });

  test('class names, codes, keys, translated calls and ignored lines are left alone', () => {
    const found = texts(`
      export function B({ on }: { on: boolean }) {
        toast('success', t('grid.saved'));
        const kind = on ? 'error' : 'info';
        const method = on ? 'GET' : 'POST';
        const data = { label: 'Branding' }; // i18n-ignore
        return <div className={on ? 'btn btn-primary' : 'btn'} aria-label={t('grid.rowActions')}>{t('grid.addRow')} {kind} {method} {data.label}</div>;
      }`);
    expect(found).toEqual([]);
  });

  test('plain .ts files are read without JSX', () => {
    expect(texts(`export const C = { title: 'Delete rows' };`, 'c.ts')).toEqual(["title: 'Delete rows'"]);
  });

  test('the web app holds no interface text outside the catalogues', () => {
    expect(scan(['web/src']).map((f) => `${f.file}:${f.line} ${f.text}`)).toEqual([]);
  });
});
