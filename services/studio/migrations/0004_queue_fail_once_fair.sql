-- Issue 20: a job whose worker died under it (its lease ran out: killed for
-- memory, crashed) is failed once, not run again, and a failed job gives
-- its tool run back. A job that failed for a passing reason (the bucket or
-- the database) waits run_after before it is tried again. Workers take the
-- next job from the store served least recently (its jobs' latest
-- started_at), so one store's queue never holds up another's.
ALTER TABLE jobs ADD COLUMN started_at timestamptz;
ALTER TABLE jobs ADD COLUMN run_after timestamptz;
CREATE INDEX jobs_category_started ON jobs (category_id, started_at);
