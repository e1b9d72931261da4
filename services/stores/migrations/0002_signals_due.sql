-- Categories whose orders changed since their store signals (the
-- StoreSignalsUpdated event: best seller, falling product, unusual day) were
-- last published. Every write that changes orders marks its category in its
-- own transaction; publishing writes the event to the outbox and clears the
-- mark in one transaction, unless a newer write bumped version meanwhile.
-- A crash between an import and its publication leaves the mark, and the
-- sync worker publishes at its next round, so no change goes untold.
CREATE TABLE signals_due (
    category_id uuid PRIMARY KEY,
    version     bigint NOT NULL DEFAULT 1,
    marked_at   timestamptz NOT NULL DEFAULT now()
);
