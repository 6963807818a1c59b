/**
 * The preview step: the first rows of the file under its headers, with per column a type select
 * (new table: the detected type, changeable, or skip) or a mapping select (existing table: one of
 * its columns, or skip).
 */
import type { ColumnMeta } from '../../api/dashboard';
import { IMPORT_TYPES, type ColumnSpec, type UploadAnswer } from '../../api/transfer';
import { t } from '../../i18n';
import { previewErrors } from './import-store';

/** A column type's name in the current language. */
const typeName = (type: string) => t('tools.import.typeName', { type });

export function ImportPreview(props: { answer: UploadAnswer; specs: ColumnSpec[]; onChange: (specs: ColumnSpec[]) => void; columns: ColumnMeta[] | null }) {
  const { answer, specs } = props;
  const set = (i: number, change: Partial<ColumnSpec>) => props.onChange(specs.map((s, j) => (j === i ? { ...s, ...change } : s)));
  const errors = previewErrors(answer);
  return (
    <div className="import-preview" role="region" aria-label={t('tools.import.preview')}>
      <table>
        <thead>
          <tr>
            {answer.preview.columns.map((c, i) => (
              <th key={c.index} className={specs[i]?.skip ? 'import-skipped' : undefined}>
                <div className="import-header">{c.header}</div>
                {props.columns ? (
                  <select aria-label={t('tools.import.columnFor', { header: c.header })} value={specs[i]?.skip ? '' : (specs[i]?.cn ?? '')} onChange={(e) => set(i, e.target.value ? { cn: e.target.value, skip: false } : { cn: undefined, skip: true })}>
                    <option value="">{t('tools.import.skip')}</option>
                    {props.columns.map((m) => (
                      <option key={m.cn} value={m.cn}>
                        {m._cn}
                      </option>
                    ))}
                  </select>
                ) : (
                  <select aria-label={t('tools.import.typeOf', { header: c.header })} value={specs[i]?.skip ? 'skip' : (specs[i]?.type ?? c.type)} onChange={(e) => set(i, e.target.value === 'skip' ? { skip: true } : { skip: false, type: e.target.value as ColumnSpec['type'] })}>
                    {IMPORT_TYPES.map((type) => (
                      <option key={type} value={type}>
                        {type === c.type ? t('tools.import.detected', { type: typeName(type) }) : typeName(type)}
                      </option>
                    ))}
                    <option value="skip">{t('tools.import.skip')}</option>
                  </select>
                )}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {answer.preview.rows.map((r, i) => (
            <tr key={i}>
              {r.map((v, j) => {
                // A cell holding an error (#DIV/0!...) shows it, marked: it has no value to import.
                const error = errors.get(`${i}:${j}`);
                if (error === undefined) {
                  return (
                    <td key={j} className={specs[j]?.skip ? 'import-skipped' : undefined} title={v}>
                      {v}
                    </td>
                  );
                }
                const says = t('tools.import.cellError', { error });
                return (
                  <td key={j} className={`import-cell-error${specs[j]?.skip ? ' import-skipped' : ''}`} title={says} aria-label={says}>
                    {error}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The first specs: new table, every column with its detected type; existing table, columns of the same name mapped. */
export function initialSpecs(answer: UploadAnswer, columns: ColumnMeta[] | null): ColumnSpec[] {
  return answer.preview.columns.map((c) => {
    if (!columns) return { index: c.index, type: c.type };
    const h = c.header.toLowerCase();
    const m = columns.find((x) => x._cn.toLowerCase() === h || x.cn.toLowerCase() === h);
    return m ? { index: c.index, cn: m.cn } : { index: c.index, skip: true };
  });
}
