package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"strings"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// ErrNotFound is returned (wrapped) when a row the caller names does not
// exist, or exists but is not the caller's.
var ErrNotFound = errors.New("not found")

// dsnPragmas apply to every connection the pool opens, which a one-off
// PRAGMA after Open would not. synchronous(FULL) makes a committed
// idempotency "started" record survive power loss before the caller
// dispatches; _txlock=immediate takes the write lock at BEGIN so that two
// read-then-write transactions wait on busy_timeout instead of failing with
// SQLITE_BUSY when one of them upgrades.
const dsnPragmas = "_pragma=journal_mode(WAL)&_pragma=synchronous(FULL)&_pragma=busy_timeout(5000)&_pragma=foreign_keys(1)&_txlock=immediate"

// Store is the open state database. It is safe for concurrent use.
type Store struct {
	db *sql.DB
}

// Open opens (creating) the database at path with mode 0600 and applies any
// pending migrations.
func Open(path string) (*Store, error) {
	// The driver splits its DSN at the first '?'.
	if strings.ContainsRune(path, '?') {
		return nil, fmt.Errorf("store: open %s: the path must not contain '?'", path)
	}
	// Create the file ourselves so that it is owner-only from its first
	// byte; SQLite then gives -wal and -shm the same mode as the database.
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	err = f.Chmod(0o600)
	f.Close()
	if err != nil {
		return nil, fmt.Errorf("store: make %s owner-only: %w", path, err)
	}

	db, err := sql.Open("sqlite", path+"?"+dsnPragmas)
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	s := &Store{db: db}
	if err := s.migrate(context.Background()); err != nil {
		db.Close()
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	return s, nil
}

// Close closes the database.
func (s *Store) Close() error {
	if err := s.db.Close(); err != nil {
		return fmt.Errorf("store: close: %w", err)
	}
	return nil
}

// IntegrityCheck runs PRAGMA integrity_check and fails unless SQLite answers
// exactly "ok".
func (s *Store) IntegrityCheck(ctx context.Context) error {
	rows, err := s.db.QueryContext(ctx, "PRAGMA integrity_check")
	if err != nil {
		return fmt.Errorf("store: integrity check: %w", err)
	}
	defer rows.Close()
	var problems []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			return fmt.Errorf("store: integrity check: %w", err)
		}
		problems = append(problems, line)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("store: integrity check: %w", err)
	}
	if len(problems) == 1 && problems[0] == "ok" {
		return nil
	}
	return fmt.Errorf("store: integrity check failed: %s", strings.Join(problems, "; "))
}

// inTx runs fn in one (immediate) transaction and commits it, or rolls it
// back when fn fails.
func (s *Store) inTx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback()
		return err
	}
	return tx.Commit()
}
