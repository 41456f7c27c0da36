-- Host-wide settings that must survive a restart (the user's Pause).
CREATE TABLE settings (
	key   TEXT PRIMARY KEY,
	value TEXT NOT NULL
) STRICT;
