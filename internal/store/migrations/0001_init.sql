-- 0001: the host's first schema. Times are unix milliseconds (UTC).
-- Tables are STRICT so that a wrong Go type is an error, not a silent cast.

-- One row per Core RPC connection the host accepted.
CREATE TABLE connections (
	id              TEXT    PRIMARY KEY,
	opened_at       INTEGER NOT NULL,
	closed_at       INTEGER,
	peer_pid        INTEGER NOT NULL DEFAULT 0,
	client_name     TEXT    NOT NULL DEFAULT '',
	client_version  TEXT    NOT NULL DEFAULT '',
	conversation_id TEXT    NOT NULL DEFAULT ''
) STRICT;

-- Tasks are never deleted. seq is AUTOINCREMENT so that a label ("Agent 3")
-- is never given to a second task, even if rows are pruned one day.
CREATE TABLE tasks (
	seq             INTEGER PRIMARY KEY AUTOINCREMENT,
	id              TEXT    NOT NULL UNIQUE,
	label           TEXT    NOT NULL,
	color           TEXT    NOT NULL,
	connection_id   TEXT    REFERENCES connections(id), -- NULL while detached
	conversation_id TEXT    NOT NULL DEFAULT '',
	state           TEXT    NOT NULL CHECK (state IN ('active', 'finished')),
	created_at      INTEGER NOT NULL,
	detached_at     INTEGER,
	finished_at     INTEGER
) STRICT;
CREATE INDEX tasks_by_connection ON tasks(connection_id) WHERE state = 'active';

-- Every ownership grant, kept after it ends so that generations only grow.
CREATE TABLE owned_tabs (
	id            INTEGER PRIMARY KEY, -- creation order
	handle        TEXT    NOT NULL UNIQUE,
	task_id       TEXT    NOT NULL REFERENCES tasks(id),
	chrome_tab_id INTEGER NOT NULL,
	window_id     INTEGER NOT NULL,
	group_id      INTEGER NOT NULL,
	generation    INTEGER NOT NULL,
	source        TEXT    NOT NULL CHECK (source IN ('created', 'adopted', 'child')),
	state         TEXT    NOT NULL CHECK (state IN ('owned', 'revoked', 'released')),
	revoke_reason TEXT    NOT NULL DEFAULT '',
	created_at    INTEGER NOT NULL
) STRICT;
-- A Chrome tab has at most one owner at a time.
CREATE UNIQUE INDEX owned_tabs_one_owner ON owned_tabs(chrome_tab_id) WHERE state = 'owned';
CREATE INDEX owned_tabs_by_task ON owned_tabs(task_id, state);
CREATE INDEX owned_tabs_by_chrome_id ON owned_tabs(chrome_tab_id, generation);

-- The lowest page revision the host will accept for a tab.
CREATE TABLE revision_floors (
	chrome_tab_id INTEGER PRIMARY KEY,
	revision      INTEGER NOT NULL
) STRICT;

-- Idempotency records, scoped to the task (DESIGN.md "Idempotency").
CREATE TABLE idempotency (
	task_id      TEXT    NOT NULL REFERENCES tasks(id),
	key          TEXT    NOT NULL,
	method       TEXT    NOT NULL,
	args_digest  TEXT    NOT NULL,
	state        TEXT    NOT NULL CHECK (state IN ('started', 'completed')),
	result       BLOB, -- JSON, set when completed
	failed       INTEGER NOT NULL DEFAULT 0 CHECK (failed IN (0, 1)),
	created_at   INTEGER NOT NULL,
	completed_at INTEGER,
	PRIMARY KEY (task_id, key)
) STRICT;

-- Local reliability receipts of events a task observed.
CREATE TABLE event_receipts (
	id           INTEGER PRIMARY KEY AUTOINCREMENT,
	task_id      TEXT    NOT NULL REFERENCES tasks(id),
	kind         TEXT    NOT NULL,
	payload_json TEXT    NOT NULL,
	created_at   INTEGER NOT NULL
) STRICT;
CREATE INDEX event_receipts_by_task ON event_receipts(task_id, id);
