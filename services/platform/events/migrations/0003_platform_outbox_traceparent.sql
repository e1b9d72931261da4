-- The W3C traceparent of the request or event that wrote the row, so the
-- relay publishes it in the message's headers and the consumers' work joins
-- the same trace (platform/tracing). Nullable, expand-only: rows written
-- before it, or outside a trace, have none, and an older release's relay
-- ignores the column.
ALTER TABLE outbox ADD COLUMN traceparent text;
