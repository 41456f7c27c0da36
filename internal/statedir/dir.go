package statedir

import "path/filepath"

// Dir is a resolved state directory. Its methods name the files inside it,
// so that no other package spells a state file name by hand.
type Dir string

func (d Dir) join(name string) string { return filepath.Join(string(d), name) }

// DB is the SQLite database (with its -wal and -shm companions).
func (d Dir) DB() string { return d.join("state.db") }

// Audit is the JSON-lines audit log.
func (d Dir) Audit() string { return d.join("audit.jsonl") }

// Policy is the local managed policy.
func (d Dir) Policy() string { return d.join("policy.json") }

// Socket is the Core RPC Unix socket (Windows uses a named pipe instead).
func (d Dir) Socket() string { return d.join("core.sock") }

// Lock is the host lock file; it holds the pid of the serving host.
func (d Dir) Lock() string { return d.join("host.lock") }

// HostLog is the host's own diagnostic log (never audit data).
func (d Dir) HostLog() string { return d.join("host.log") }

// Extension is the folder `agenttab install` writes for Load unpacked.
func (d Dir) Extension() string { return d.join("extension") }

// Adapters holds adapter-owned private state such as resume capabilities.
func (d Dir) Adapters() string { return d.join("adapters") }

// HTTPToken is the bearer token `agenttab mcp --http` requires.
func (d Dir) HTTPToken() string { return filepath.Join(d.Adapters(), "http-token") }

// Blobs holds screenshots and captured text windows passed by reference.
func (d Dir) Blobs() string { return d.join("blobs") }

// Uploads holds the upload stager's per-upload directories.
func (d Dir) Uploads() string { return d.join("uploads") }
