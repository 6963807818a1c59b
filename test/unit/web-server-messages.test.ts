/**
 * The catalogue of server messages (web/src/i18n/server-messages.ts): every template is still a
 * message the server sends (a reworded message fails here instead of losing its translation),
 * every language translates every template with the same placeholders, and errorText shows a
 * real server message in the reader's language with its names and values.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { LOCALES } from '../../web/src/i18n';
import { placeholdersOf, SERVER_MESSAGES, translateServerMessage } from '../../web/src/i18n/server-messages';
import { coerceValue } from '../../src/data/values';
import { driverError, toAppError } from '../../src/sql/driver-errors';
import { classifyMysql } from '../../src/sql/mysql/errors';
import { checkSqlName } from '../../src/schema/change-plan';
import { FORM_NOTHING_FILLED } from '../../src/api/shared/form-submit';
import { parseWhere } from '../../src/data/where-parser';
import type { ColumnModel, TableModel } from '../../src/schema/model';
import { inLocale } from '../helpers/web-locale';
import { assertReachable, refusedTarget } from '../../src/api/clients/address-guard';
import { sendOnce, type HookPayload } from '../../src/hooks/send';
import { leftJobMessage } from '../../src/api/transfer/import-job';

// The web app's HTTP client keeps its session in localStorage: a store for the time of this file.
const hadStorage = 'localStorage' in globalThis;
const kept = new Map<string, string>();
if (!hadStorage) Object.assign(globalThis, { localStorage: { getItem: (k: string) => kept.get(k) ?? null, setItem: (k: string, v: string) => void kept.set(k, v), removeItem: (k: string) => void kept.delete(k) } });
const { errorText } = await import('../../web/src/api/http');
const { outcome, problemReason } = await import('../../web/src/features/import/import-store');
afterAll(() => {
  if (!hadStorage) delete (globalThis as { localStorage?: unknown }).localStorage;
});

const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
const server = files('src').map((p) => readFileSync(p, 'utf8')).join('\n');

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A `${…}` of a template literal (one level of nested braces or template literals inside). */
const EXPRESSION = '\\$\\{(?:[^{}`]|`[^`]*`|\\{[^{}]*\\})*?\\}';

/**
 * Where a template is in the server's sources: a whole string literal ('…', "…" or `…`) with its
 * literal parts as they are and a `${…}` in place of each placeholder.
 */
function inSources(template: string): boolean {
  const parts = template.split(/\{\w+\}/);
  if (parts.length === 1) return [`'${template}'`, `"${template}"`, `\`${template}\``].some((q) => server.includes(q));
  return new RegExp('`' + parts.map(escape).join(EXPRESSION) + '`').test(server);
}

/**
 * Messages the server composes from two pieces: the template as the sources write it, and the
 * string literal of the sources that fills its composed placeholder.
 */
const valueCheck = (what: string) => ({ source: "Column '{column}': {value} is not {what}", fills: { what } });
const COMPOSED: Record<string, { source: string; fills: Record<string, string> }> = {
  'cell.notWholeNumber': valueCheck('a whole number'),
  'cell.notNumber': valueCheck('a number'),
  'cell.notBoolean': valueCheck('true or false'),
  'cell.notDate': valueCheck('a date (YYYY-MM-DD)'),
  'cell.notTime': valueCheck('a time (HH:MM:SS)'),
  'cell.notDateTime': valueCheck('a date and time (YYYY-MM-DD HH:MM:SS)'),
  'cell.notJson': valueCheck('valid JSON'),
  'cell.notText': valueCheck('text'),
  // A refused write names its operation (access.ts).
  'row.notAllowedCreate': { source: "Not allowed to {op} rows of '{table}'", fills: { op: 'create' } },
  'row.notAllowedDelete': { source: "Not allowed to {op} rows of '{table}'", fills: { op: 'delete' } },
  // The prefix of a bulk call's messages (records-write.ts), around another message.
  rowPrefix: { source: 'Row {row}: {message}', fills: {} },
  // A schema change's failed step (ddl-runner.ts), around the database's message; the tail says what became of the steps before.
  'schema.stepFailed': { source: 'Step {step} of {n} failed: {message}{tail}', fills: { tail: '' } },
  // An address the server does not send requests to names what it is (address-guard.ts).
  ...Object.fromEntries(
    Object.entries({
      Loopback: 'a loopback address',
      Private: 'a private network address',
      LinkLocal: 'a link-local address',
      Unspecified: 'an unspecified address',
      Shared: 'a shared (carrier) network address',
      Reserved: 'a reserved address',
      Benchmarking: 'a benchmarking network address',
      Multicast: 'a multicast address',
    }).map(([k, why]) => [`clients.refused${k}`, { source: "'{host}' is {why} ({address}): the server does not send requests there unless NC_API_CLIENT_ALLOW_PRIVATE=1", fills: { why } }]),
  ),  // An import left running by a server that ended abruptly: why, then what became of its rows (import-job.ts).
  ...Object.fromEntries(
    Object.entries({
      leftKept: '{why}; the rows imported until then were kept, the rest were not: upload the rest again',
      leftNothing: '{why}; nothing was imported: upload the file again',
      leftTableEmpty: '{why}; nothing was imported, the table {table} it created is left empty: upload the file again',
    }).map(([k, source]) => [`import.${k}`, { source, fills: { why: 'Stopped: the server stopped while importing (it was ended abruptly)' } }]),
  ),
};

