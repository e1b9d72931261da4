-- What the store's own numbers say (the stores service's StoreSignalsUpdated
-- event): the newest per category, by as_of and then occur_time, so a replay
-- or a late older event changes nothing. Money is in minor units of
-- currency, currency_decimals decimals to the unit. The row goes with its
-- category (ON DELETE CASCADE), so a deleted user's signals go too.
CREATE TABLE store_signals (
    category_id          text PRIMARY KEY REFERENCES categories (id) ON DELETE CASCADE,
    currency             text        NOT NULL DEFAULT '',
    currency_decimals    integer     NOT NULL DEFAULT 2,
    as_of                date        NOT NULL,
    occur_time           timestamptz NOT NULL,
    -- best seller of the 7 days to as_of; NULL title when nothing sold.
    best_seller_title    text,
    best_seller_net      bigint,
    best_seller_quantity bigint,
    -- the product whose net sales fell most over the 14 days to as_of
    -- against the 14 before; NULL title when none fell on a meaningful base.
    falling_title        text,
    falling_before       bigint,
    falling_after        bigint,
    falling_percent      integer,
    -- the daily report's headline when the day was unusual; '' otherwise.
    unusual_headline     text        NOT NULL DEFAULT '',
    received_at          timestamptz NOT NULL DEFAULT now()
);

-- Campaign ideas come from the website review (report_id set, topic '') or
-- from the store's numbers (no report; topic says what the idea is about,
-- e.g. 'best-seller:Trail Mug'). A store idea keeps its id while its topic
-- stays suggested; the website review's ideas make way only for the next
-- review's.
ALTER TABLE ideas ALTER COLUMN report_id DROP NOT NULL;
ALTER TABLE ideas ADD COLUMN topic text NOT NULL DEFAULT '';
ALTER TABLE ideas ADD CONSTRAINT ideas_source CHECK ((topic = '') = (report_id IS NOT NULL));
CREATE INDEX ideas_store_idx ON ideas (category_id) WHERE topic <> '' AND NOT invalidated;
