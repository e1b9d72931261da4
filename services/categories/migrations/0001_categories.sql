-- A category is a store's business. Its id is the one the users service
-- assigned; owner_id is the user who may act on it (besides uplifters).
CREATE TABLE categories (
    id                      text PRIMARY KEY,
    owner_id                text        NOT NULL,
    name                    text        NOT NULL DEFAULT '',
    site_url                text,
    -- additional_info is the summary read from the website.
    additional_info         text        NOT NULL DEFAULT '',
    disable_weekly_email    boolean     NOT NULL DEFAULT false,
    disable_business_report boolean     NOT NULL DEFAULT false,
    shopify_category_id     text,
    created_at              timestamptz NOT NULL DEFAULT now(),
    updated_at              timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX categories_owner_idx ON categories (owner_id);

-- A report is one review run of a category's website; the newest is current.
CREATE TABLE reports (
    id          text PRIMARY KEY,
    category_id text        NOT NULL REFERENCES categories (id) ON DELETE CASCADE,
    site_url    text        NOT NULL,
    status      text        NOT NULL CHECK (status IN ('GENERATING', 'READY', 'FAILED')),
    progress    integer     NOT NULL DEFAULT 0 CHECK (progress BETWEEN 0 AND 100),
    step        text        NOT NULL DEFAULT '',
    score       integer,
    review      jsonb,
    summary     text        NOT NULL DEFAULT '',
    error       text        NOT NULL DEFAULT '',
    -- clock_timestamp, not now(): two reports made in one transaction still order.
    created_at  timestamptz NOT NULL DEFAULT clock_timestamp(),
    updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX reports_latest_idx ON reports (category_id, created_at DESC);

CREATE TABLE insights (
    report_id   text    NOT NULL REFERENCES reports (id) ON DELETE CASCADE,
    position    integer NOT NULL,
    id          text    NOT NULL,
    text        text    NOT NULL,
    evidence    text    NOT NULL DEFAULT '',
    PRIMARY KEY (report_id, position)
);

-- Ideas outlive their report's currency: invalidated ones leave the lists
-- but still open by id.
CREATE TABLE ideas (
    id           text PRIMARY KEY,
    category_id  text        NOT NULL REFERENCES categories (id) ON DELETE CASCADE,
    report_id    text        NOT NULL REFERENCES reports (id) ON DELETE CASCADE,
    position     integer     NOT NULL,
    title        text        NOT NULL,
    why_now      text        NOT NULL DEFAULT '',
    channel      text        NOT NULL DEFAULT '',
    subject_line text        NOT NULL DEFAULT '',
    body         text        NOT NULL DEFAULT '',
    products     jsonb       NOT NULL DEFAULT '[]',
    timing       text        NOT NULL DEFAULT '',
    invalidated  boolean     NOT NULL DEFAULT false,
    created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX ideas_recent_idx ON ideas (category_id, created_at DESC, position) WHERE NOT invalidated;
CREATE INDEX ideas_report_idx ON ideas (report_id, position);