/** Whether a composed template is its source template with the literals in place, all of them in the sources. */
function composedInSources(template: string, { source, fills }: { source: string; fills: Record<string, string> }): boolean {
  const filled = source.replace(/\{(\w+)\}/g, (whole, name: string) => fills[name] ?? whole);
  return filled === template && inSources(source) && Object.values(fills).every((v) => server.includes(`'${v}'`));
}

const en = SERVER_MESSAGES.en;
const others = LOCALES.map((l) => l.code).filter((c) => c !== 'en');

describe('server message templates', () => {
  test('every template is a message the server still sends', () => {
    const missing = Object.entries(en).filter(([key, template]) => {
      const composed = COMPOSED[key];
      return composed ? !composedInSources(template, composed) : !inSources(template);
    });
    expect(missing.map(([k, v]) => `${k}: ${v}`)).toEqual([]);
  });

  test('a template has no placeholder twice and no two templates are the same', () => {
    expect(Object.values(en).filter((v) => new Set(placeholdersOf(v)).size !== placeholdersOf(v).length)).toEqual([]);
    expect(new Set(Object.values(en)).size).toBe(Object.keys(en).length);
  });

  for (const c of others) {
    test(`${c} translates every template with the same placeholders`, () => {
      const other = SERVER_MESSAGES[c];
      expect(Object.keys(en).filter((k) => !(k in other))).toEqual([]);
      expect(Object.keys(other).filter((k) => !(k in en))).toEqual([]);
      const sorted = (s: string) => placeholdersOf(s).sort().join();
      expect(Object.keys(en).filter((k) => sorted(en[k]!) !== sorted(other[k] ?? ''))).toEqual([]);
      // Messages of two words or more: at most a tenth may read as in English.
      const long = Object.keys(en).filter((k) => /\p{L}+\s+\p{L}+/u.test(en[k]!));
      expect(long.filter((k) => other[k] === en[k]).length).toBeLessThanOrEqual(Math.ceil(long.length / 10));
    });
  }
});

