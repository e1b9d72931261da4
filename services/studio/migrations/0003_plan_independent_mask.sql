-- A photo's kept mask is now the model's after shadow suppression, before
-- what the plan adds (hole recovery, a beta feature), which the worker
-- applies for each job under the owner's plan of the moment; the owner's
-- touch-ups are a layer of their own, laid over it. A plan change then
-- applies to the photo's next result at once.
ALTER TABLE images ADD COLUMN edits_key text;

-- The masks kept before were refined for the plan of their time (and
-- touched up in place): the worker makes each again from the model on the
-- photo's next job. A touch-up made before this change is not carried over.
UPDATE images SET mask_key = NULL;
