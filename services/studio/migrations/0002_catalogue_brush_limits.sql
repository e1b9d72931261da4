-- Photos picked from the store's catalogue keep the product they came
-- from; the free plan's tool runs are counted per month.

ALTER TABLE images ADD COLUMN product_id text NOT NULL DEFAULT '';

-- A tool run counts once, in the month it was queued; deleting the job
-- later does not give it back.
CREATE TABLE job_runs (
    category_id uuid NOT NULL,
    month       text NOT NULL,
    job_id      uuid NOT NULL,
    PRIMARY KEY (category_id, month, job_id)
);
