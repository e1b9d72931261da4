-- The business's IANA time zone ('' while unknown): from the browser at
-- sign-up, changeable in the business profile; the weekly website review
-- follows it.
ALTER TABLE categories ADD COLUMN time_zone text NOT NULL DEFAULT '';

-- week marks a report that is a weekly re-review (the store-local Monday
-- of its week); run_claimed_until is how long a review run holds the report,
-- committed before the website is read, so the read happens outside any
-- transaction and a second delivery of the request does not read it again.
ALTER TABLE reports ADD COLUMN week date;
ALTER TABLE reports ADD COLUMN run_claimed_until timestamptz;

-- One weekly re-review per category and week: the row is inserted in the
-- transaction that creates the report and writes ReviewRequested to the
-- outbox, so two replicas or a restart start the week's review once.
CREATE TABLE weekly_reviews (
    category_id text        NOT NULL REFERENCES categories (id) ON DELETE CASCADE,
    week        date        NOT NULL,
    report_id   text        NOT NULL,
    started_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (category_id, week)
);
