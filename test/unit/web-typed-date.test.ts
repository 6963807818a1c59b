import { expect, test } from 'bun:test';
import { dateOrder, typedDate } from '../../web/src/features/grid/typed-date';

test('the order of day, month and year follows the language', () => {
  expect(dateOrder('en-US')).toBe('mdy');
  expect(dateOrder('fr-FR')).toBe('dmy');
  expect(dateOrder('zh-CN')).toBe('ymd');
});

test('a date typed as the grid shows it, or in the language order, is read as YYYY-MM-DD', () => {
  expect(typedDate('2024-03-05', 'en-US')).toBe('2024-03-05');
  expect(typedDate(' 2024/3/5 ', 'fr-FR')).toBe('2024-03-05');
  expect(typedDate('12/25/2025', 'en-US')).toBe('2025-12-25');
  expect(typedDate('25/12/2025', 'fr-FR')).toBe('2025-12-25');
  expect(typedDate('25.12.2025', 'pt-BR')).toBe('2025-12-25');
  // Digits alone, as the date field's segments took them.
  expect(typedDate('12252025', 'en-US')).toBe('2025-12-25');
  expect(typedDate('25122025', 'es-ES')).toBe('2025-12-25');
});

test('text that is no real date is given back as typed, for the server to refuse', () => {
  expect(typedDate('2024-02-30', 'en-US')).toBe('2024-02-30');
  expect(typedDate('13/25/2025', 'en-US')).toBe('13/25/2025');
  expect(typedDate('garbage', 'en-US')).toBe('garbage');
  expect(typedDate('', 'en-US')).toBe('');
});
