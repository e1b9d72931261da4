-- Audit rows are kept for a retention period (AUDIT_RETENTION), also after
-- the users and data they describe are gone; the purge finds expired rows
-- by time alone.
CREATE INDEX audit_log_created ON audit_log (created_at);
