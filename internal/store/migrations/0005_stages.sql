-- 0005 (issue 12): Commit stages. A stage is a step the extension did not
-- run because YOLO mode is off and its target has a recognised effect
-- (protocol/commit.go). It lives five minutes, is used once, and its
-- states survive host and browser restarts (spec 000: approval is durable;
-- a crash between approval and commit never runs it twice). The preview
-- stays in the extension: only its digest is here. The popup's review
-- handle is never stored, only its SHA-256 (review_handle_hash), so a copy
-- of this file cannot approve anything.
CREATE TABLE stages (
	id                 TEXT    PRIMARY KEY, -- "stg_" + random
	task_id            TEXT    NOT NULL REFERENCES tasks(id),
	tab_handle         TEXT    NOT NULL,
	chrome_tab_id      INTEGER NOT NULL,
	generation         INTEGER NOT NULL, -- of the ownership grant it was staged under
	page_revision      INTEGER NOT NULL,
	step_json          TEXT    NOT NULL,
	effect             TEXT    NOT NULL,
	fingerprint        TEXT    NOT NULL,
	preview_digest     TEXT    NOT NULL,
	review_handle_hash TEXT    NOT NULL UNIQUE,
	state              TEXT    NOT NULL CHECK (state IN ('pending', 'approved', 'denied', 'expired', 'consumed', 'discarded')),
	created_at         INTEGER NOT NULL,
	expires_at         INTEGER NOT NULL,
	decided_at         INTEGER
) STRICT;
CREATE INDEX stages_by_task ON stages(task_id, state);
-- The stages YOLO mode, finish and expiry still act on.
CREATE INDEX stages_open ON stages(expires_at) WHERE state IN ('pending', 'approved');
