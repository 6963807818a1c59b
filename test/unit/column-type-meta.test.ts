/**
 * The type options' checks (schema/column-type-meta.ts): DateTime's `touch` (set to the time of
 * each change) is taken by DateTime columns only, others refuse it naming the option.
 */
import { expect, test } from 'bun:test';
import { parseTypeMeta, shownTypeMeta, typeMetaChange } from '../../src/schema/column-type-meta';
import { isAppError } from '../../src/lib/errors';

/** The 400 message of a refused option. */
function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    if (isAppError(e) && e.status === 400) return e.message;
    throw e;
  }
  throw new Error('not refused');
}

test('touch: a DateTime column takes it; a Number, Currency or Date column refuses it naming it', () => {
  expect(parseTypeMeta('DateTime', { touch: true })).toEqual({ touch: true });
  expect(parseTypeMeta('DateTime', { touch: false })).toEqual({ touch: false });
  expect(parseTypeMeta('DateTime', undefined)).toEqual({});
  expect(refusal(() => parseTypeMeta('DateTime', { touch: 'yes' }))).toBe('meta.touch: touch is true or false');
  expect(refusal(() => parseTypeMeta('DateTime', { max: 5 }))).toBe("meta: a DateTime column takes no option 'max'");
  expect(refusal(() => parseTypeMeta('Number', { touch: true }))).toBe("meta: a Number column takes no options ('touch' given)");
  expect(refusal(() => parseTypeMeta('Date', { touch: true }))).toBe("meta: a Date column takes no options ('touch' given)");
  expect(refusal(() => parseTypeMeta('Currency', { touch: true }))).toBe("meta: a Currency column takes no option 'touch'");
});

test('touch: shown off by default, kept by an edit that leaves it out, dropped by a type change', () => {
  expect(shownTypeMeta({ uidt: 'DateTime' })).toEqual({ touch: false });
  expect(shownTypeMeta({ uidt: 'DateTime', meta: { touch: true } })).toEqual({ touch: true });
  const current = { uidt: 'DateTime' as const, meta: { touch: true } };
  expect(typeMetaChange('DateTime', undefined, undefined, current).meta).toEqual({ touch: true });
  expect(typeMetaChange('DateTime', { touch: false }, undefined, current).meta).toEqual({ touch: false });
  expect(typeMetaChange('Date', undefined, undefined, current).meta).toBeUndefined();
});
