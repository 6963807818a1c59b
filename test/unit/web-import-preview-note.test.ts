/**
 * The note under an import's preview: a file of fewer rows than the preview shows is named as the
 * whole file (one row in the singular), a file the detection read whole is said to be, and a larger
 * one shows its first rows and the rows the types came from; in the five languages.
 */
import { expect, test } from 'bun:test';
import { previewNote } from '../../web/src/features/import/import-store';
import { LIMITS } from '../../web/src/lib/limits';
import { SAMPLE_ROWS } from '../../src/api/transfer/uploads';
import { inLocale } from '../helpers/web-locale';
import type { LocaleCode } from '../../web/src/i18n';

const preview = (rows: number, sampled: number) => ({ columns: [], rows: Array.from({ length: rows }, () => ['x']), sampled });
const notes = (code: LocaleCode) => {
  let out: string[] = [];
  inLocale(code, () => (out = [previewNote(preview(1, 1)), previewNote(preview(3, 3)), previewNote(preview(20, 500)), previewNote(preview(20, 1000))]));
  return out;
};

test('the web app knows how many rows the server reads for the detection', () => {
  expect(LIMITS.importSampleRows).toBe(SAMPLE_ROWS);
});

test('one row, a few rows, a file read whole and a larger file are each said in their own words', () => {
  expect(notes('en')).toEqual([
    "The file's only row; types detected from it.",
    'All 3 rows of the file; types detected from them.',
    'The first 20 rows; types detected from all 500 rows of the file.',
    'The first 20 rows; types detected from the first 1,000.',
  ]);
  expect(notes('fr')).toEqual([
    'La seule ligne du fichier ; types détectés d’après elle.',
    'Les 3 lignes du fichier ; types détectés d’après elles.',
    'Les 20 premières lignes ; types détectés d’après les 500 lignes du fichier.',
    'Les 20 premières lignes ; types détectés d’après les 1\u202f000 premières.',
  ]);
  expect(notes('es')[0]).toBe('La única fila del archivo; tipos detectados a partir de ella.');
  expect(notes('pt')[1]).toBe('As 3 linhas do arquivo; tipos detectados a partir delas.');
  expect(notes('zh_CN')[2]).toBe('前 20 行；类型根据文件的全部 500 行检测。');
});
