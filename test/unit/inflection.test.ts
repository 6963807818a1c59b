/** Inflection of SQL names into API aliases (api-contract section 1). */
import { describe, expect, test } from 'bun:test';
import { camelize, inflect } from '../../src/lib/inflection';

describe('camelize', () => {
  test.each([
    ['film_actor', 'FilmActor'],
    ['last_update', 'LastUpdate'],
    ['AlbumId', 'AlbumId'],
    ['album_id', 'AlbumId'],
    ['name with space', 'NameWithSpace'],
    ['order', 'Order'],
    ['MixedCase_table', 'MixedCaseTable'],
    ['__double__underscore__', 'DoubleUnderscore'],
    ['état_civil', 'ÉtatCivil'],
    ['日本_語', '日本語'],
    ['col-with.dots', 'ColWithDots'],
    ['2nd_place', '2ndPlace'],
  ])('%s -> %s', (name, alias) => {
    expect(camelize(name)).toBe(alias);
  });

  test('a name made only of separators is kept as it is', () => {
    expect(camelize('__')).toBe('__');
  });
});

describe('inflect', () => {
  test('none keeps the SQL name; camelize is the default', () => {
    expect(inflect('film_actor', 'none')).toBe('film_actor');
    expect(inflect('name with space', 'none')).toBe('name with space');
    expect(inflect('film_actor')).toBe('FilmActor');
  });
});
