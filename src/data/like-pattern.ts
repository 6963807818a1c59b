/** "Contains" as a LIKE pattern: `%text%` with the text's own `%`, `_` and `\` made literal (every engine's LIKE escapes with `\`). */
export const containsPattern = (text: string): string => `%${text.replace(/[\\%_]/g, '\\$&')}%`;
