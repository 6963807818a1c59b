/** A case-only table rename on MySQL/MariaDB is refused where the server folds table names to lower case. */
import { expect, test } from 'bun:test';
import { caseOnlyRenameRefusal } from '../../src/sql/mysql/table-name-case';

test('lower_case_table_names 0 keeps names as written: the rename may run', () => {
  expect(caseOnlyRenameRefusal(0)).toBeNull();
});

test('lower_case_table_names 1 or 2 fold names: the rename is refused, naming the setting', () => {
  expect(caseOnlyRenameRefusal(1)).toBe('This MySQL server stores table names in lower case (lower_case_table_names=1): a rename that changes only the case is not possible');
  expect(caseOnlyRenameRefusal(2)).toBe('This MySQL server stores table names in lower case (lower_case_table_names=2): a rename that changes only the case is not possible');
});