describe('errorText shows server messages in the reader’s language', () => {
  const at = inLocale;
  /** The msg of what the server code throws. */
  const thrown = (run: () => unknown): string => {
    try {
      run();
    } catch (e) {
      return (e as Error).message;
    }
    throw new Error('nothing was thrown');
  };
  const age = { cn: 'age', _cn: 'Age', kind: 'integer' } as unknown as ColumnModel;
  const notWhole = thrown(() => coerceValue(age, 'twelve'));
  const duplicate = toAppError(new Error('unique'), { kind: 'unique', what: 'Email' }).message;
  const reserved = thrown(() => checkSqlName('nc_orders', 'table'));

  test('real messages of the server, with their names and values', () => {
    expect(notWhole).toBe(`Column 'Age': "twelve" is not a whole number`);
    at('fr', () => {
      expect(errorText({ msg: notWhole }, 400)).toBe('Colonne « Age » : "twelve" n’est pas un nombre entier');
      expect(errorText({ msg: duplicate }, 409)).toBe('Une ligne avec la même valeur de Email existe déjà');
      expect(errorText({ msg: reserved }, 400)).toBe('Les noms de table commençant par nc_ ou xc_, ainsi que _evolutions, sont réservés');
      expect(errorText({ msg: FORM_NOTHING_FILLED }, 400)).toBe('Remplissez au moins un champ');
      expect(errorText({ msg: "Column 'Title' cannot be empty" }, 400)).toBe('La colonne « Title » ne peut pas être vide');
      expect(errorText({ msg: `Column 'Name': "Rock" cannot be converted to Number; nothing was changed` }, 400)).toBe('Colonne « Name » : "Rock" ne peut pas être converti en Number ; rien n’a été modifié');
      expect(errorText({ msg: "No column of the file goes to 'name', 'code' of 'Gadget', which every row needs" }, 400)).toBe("Aucune colonne du fichier ne va vers 'name', 'code' de « Gadget », dont chaque ligne a besoin");
    });
    at('zh_CN', () => {
      expect(errorText({ msg: notWhole }, 400)).toBe('列“Age”："twelve" 不是整数');
      expect(errorText({ msg: duplicate }, 409)).toBe('已存在 Email 相同的行');
      expect(errorText({ msg: "A table named 'Orders' already exists" }, 409)).toBe('名为“Orders”的表已存在');
    });
  });

  test('what the where language says of a bad where (the grid’s Where… box), in French', () => {
    const title = { cn: 'title', _cn: 'Title', dt: 'string', uidt: 'SingleLineText', kind: 'string', pk: false, ai: false, nullable: true, default: null } as unknown as ColumnModel;
    const table = { tn: 'film', _tn: 'Film', type: 'table', pks: [], displayColumn: 'title', relations: [], columns: [title] } as unknown as TableModel;
    const bad = (where: string) => thrown(() => parseWhere(where, table));
    at('fr', () => {
      expect(errorText({ msg: bad('(Nope,eq,1)') }, 400)).toBe('Colonne « Nope » introuvable');
      expect(errorText({ msg: bad('(Title,eq') }, 400)).toBe('(Title,eq : parenthèse fermante manquante');
      expect(errorText({ msg: bad('(Title,is,x)') }, 400)).toBe('x : valeur non valide, « is » et « isnot » n’acceptent que null');
      expect(errorText({ msg: bad('(Title,btw,1)') }, 400)).toBe('1 : valeur non valide, « btw » demande 2 valeurs');
      expect(errorText({ msg: bad('(Title,near,1)') }, 400)).toBe('near : opérateur de comparaison inconnu');
      expect(errorText({ msg: bad('(Title,eq,1)~xor(Title,eq,2)') }, 400)).toBe('~xor : opération inconnue');
      expect(errorText({ msg: bad('Title') }, 400)).toBe('Title : syntaxe non valide');
    });
    // A column missing from a named table keeps its own, longer message.
    at('fr', () => expect(errorText({ msg: "Column 'Nope' not found in 'Film'" }, 404)).toBe('Colonne « Nope » introuvable dans « Film »'));
  });

  test('a bulk call’s row number and a field named before the message keep their place', () => {
    at('fr', () => {
      expect(errorText({ msg: `Row 3: ${duplicate}` }, 409)).toBe('Ligne 3 : Une ligne avec la même valeur de Email existe déjà');
      expect(errorText({ msg: 'query_params.title: A view needs a title' }, 400)).toBe('query_params.title: Une vue a besoin d’un titre');
      expect(errorText({ msg: 'Host: Host is required' }, 400)).toBe('Host: L’hôte est obligatoire');
    });
  });

  test("MariaDB's refusals of a schema change, in the product's words, inside their failed step", () => {
    const mariadb = (code: string, sqlMessage: string) => driverError(classifyMysql, Object.assign(new Error(sqlMessage), { code, sqlMessage, sqlState: '22007' })).message;
    const rowSize = mariadb('ER_TOO_BIG_ROWSIZE', 'Row size too large. The maximum row size for the used table type, not counting BLOBs, is 65535. This includes storage overhead, check the manual. You have to change some columns to TEXT or BLOBs');
    expect(rowSize).toBe('A row of the table would be larger than MariaDB and MySQL allow: make some of its text columns LongText, or use fewer columns');
    const date = mariadb('ER_TRUNCATED_WRONG_VALUE', "Incorrect date value: '2024-01-05x' for column `shop`.`task`.`due` at row 1");
    expect(date).toBe(`Column 'due': "2024-01-05x" is not a date (YYYY-MM-DD)`);
    expect(mariadb('ER_TRUNCATED_WRONG_VALUE_FOR_FIELD', "Incorrect integer value: 'abc' for column `shop`.`member`.`team_ref` at row 3")).toBe(`Column 'team_ref': "abc" is not a whole number`);
    at('fr', () => {
      expect(errorText({ msg: `Step 1 of 1 failed: ${rowSize}` }, 400)).toBe('L’étape 1 sur 1 a échoué : Une ligne de la table dépasserait la taille permise par MariaDB et MySQL : passez certaines de ses colonnes de texte en LongText, ou utilisez moins de colonnes');
      expect(errorText({ msg: `Step 1 of 1 failed: ${date}` }, 400)).toBe('L’étape 1 sur 1 a échoué : Colonne « due » : "2024-01-05x" n’est pas une date (AAAA-MM-JJ)');
      expect(errorText({ msg: `Column 'team_ref' cannot link to 'Team': "abc" is not a whole number, as its keys are; nothing was changed` }, 400)).toBe('La colonne « team_ref » ne peut pas être liée à « Team » : "abc" n’est pas un nombre entier, comme le sont ses clés ; rien n’a été modifié');
    });
  });

  test('placeholders are text: markup in a name stays as it was written', () => {
    at('fr', () => {
      expect(errorText({ msg: "A table named '<img src=x onerror=alert(1)>' already exists" }, 409)).toBe('Une table nommée « <img src=x onerror=alert(1)> » existe déjà');
      // A name holding a placeholder's spelling is not filled in again.
      expect(translateServerMessage("Column '{table}' already exists in 'Orders'", 'fr')).toBe('La colonne « {table} » existe déjà dans « Orders »');
    });
  });

  test('a message without a template stays as the server wrote it; codes still come first', () => {
    at('fr', () => {
      expect(errorText({ msg: 'Something nobody translated' }, 400)).toBe('Something nobody translated');
      expect(errorText({ msg: 'Row 2: Something nobody translated' }, 400)).toBe('Row 2: Something nobody translated');
      expect(errorText({ msg: 'Not allowed', code: 'NOT_ALLOWED' }, 403)).toBe('Non autorisé');
    });
    at('en', () => expect(errorText({ msg: notWhole }, 400)).toBe(notWhole));
  });
});

