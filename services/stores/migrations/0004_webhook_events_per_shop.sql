-- A webhook's HMAC covers its body, not its headers, so the event id is
-- whatever the sender wrote. Keyed by the id alone, a delivery for one shop
-- could use up (or be used up by) the same id sent for another; keyed by
-- the shop with the id, each shop's deliveries are deduplicated apart.
ALTER TABLE webhook_events DROP CONSTRAINT webhook_events_pkey;
ALTER TABLE webhook_events ADD PRIMARY KEY (shop, event_id);
