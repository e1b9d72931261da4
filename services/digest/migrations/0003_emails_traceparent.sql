-- The W3C traceparent of the request or event that queued the email, so its
-- send (by the sender worker, later) is traced as part of that request.
-- Nullable, expand-only: older rows and an older release do without it.
ALTER TABLE emails ADD COLUMN traceparent text;