describe('messages of requests the server refuses to send, of deliveries and of imports, in the reader’s language', () => {
  const refusal = async (host: string) => {
    try {
      await assertReachable(host, false);
    } catch (e) {
      return (e as Error).message;
    }
    throw new Error(`${host} was not refused`);
  };

  test('a loopback or private address refused to the API client, a webhook or a cron job', async () => {
    const loopback = await refusal('127.0.0.1');
    expect(loopback).toBe("'127.0.0.1' is a loopback address (127.0.0.1): the server does not send requests there unless NC_API_CLIENT_ALLOW_PRIVATE=1");
    const [privateNet, linkLocal, v6] = [await refusal('10.1.2.3'), await refusal('169.254.169.254'), await refusal('[::1]')];
    // A webhook refused after a redirect (guarded-fetch.ts) names where it was sent first.
    const redirected = `${await refusedTarget('http://192.168.1.9/hook', false)} (redirected from https://example.com/a)`;
    inLocale('fr', () => {
      expect(errorText({ msg: loopback }, 403)).toBe('« 127.0.0.1 » est une adresse de bouclage (127.0.0.1) : le serveur n’y envoie pas de requêtes, sauf avec NC_API_CLIENT_ALLOW_PRIVATE=1');
      expect(translateServerMessage(redirected, 'fr')).toBe('« 192.168.1.9 » est une adresse de réseau privé (192.168.1.9) : le serveur n’y envoie pas de requêtes, sauf avec NC_API_CLIENT_ALLOW_PRIVATE=1 (redirigé depuis https://example.com/a)');
    });
    inLocale('zh_CN', () => expect(errorText({ msg: linkLocal }, 403)).toBe('“169.254.169.254”是链路本地地址（169.254.169.254）：除非设置 NC_API_CLIENT_ALLOW_PRIVATE=1，服务器不会向其发送请求'));
    inLocale('es', () => expect(errorText({ msg: privateNet }, 403)).toStartWith('«10.1.2.3» es una dirección de red privada (10.1.2.3)'));
    inLocale('pt', () => expect(errorText({ msg: v6 }, 403)).toStartWith('“[::1]” é um endereço de loopback (::1)'));
  });

  test('a delivery that got no answer or could not reach its receiver', () => {
    expect(translateServerMessage('No answer from https://example.com/hook within 10 s', 'fr')).toBe('Pas de réponse de https://example.com/hook en 10 s');
    expect(translateServerMessage('Could not reach https://example.com/hook: connection refused', 'es')).toBe('No se pudo conectar con https://example.com/hook: connection refused');
    expect(translateServerMessage('The e-mail could not be sent: 550 no such mailbox', 'pt')).toBe('Não foi possível enviar o e-mail: 550 no such mailbox');
    // What the API and gRPC clients refuse to send.
    expect(translateServerMessage('Only http and https URLs can be sent (not ftp:)', 'fr')).toBe('Seules les URL http et https peuvent être envoyées (pas ftp:)');
    expect(translateServerMessage("'localhost' is not a server address: write host:port", 'zh_CN')).toBe('“localhost”不是服务器地址：请写成 主机:端口');
  });

  test('a receiver that answered an error, and a chat hook without a webhook URL (real deliveries)', async () => {
    const payload: HookPayload = { event: 'after.insert', table: 'Orders', data: { Id: 1 }, hook: { id: 'h1', title: 'Tell' }, at: new Date(0).toISOString() };
    const opts = { mailOwner: {}, secret: null, timeoutMs: 5000, allowPrivate: true };
    const receiver = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: (req) => (new URL(req.url).pathname === '/quiet' ? new Response(null, { status: 503 }) : new Response('queue full', { status: 503 })) });
    try {
      const said = (await sendOnce({ type: 'url', method: 'POST', url: `http://127.0.0.1:${receiver.port}/hook`, headers: {} } as never, payload, opts)).error!;
      const quiet = (await sendOnce({ type: 'url', method: 'POST', url: `http://127.0.0.1:${receiver.port}/quiet`, headers: {} } as never, payload, opts)).error!;
      expect(said).toBe('The receiver answered 503 Service Unavailable: queue full');
      expect(quiet).toBe('The receiver answered 503 Service Unavailable');
      expect(translateServerMessage(said, 'fr')).toBe('Le destinataire a répondu 503 Service Unavailable : queue full');
      expect(translateServerMessage(quiet, 'zh_CN')).toBe('接收方应答 503 Service Unavailable');
    } finally {
      receiver.stop(true);
    }
    for (const type of ['slack', 'teams', 'discord', 'mattermost'] as const) {
      const error = (await sendOnce({ type } as never, payload, opts)).error!;
      expect(error).toBe(`No ${type} webhook URL: give one in the hook or install the ${type} plugin in the App Store`);
      expect(translateServerMessage(error, 'es')).toBe(`No hay URL de webhook de ${type}: indica una en el hook o instala el complemento ${type} desde la App Store`);
    }
  });

  test('an import left running by a server that ended abruptly', () => {
    const table = (created: boolean) => ({ tn: 'orders', _tn: 'Orders', created }) as never;
    const kept = leftJobMessage({ allOrNothing: false, table: table(false) });
    const nothing = leftJobMessage({ allOrNothing: true, table: table(false) });
    const empty = leftJobMessage({ allOrNothing: true, table: table(true) });
    expect(translateServerMessage(kept, 'fr')).toStartWith('Arrêté : le serveur s’est arrêté pendant l’import');
    expect(translateServerMessage(nothing, 'pt')).toBe('Interrompido: o servidor parou durante a importação (foi encerrado abruptamente); nada foi importado: envie o arquivo novamente');
    expect(translateServerMessage(empty, 'zh_CN')).toBe('已停止：导入期间服务器停止了（被意外终止）；没有导入任何内容，它创建的表 Orders 仍为空：请重新上传文件');
    const job = { status: 'failed', rolledBack: true, rowsImported: 0, rowsSkipped: 0, table: { _tn: 'Orders' } } as never as Parameters<typeof outcome>[0];
    inLocale('es', () => expect(outcome({ ...job, message: nothing })).toContain('Detenido: el servidor se detuvo durante la importación'));
  });

  test('an import’s problems and the message of an import stopped at a line', () => {
    expect(translateServerMessage('Cell B3 holds the error #DIV/0! instead of a value', 'fr')).toBe('La cellule B3 contient l’erreur #DIV/0! au lieu d’une valeur');
    expect(translateServerMessage('a value is required', 'pt')).toBe('um valor é obrigatório');
    // A value check of the data core names no column in the reason (the problem names it): read with it.
    inLocale('fr', () => {
      expect(problemReason({ column: 'Qty', reason: '"three" is not a whole number' })).toBe('Colonne « Qty » : "three" n’est pas un nombre entier');
      expect(problemReason({ column: 'Qty', reason: 'a value is required' })).toBe('une valeur est obligatoire');
      expect(problemReason({ column: null, reason: 'something new' })).toBe('something new');
      expect(problemReason({ column: 'Qty', reason: 'something new' })).toBe('something new');
    });
    const job = { status: 'stopped', rolledBack: false, rowsImported: 1, rowsSkipped: 0, table: { _tn: 'T' } } as never as Parameters<typeof outcome>[0];
    inLocale('fr', () => {
      expect(outcome({ ...job, message: 'Stopped at line 3: cell B3 holds the error #DIV/0!' })).toContain('Arrêté à la ligne 3 : la cellule B3 contient l’erreur #DIV/0!');
      // A reason of the data core after the line: both in French.
      expect(outcome({ ...job, message: 'Stopped at line 4: a value is required' })).toContain('Arrêté à la ligne 4 : une valeur est obligatoire');
      // A reason without a template stays as it came, with the line in English around it.
      expect(outcome({ ...job, message: 'Stopped at line 4: something new' })).toContain('Stopped at line 4: something new');
    });
  });
});

