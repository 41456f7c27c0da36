-- 0004 (issue 10): event_receipts goes. 0001 created it and nothing ever
-- wrote it. Spec 000 keeps event receipts in SQLite with full synchronous
-- writes; every event the host observes already is, atomically with its
-- effect, in the row that effect lives in: a revocation in owned_tabs
-- (state, revoke_reason, a new generation), a child or a found tab in
-- owned_tabs (source), a revision in revision_floors, a Pause in settings.
-- A second row per event would be a copy nobody reads. Dropping the table
-- drops its index.
DROP TABLE event_receipts;
