-- When the AI email digest was last requested for the category: a second
-- request within a minute is refused (checked under the row lock, in the
-- transaction that writes DigestRequested to the outbox).
ALTER TABLE categories ADD COLUMN last_digest_requested_at timestamptz;
