/**
 * Ending a terminal's processes: its shell leads a session and a process group; the group gets
 * SIGHUP then SIGTERM, and on Linux every other process of the session (background jobs in groups
 * of their own) too; whatever still runs after a short grace gets SIGKILL, so no orphan is left.
 */
import { readdirSync, readFileSync } from 'node:fs';

const signal = (target: number, sig: NodeJS.Signals | 0) => {
  try {
    process.kill(target, sig);
    return true;
  } catch {
    return false;
  }
};

/** Whether a process still runs (a zombie awaiting its parent counts as ended). */
export function isRunning(pid: number): boolean {
  if (!signal(pid, 0)) return false;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true;
  }
}

/** The pids of a session's processes (Linux /proc; empty elsewhere). */
export function sessionMembers(sid: number): number[] {
  const found: number[] = [];
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return found;
  }
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // pid (comm) state ppid pgrp session ...: comm may hold spaces and parentheses.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[3]) === sid) found.push(Number(name));
    } catch {}
  }
  return found;
}

/** Ends the process group and session led by `pid`: HUP and TERM, then KILL after `graceMs`. */
export async function endProcessTree(pid: number, graceMs = 1500): Promise<void> {
  const targets = () => [...new Set([pid, ...sessionMembers(pid)])];
  for (const sig of ['SIGHUP', 'SIGTERM', 'SIGCONT'] as const) {
    signal(-pid, sig);
    for (const p of targets()) signal(p, sig);
  }
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline && targets().some(isRunning)) await Bun.sleep(50);
  signal(-pid, 'SIGKILL');
  for (const p of targets()) if (isRunning(p)) signal(p, 'SIGKILL');
}
