-- A cron run names the instance that runs it (its holder name, src/meta/leases.ts), so that on a metadata
-- store shared by several instances a run left "running" by an instance that ended abruptly is told from
-- one another instance is still running (src/cron/left-runs.ts). Runs from before have no holder.
ALTER TABLE nc_cron_runs ADD COLUMN holder TEXT;
-- The runs still "running" are few among the kept ones (up to 1,000 per job): looked for at every heartbeat.
CREATE INDEX nc_cron_runs_running ON nc_cron_runs (started_at) WHERE status = 'running';
