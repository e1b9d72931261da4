CREATE TABLE users (
    id                   text PRIMARY KEY,
    email                text        NOT NULL,
    display_name         text        NOT NULL,
    sign_up_source       text        NOT NULL DEFAULT '',
    category_id          text        NOT NULL DEFAULT '',
    original_category_id text        NOT NULL DEFAULT '',
    is_uplifter          boolean     NOT NULL DEFAULT false,
    billing_tier         text,
    billing_manually_set boolean     NOT NULL DEFAULT false,
    created_at           timestamptz NOT NULL DEFAULT now(),
    updated_at           timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_email_key ON users (lower(email));
