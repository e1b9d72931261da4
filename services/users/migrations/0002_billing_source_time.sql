-- billing_source_time orders BillingChanged events: an event older than the
-- stored state is ignored, so redeliveries out of order never go back in time.
ALTER TABLE users ADD COLUMN billing_source_time timestamptz;
