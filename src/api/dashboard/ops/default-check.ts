/**
 * A column's default is checked as a value written to it would be: a Number defaulting to 'abc',
 * a Date to 'not a date', a SingleSelect to a choice it does not have or an Email to 'nope' answer
 * 400 before any SQL runs (SQLite took them all, and every new row then held a value its column
 * refuses).
 */
import type { Engine } from '../../../sql/dialect';
import { ENGINES } from '../../../sql/engines';
import { lookupNative } from '../../../sql/type-map';
import { nativeTypeOf, type DefaultInput } from '../../../schema/column-input';
import type { ColumnModel, UiType } from '../../../schema/model';
import { writeValue } from '../../../data/logical-values';
import { AppError, badRequest, isAppError } from '../../../lib/errors';

/** What the default of a column is checked against: its logical type, size and choices. */
export interface DefaultTarget {
  cn: string;
  _cn?: string;
  uidt: UiType;
  dtxp?: string;
  options?: string[];
  meta?: ColumnModel['meta'];
}

/** 400 naming the column when `d` is no value the column takes ('now' is a DateTime's current time). */
export function checkDefault(engine: Engine, col: DefaultTarget, d: DefaultInput | undefined): void {
  if (d === undefined || d === null) return;
  if (col.uidt === 'ID') throw badRequest(`Column '${col._cn ?? col.cn}' is an ID: it takes no default`);
  if (typeof d === 'string' && col.uidt === 'DateTime' && /^(now|current_timestamp)(\(\))?$/i.test(d.trim())) return;
  const native = nativeTypeOf(engine, col.uidt, col.dtxp);
  const size = /\((\d+)\)/.exec(native);
  const model: ColumnModel = {
    cn: col.cn, _cn: col._cn ?? col.cn, dt: native, dtx: native, uidt: col.uidt, kind: lookupNative(ENGINES[engine].types, native).kind,
    pk: false, ai: false, nullable: true, default: null, length: size ? Number(size[1]) : null,
    ...(col.options?.length ? { enumValues: col.options } : {}), ...(col.meta ? { meta: col.meta } : {}),
  };
  try {
    writeValue(model, d);
  } catch (e) {
    if (!isAppError(e)) throw e;
    throw new AppError(e.code, `The default of ${e.message.replace(/^Column /, 'column ')}`);
  }
}
