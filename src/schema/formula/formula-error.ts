/** A formula that cannot be read or checked: a message for the user and where it went wrong. */
export class FormulaError extends Error {
  constructor(
    message: string,
    /** Offset in the formula text (0-based), when known. */
    readonly position?: number,
  ) {
    super(message);
  }
}
