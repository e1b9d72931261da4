-- The daily reports published: one row per category and store-local day.
-- Publishing inserts the row (ON CONFLICT DO NOTHING) and writes
-- DailyReportReady to the outbox in one transaction, so of two replicas or
-- a restarted worker racing for the same morning exactly one publishes; the
-- newest day per category is what the due rule compares with.
CREATE TABLE daily_reports_sent (
    category_id uuid NOT NULL,
    day         date NOT NULL,
    sent_at     timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (category_id, day)
);
