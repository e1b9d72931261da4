-- One daily report per category and day for stores with no store data yet
-- (the stores service reports those with data): the row is inserted in the
-- transaction that writes DailyReportReady to the outbox, so two replicas
-- or a restart publish each day's once.
CREATE TABLE no_data_reports (
    category_id  text        NOT NULL REFERENCES categories (id) ON DELETE CASCADE,
    day          date        NOT NULL,
    published_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (category_id, day)
);
