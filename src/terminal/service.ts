/**
 * The open terminals of the server: at most LIMITS.terminalsMax per person, each opened in
 * `<data dir>/workspace/` with a cleaned environment, written to the audit log when it opens and
 * when it ends. A sweep ends terminals idle past NC_TERMINAL_IDLE_MIN and those whose user signed
 * out, was disabled or changed password; each of these ends them at once (session-events.ts).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BaseContext } from '../context';
import { LIMITS } from '../config/limits';
import { rateLimited } from '../lib/errors';
import { auditRepo } from '../meta/audit-repo';
import { usersRepo } from '../meta/users-repo';
import { onSessionsEnded } from '../auth/session-events';
import { loginShell, terminalEnv } from './env';
import { terminalPolicy } from './policy';
import { clampSize, TerminalSession, type TerminalOwner } from './session';

/** Settings of the terminal service (tests shorten the grace period). */
export interface TerminalServiceOptions {
  /** The server's environment, cleaned before it reaches a shell. */
  hostEnv: Record<string, string | undefined>;
  idleMs: number;
  detachGraceMs: number;
  max: number;
}

export const MSG_TOO_MANY_TERMINALS = `Only ${LIMITS.terminalsMax} terminals can be opened`;

export class TerminalService {
  readonly policy;
  readonly workspace: string;
  private readonly sessions = new Map<string, TerminalSession>();
  private readonly opts: TerminalServiceOptions;
  private readonly sweeper: ReturnType<typeof setInterval>;
  private readonly audit;

  constructor(private readonly ctx: BaseContext, opts: Partial<TerminalServiceOptions> = {}) {
    this.policy = terminalPolicy(ctx.config);
    this.workspace = join(ctx.dataDir, 'workspace');
    this.opts = {
      hostEnv: opts.hostEnv ?? {},
      idleMs: opts.idleMs ?? ctx.config.terminalIdleMin * 60_000,
      detachGraceMs: opts.detachGraceMs ?? LIMITS.terminalDetachGraceMs,
      max: opts.max ?? LIMITS.terminalsMax,
    };
    this.audit = auditRepo(ctx.meta);
    this.sweeper = setInterval(() => void this.sweep(), Math.min(30_000, Math.max(250, this.opts.idleMs / 4)));
    this.sweeper.unref?.();
    onSessionsEnded(ctx, (userId, reason) => this.endForUser(userId, reason));
  }

  /** How many terminals a person has open. */
  countFor(ownerKey: string): number {
    let n = 0;
    for (const s of this.sessions.values()) if (s.owner.key === ownerKey) n++;
    return n;
  }

  /** A person's terminal by id, or undefined. */
  find(id: string, ownerKey: string): TerminalSession | undefined {
    const s = this.sessions.get(id);
    return s && s.owner.key === ownerKey && !s.ended ? s : undefined;
  }

  /** Opens a terminal; 429 'Only 5 terminals can be opened' past the limit. */
  open(owner: TerminalOwner, size: { cols?: unknown; rows?: unknown }): TerminalSession {
    if (this.countFor(owner.key) >= this.opts.max) throw rateLimited(MSG_TOO_MANY_TERMINALS, 1);
    mkdirSync(this.workspace, { recursive: true });
    const shell = loginShell(this.opts.hostEnv);
    const session = new TerminalSession({
      owner,
      shell,
      cwd: this.workspace,
      env: terminalEnv(this.opts.hostEnv, this.workspace, shell),
      cols: clampSize(size.cols, 80, 1000),
      rows: clampSize(size.rows, 24, 500),
      highWater: LIMITS.terminalHighWaterBytes,
      lowWater: LIMITS.terminalLowWaterBytes,
      backlogBytes: LIMITS.terminalBacklogBytes,
      replayBytes: LIMITS.terminalReplayBytes,
      detachGraceMs: this.opts.detachGraceMs,
      onEnd: (s, reason) => this.ended(s, reason),
    });
    this.sessions.set(session.id, session);
    this.ctx.log.info(`terminal ${session.id} opened by ${owner.email ?? owner.key} (pid ${session.pid})`);
    void this.record(owner, `terminal opened: ${shell} (pid ${session.pid}) in ${this.workspace}`);
    return session;
  }

  /** Ends every terminal of a user (sign-out, disabled account). */
  endForUser(userId: string, reason: string): void {
    for (const s of [...this.sessions.values()]) if (s.owner.userId === userId) s.end(reason);
  }

  /** Ends every terminal and waits until their processes are gone (shutdown). */
  async closeAll(): Promise<void> {
    clearInterval(this.sweeper);
    const open = [...this.sessions.values()];
    for (const s of open) s.end('Tablo stopped');
    await Promise.all(open.map((s) => s.finished));
  }

  private ended(session: TerminalSession, reason: string): void {
    this.sessions.delete(session.id);
    this.ctx.log.info(`terminal ${session.id} closed: ${reason}`);
    const minutes = ((Date.now() - session.openedAt) / 60_000).toFixed(1);
    void this.record(session.owner, `terminal closed: ${reason} (pid ${session.pid}, open ${minutes} min)`);
  }

  private record(owner: TerminalOwner, description: string) {
    return this.audit.write({ op_type: 'TERMINAL', description, user_email: owner.email ?? null, ip: owner.ip ?? null }).catch((e) => this.ctx.log.error('terminal audit entry failed', e));
  }

  /** Ends idle terminals and those whose user no longer holds the session they opened it with. */
  private async sweep(): Promise<void> {
    const now = Date.now();
    const users = usersRepo(this.ctx.meta);
    for (const s of [...this.sessions.values()]) {
      if (now - s.lastActive > this.opts.idleMs) {
        s.end(`idle for more than ${+(this.opts.idleMs / 60_000).toFixed(2)} min`);
        continue;
      }
      if (!s.owner.userId) continue;
      const user = await users.byId(s.owner.userId).catch(() => undefined);
      if (!user || user.disabled) s.end('the account was disabled');
      else if (s.owner.tokenVersion !== undefined && user.token_version !== s.owner.tokenVersion) s.end('the session ended');
    }
  }
}
