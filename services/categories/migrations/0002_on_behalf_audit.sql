-- Every change an uplifter makes to a store owner's category while acting
-- on their behalf, so the owner and operators can later see who did what
-- as whom and when (issue 3). Rows are written in the transaction of the
-- change they describe: a change that rolled back leaves no row, and a
-- change that committed always has one. Owners' own changes are not logged.
--
-- The row goes with its category (ON DELETE CASCADE): when the owner is
-- deleted, nothing naming them is left behind.
CREATE TABLE on_behalf_audit (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    actor_id    text        NOT NULL,
    owner_id    text        NOT NULL,
    category_id text        NOT NULL REFERENCES categories (id) ON DELETE CASCADE,
    action      text        NOT NULL,
    occurred_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX on_behalf_audit_category_idx ON on_behalf_audit (category_id, occurred_at DESC);
CREATE INDEX on_behalf_audit_owner_idx ON on_behalf_audit (owner_id);
CREATE INDEX on_behalf_audit_actor_idx ON on_behalf_audit (actor_id);
