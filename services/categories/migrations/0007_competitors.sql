-- Competitor websites of a business (up to 3), reviewed beside its own.
ALTER TABLE categories ADD COLUMN competitors text[] NOT NULL DEFAULT '{}';
