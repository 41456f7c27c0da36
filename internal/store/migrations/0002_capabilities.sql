-- Resume capabilities (spec 000/001): only SHA-256 hashes are kept. A task
-- has at most one capability in force (cap_hash, usable once confirmed)
-- and at most one rotated replacement awaiting its confirmation
-- (cap_pending_hash); until that confirmation both resume the task.
ALTER TABLE tasks ADD COLUMN cap_hash TEXT;
ALTER TABLE tasks ADD COLUMN cap_confirmed INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tasks ADD COLUMN cap_pending_hash TEXT;
CREATE UNIQUE INDEX tasks_by_cap ON tasks(cap_hash) WHERE cap_hash IS NOT NULL;
CREATE UNIQUE INDEX tasks_by_pending_cap ON tasks(cap_pending_hash) WHERE cap_pending_hash IS NOT NULL;
