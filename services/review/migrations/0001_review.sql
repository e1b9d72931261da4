-- The review schema. The event tables every service has (its outbox and
-- the ids of the messages it consumed) come with the platform's own
-- migrations; the review's tables follow here.
SELECT 1;
