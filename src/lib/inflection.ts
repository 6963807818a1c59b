/**
 * Inflection: how SQL names become API aliases. `camelize` (the default for new projects) turns
 * `film_actor` into `FilmActor`, `last_update` into `LastUpdate`, keeps `AlbumId`, and joins
 * words split by spaces or punctuation; `none` keeps the SQL name.
 */
export type Inflection = 'camelize' | 'none';

export function camelize(name: string): string {
  const words = name.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  if (words.length === 0) return name;
  return words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('');
}

export function inflect(name: string, how: Inflection = 'camelize'): string {
  return how === 'none' ? name : camelize(name);
}
