/**
 * The files of a deleted row are swept only well after the grid stops offering Undo of the delete:
 * the restored row names the same stored files, which must still be there.
 */
import { expect, test } from 'bun:test';
import { LIMITS } from '../../src/config/limits';
import { LIMITS as WEB_LIMITS } from '../../web/src/lib/limits';

test('the sweep after a write waits well past the Undo of a row delete', () => {
  expect(LIMITS.attachmentSweepAfterWriteMs).toBeGreaterThanOrEqual(WEB_LIMITS.deleteUndoMs * 2);
});
