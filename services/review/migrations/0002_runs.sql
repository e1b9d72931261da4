-- A run is the review of one report categories asked for. The worker
-- claims it (claimed_until) before reading the website with no
-- transaction open, and marks it done in the transaction that records its
-- answer (ReviewCompleted or ReviewFailed), so a redelivered request finds
-- it answered and a crashed worker's claim lapses for another to take.
CREATE TABLE runs (
    report_id     text PRIMARY KEY,
    category_id   text        NOT NULL,
    site_url      text        NOT NULL,
    claimed_until timestamptz NOT NULL,
    done_at       timestamptz,
    created_at    timestamptz NOT NULL DEFAULT now()
);
