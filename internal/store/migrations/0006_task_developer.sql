-- A task that used Developer mode stays marked for its whole life (spec
-- 000: Developer mode "is visibly marked on a task"), across host restarts.
ALTER TABLE tasks ADD COLUMN developer INTEGER NOT NULL DEFAULT 0;
