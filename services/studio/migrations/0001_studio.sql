-- The studio's own schema: photos, the durable job queue, results, the
-- free plan's download count, and what it hears from users and billing.

CREATE TABLE images (
    id          uuid PRIMARY KEY,
    category_id uuid NOT NULL,
    filename    text NOT NULL,
    format      text NOT NULL,
    width       int  NOT NULL,
    height      int  NOT NULL,
    -- blob keys: the photo as uploaded, and the refined mask once a worker
    -- made it (later jobs on the same photo reuse it)
    source_key  text NOT NULL,
    mask_key    text,
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX images_category ON images (category_id);

-- The queue: a worker leases the oldest queued job (FOR UPDATE SKIP
-- LOCKED) until lease_until, renewing the lease while it works. A worker
-- that dies leaves the lease to expire; the job is then leased again, at
-- most domain.MaxAttempts times in all.
CREATE TABLE jobs (
    id          uuid PRIMARY KEY,
    category_id uuid NOT NULL,
    image_id    uuid NOT NULL REFERENCES images (id) ON DELETE CASCADE,
    kind        text NOT NULL CHECK (kind IN ('cutout', 'studio', 'presets')),
    backdrop    text NOT NULL,
    color       text NOT NULL,
    size        int  NOT NULL,
    status      text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'working', 'done', 'failed')),
    progress    int  NOT NULL DEFAULT 0,
    error       text NOT NULL DEFAULT '',
    attempts    int  NOT NULL DEFAULT 0,
    lease_until timestamptz,
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX jobs_category ON jobs (category_id, created_at DESC);
CREATE INDEX jobs_pending ON jobs (created_at) WHERE status IN ('queued', 'working');

CREATE TABLE results (
    id          uuid PRIMARY KEY,
    job_id      uuid NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
    category_id uuid NOT NULL,
    name        text NOT NULL,
    format      text NOT NULL,
    width       int  NOT NULL,
    height      int  NOT NULL,
    bytes       bigint NOT NULL,
    key         text NOT NULL,
    preview_key text NOT NULL,
    position    int  NOT NULL
);
CREATE INDEX results_job ON results (job_id, position);

-- A download counts once per result and month; deleting the result later
-- does not give the download back.
CREATE TABLE downloads (
    category_id   uuid NOT NULL,
    month         text NOT NULL,
    result_id     uuid NOT NULL,
    downloaded_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (category_id, month, result_id)
);

-- Whose category it is (UserCreated) and their plan (BillingChanged).
CREATE TABLE owners (
    category_id uuid PRIMARY KEY,
    user_id     text NOT NULL
);
CREATE INDEX owners_user ON owners (user_id);

CREATE TABLE plans (
    user_id         text PRIMARY KEY,
    tier            text NOT NULL,
    is_manually_set boolean NOT NULL,
    source_time     timestamptz NOT NULL
);
