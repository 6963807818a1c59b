-- A bulk insert's one audit entry (pk '') keeps the smallest and the largest key of its rows, in an
-- order both stores compare alike (src/meta/audit-key-range.ts). The row history's index gains the
-- range: a row's own entries are found by its key as before, and the bulk entries that may hold it
-- by their range, read in the index alone; only those are opened.
ALTER TABLE nc_audit ADD COLUMN pk_lo TEXT;
ALTER TABLE nc_audit ADD COLUMN pk_hi TEXT;
DROP INDEX nc_audit_row;
CREATE INDEX nc_audit_row_keys ON nc_audit (project_id, db_alias, tn, pk, pk_lo, pk_hi);
