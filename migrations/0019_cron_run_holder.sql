-- A cron run names the instance that runs it (its holder name, src/meta/leases.ts), so that on a metadata
-- store shared by several instances a run left "running" by an instance that ended abruptly is told from
-- one another instance is still running (src/cron/left-runs.ts). Runs from before have no holder.
ALTER TABLE nc_cron_runs ADD COLUMN holder TEXT;