describe('the audit log’s sign-in, team and terminal events in the reader’s language', () => {
  test('sign-ins, failed sign-ins with their reason, team changes and terminals opened and closed', () => {
    inLocale('fr', () => {
      expect(translateServerMessage('signed in', 'fr')).toBe('connexion');
      expect(translateServerMessage('signed up as Super Admin', 'fr')).toBe('inscription comme Super Admin');
      expect(translateServerMessage('failed sign-in: Invalid email or password', 'fr')).toBe('échec de connexion : E-mail ou mot de passe invalide');
      expect(translateServerMessage('failed sign-in with GitHub: Invalid email or password', 'fr')).toBe('échec de connexion avec GitHub : E-mail ou mot de passe invalide');
      expect(translateServerMessage('ann@example.com invited as editor', 'fr')).toBe('ann@example.com invité comme editor');
      expect(translateServerMessage('ann@example.com role changed from editor to viewer', 'fr')).toBe('rôle de ann@example.com changé de editor à viewer');
      expect(translateServerMessage('terminal opened: /bin/bash (pid 42) in /data/workspace', 'fr')).toBe('terminal ouvert : /bin/bash (pid 42) dans /data/workspace');
      expect(translateServerMessage('terminal closed: the connection was gone for more than 30 s (pid 42, open 3.3 min)', 'fr')).toBe('terminal fermé : la connexion a été perdue plus de 30 s (pid 42, ouvert 3.3 min)');
      expect(translateServerMessage('terminal closed: signed out (pid 7, open 1 min)', 'fr')).toBe('terminal fermé : déconnexion (pid 7, ouvert 1 min)');
    });
    expect(translateServerMessage('password reset requested', 'zh_CN')).toBe('已请求重置密码');
    expect(translateServerMessage('invite to bo@example.com revoked', 'es')).toBe('invitación a bo@example.com revocada');
  });
});
