-- Wrong recovery codes are counted per client as well as per account
-- (domain.RecoveryPaused): client is the address the try came from, as the
-- gateway found it ('' when not known, and for the rows before this).
ALTER TABLE recovery_failures ADD COLUMN client text NOT NULL DEFAULT '';
CREATE INDEX recovery_failures_user_client ON recovery_failures (user_id, client, at);
