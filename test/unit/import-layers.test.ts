/**
 * Imports flow one way (docs/development.md): `common/` imports nothing of the project; the web app
 * never imports the server; in the server, `lib` <- `sql` <- `schema` <- `data` <- `api` <- `app.ts`,
 * so a lower layer never imports a higher one.
 */
import { describe, expect, test } from 'bun:test';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = join(import.meta.dir, '../..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

/** The project files a source file imports (relative specifiers only), as paths from the repository root. */
function projectImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|(?:^|\n)\s*import\s+['"]([^'"]+)['"]/g)].map((m) => m[1] ?? m[2] ?? m[3]!);
  return specs.filter((s) => s.startsWith('.')).map((s) => relative(ROOT, resolve(dirname(file), s)));
}

const importsOf = (dir: string) => sourceFiles(join(ROOT, dir)).flatMap((f) => projectImports(f).map((to) => ({ from: relative(ROOT, f), to })));

/** Server layers from the bottom; a file may import its own layer and the ones below it. */
const LAYERS = ['src/lib', 'src/sql', 'src/schema', 'src/data'];
const layerOf = (path: string) => LAYERS.findIndex((l) => path === l || path.startsWith(l + '/'));

describe('imports flow one way', () => {
  test('common/ imports nothing of the project but itself', () => {
    expect(importsOf('common').filter((i) => !i.to.startsWith('common/'))).toEqual([]);
  });

  test('the web app imports no server file, only its own and common/', () => {
    expect(importsOf('web/src').filter((i) => !i.to.startsWith('web/') && !i.to.startsWith('common/'))).toEqual([]);
  });

  test('the server imports no web file but the page it embeds', () => {
    // src/http/web.ts embeds the built app through its index.html; nothing else of web/ is the server's.
    expect(importsOf('src').filter((i) => i.to.startsWith('web/') && i.to !== 'web/index.html')).toEqual([]);
  });

  test('lib, sql, schema and data import no layer above them', () => {
    const upward = LAYERS.flatMap((layer) =>
      importsOf(layer)
        .filter((i) => i.to.startsWith('src/'))
        .filter((i) => {
          const to = layerOf(i.to);
          // Anything outside the four layers sits above them (api, http, auth, the features, app.ts), except config/ and meta/ beside lib.
          return to === -1 ? !/^src\/(config|meta)\//.test(i.to) : to > layerOf(i.from);
        }),
    );
    expect(upward).toEqual([]);
  });
});
