-- ReportUpdated now goes on one subject per category
-- (uplift.categories.report_updated.<categoryId>), and NATS no longer lets
-- categories publish the old shared subject: an unpublished row for it
-- would be refused at every relay round and hold up every event queued
-- behind it. Such rows are progress notices the Home page's poll catches
-- up with, so they are dropped rather than rewritten.
DELETE FROM outbox WHERE subject = 'uplift.categories.report_updated' AND published_at IS NULL;
