/** A tiny logger: one line per event; info to stdout, warnings and errors to stderr. */
export interface Logger {
  info(msg: string): void;
  warn(msg: string): void;
  error(msg: string, err?: unknown): void;
}

export const consoleLogger: Logger = {
  info: (m) => console.log(`${new Date().toISOString()} INFO ${m}`),
  warn: (m) => console.warn(`${new Date().toISOString()} WARN ${m}`),
  error: (m, e) => console.error(`${new Date().toISOString()} ERROR ${m}${e instanceof Error ? `: ${e.stack ?? e.message}` : e ? `: ${String(e)}` : ''}`),
};

/** Collects lines in memory (tests read what would have been logged, e.g. reset links). */
export function memoryLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    info: (m) => lines.push(`INFO ${m}`),
    warn: (m) => lines.push(`WARN ${m}`),
    error: (m, e) => lines.push(`ERROR ${m}${e instanceof Error ? `: ${e.message}` : ''}`),
  };
}
