-- The store's own time zone as the stores service reports it with its
-- signals (the connected shop's IANA name, or the fixed offset of an
-- imported file): the weekly review is scheduled in the shop's zone rather
-- than the browser's guess at sign-up. '' while unknown.
-- IF NOT EXISTS: this file was briefly named 0007_store_time_zone.sql on
-- main, so a local database may already have the column.
ALTER TABLE store_signals ADD COLUMN IF NOT EXISTS time_zone text NOT NULL DEFAULT '';
