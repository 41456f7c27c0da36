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

// Store is the open state database. It is safe for concurrent use.
type Store struct {
	// db is the one writer (pool.go); everything that writes, and every
	// read that must see the same transaction, goes through it.
	db *sql.DB
	// read are the readers, for the frequent lookups of every request.
	read *sql.DB
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

	ctx := context.Background()
	db, err := openPool(ctx, path+"?"+writerPragmas, writerConns)
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	s := &Store{db: db}
	if err := s.migrate(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	// The readers open once the writer has put the file in WAL mode.
	if s.read, err = openPool(ctx, path+"?"+readerPragmas, readerConns); err != nil {
		db.Close()
		return nil, fmt.Errorf("store: open %s readers: %w", path, err)
	}
	return s, nil
}

// Close closes the database.
func (s *Store) Close() error {
	if err := errors.Join(s.read.Close(), s.db.Close()); err != nil {
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
