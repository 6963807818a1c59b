/**
 * SQLite raw session: statements run in a runner process (sqlite-runner.ts) with its own
 * connection; its pid is the connection id. Cancel and time-out kill the runner, which stops the
 * statement for real. Idle runners are kept a little while per file so a run does not pay for a
 * process start each time.
 */
import { fileURLToPath } from 'node:url';
import type { Subprocess } from 'bun';
import { makeStream, RawSqlError, timeLimit, type RawSession, type RawStream } from './types';
import type { RunnerReply, RunnerRequest, RunnerReset } from './sqlite-runner';

/** How long an idle runner waits for the next run before it is stopped. */
const IDLE_MS = 60_000;
/** Idle runners kept per file. */
const IDLE_MAX = 2;

interface Runner {
  proc: Subprocess;
  pid: number;
  /** Takes the replies of the request running now, if any (null: the runner ended). */
  waiting: ((reply: RunnerReply | null) => void) | null;
  dead: boolean;
  idleTimer?: ReturnType<typeof setTimeout>;
}

/** What a statement stopped by its time limit answers. */
export const STATEMENT_TIMEOUT_MSG = 'The statement took too long and was stopped (statement time-out)';

const idle = new Map<string, Runner[]>();
const live = new Set<Runner>();

/** In the compiled binary the runner is the binary itself; in development, the script. */
function runnerCommand(): string[] {
  // Bun.main is the entry inside the executable's embedded file system when compiled (import.meta.path keeps the source path).
  const compiled = Bun.main.startsWith('/$bunfs/') || Bun.main.includes('~BUN');
  return compiled ? [process.execPath] : [process.execPath, fileURLToPath(new URL('./sqlite-runner.ts', import.meta.url))];
}

function spawnRunner(filename: string): Promise<Runner> {
  return new Promise((resolve, reject) => {
    let ready = false;
    const runner: Runner = { proc: null as unknown as Subprocess, pid: 0, waiting: null, dead: false };
    runner.proc = Bun.spawn(runnerCommand(), {
      env: { TABLO_SQLITE_RUNNER: filename },
      stdin: 'pipe',
      stdout: 'ignore',
      stderr: 'ignore',
      ipc(message) {
        const reply = message as RunnerReply;
        if ('ready' in reply) {
          ready = true;
          return resolve(runner);
        }
        runner.waiting?.(reply);
      },
      onExit() {
        runner.dead = true;
        live.delete(runner);
        const w = runner.waiting;
        runner.waiting = null;
        w?.(null);
        if (!ready) reject(new RawSqlError('The SQLite runner could not start', 'unreachable'));
      },
    });
    runner.pid = runner.proc.pid;
    live.add(runner);
  });
}

function acquire(filename: string): Promise<Runner> {
  const list = idle.get(filename) ?? [];
  while (list.length) {
    const r = list.pop()!;
    clearTimeout(r.idleTimer);
    if (!r.dead) return Promise.resolve(r);
  }
  return spawnRunner(filename);
}

function release(filename: string, r: Runner): void {
  if (r.dead) return;
  const list = idle.get(filename) ?? [];
  if (list.length >= IDLE_MAX) return kill(r);
  r.idleTimer = setTimeout(() => {
    idle.set(filename, (idle.get(filename) ?? []).filter((x) => x !== r));
    kill(r);
  }, IDLE_MS);
  list.push(r);
  idle.set(filename, list);
}

function kill(r: Runner): void {
  if (r.dead) return;
  r.dead = true;
  r.proc.kill('SIGKILL');
}

/** Stops every runner (server shutdown). */
export async function stopSqliteRunners(): Promise<void> {
  for (const r of live) kill(r);
  idle.clear();
}

/** SQLite names the token it stumbled on: `near "FRM": syntax error`. */
function positionOf(message: string, text: string): number | undefined {
  const token = /near "([^"]+)"/.exec(message)?.[1];
  if (!token) return undefined;
  // The token as a whole word where it can be (`t` is not the t of `select`).
  const word = new RegExp(`(^|[^A-Za-z0-9_])${token.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![A-Za-z0-9_])`).exec(text);
  if (word) return word.index + word[1]!.length;
  const at = text.indexOf(token);
  return at >= 0 ? at : undefined;
}

/** Takes a runner for the file (an idle one or a new process). */
export async function openSqliteSession(filename: string): Promise<RawSession> {
  let runner = await acquire(filename);
  let stopping: 'cancelled' | 'timeout' | null = null;
  return {
    get connectionId() {
      return runner.pid;
    },
    async run(text, timeoutMs, maxRows): Promise<RawStream> {
      if (runner.dead) runner = await spawnRunner(filename);
      stopping = null;
      const r = runner;
      const feed = makeStream(maxRows);
      const first = Promise.withResolvers<void>();
      const timer = setTimeout(() => {
        stopping = 'timeout';
        kill(r);
      }, timeLimit(timeoutMs));
      const end = (error: RawSqlError | null) => {
        clearTimeout(timer);
        r.waiting = null;
        if (error) feed.fail(error);
        else feed.finish();
        first.resolve();
      };
      r.waiting = (reply) => {
        if (!reply) {
          const e = stopping === 'timeout' ? new RawSqlError(STATEMENT_TIMEOUT_MSG, 'timeout')
            : stopping === 'cancelled' ? new RawSqlError('The statement was cancelled', 'cancelled')
            : new RawSqlError('The SQLite runner stopped unexpectedly', 'unreachable');
          return end(e);
        }
        if ('ready' in reply) return;
        if ('chunk' in reply) {
          feed.push(reply.chunk);
          if (reply.end) {
            feed.stream.rowCount = reply.rowCount;
            feed.stream.truncated = reply.truncated;
            end(null);
          }
          return;
        }
        if (!reply.ok) return end(new RawSqlError(reply.message, 'statement', positionOf(reply.message, text), undefined, reply.code));
        feed.stream.columns = reply.result.columns;
        feed.stream.affected = reply.result.affected;
        feed.push(reply.result.rows);
        if (!reply.more) {
          feed.stream.rowCount = reply.result.rowCount;
          feed.stream.truncated = reply.result.truncated;
          end(null);
        }
        first.resolve();
      };
      r.proc.send({ sql: text, maxRows } satisfies RunnerRequest);
      await first.promise;
      if (feed.stream.error && !feed.stream.rows.length) throw feed.stream.error;
      return feed.stream;
    },
    async cancel() {
      if (!runner.waiting) return;
      stopping = 'cancelled';
      kill(runner);
    },
    async close() {
      // A transaction left open would keep the file locked while the runner waits idle.
      if (!runner.dead) runner.proc.send({ reset: true } satisfies RunnerReset);
      release(filename, runner);
    },
  };
}
