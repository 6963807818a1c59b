/** parseArgs: a 400 naming the first problem, with the field's path unless the message names the field already. */
import { expect, test } from 'bun:test';
import { z } from 'zod';
import { parseArgs } from '../../src/api/dashboard/op';

const msgOf = (schema: z.ZodType, args: unknown) => {
  try {
    parseArgs(schema as never, args);
    return null;
  } catch (e) {
    return (e as Error).message;
  }
};

test('a message that names its field is not prefixed with it', () => {
  expect(msgOf(z.object({ title: z.string().trim().min(1, 'The title is required') }), { title: ' ' })).toBe('The title is required');
});

test("a message that does not name its field gets the field's path first", () => {
  expect(msgOf(z.object({ pattern: z.string().min(1, 'Give a cron expression') }), { pattern: '' })).toBe('pattern: Give a cron expression');
});

test('an array index is never taken for a name: the path stays', () => {
  expect(msgOf(z.object({ rows: z.array(z.number().min(1, 'must not be 0')) }), { rows: [0] })).toBe('rows.0: must not be 0');
});
