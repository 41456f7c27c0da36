package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// The store holds a fixed set of SQLite connections from Open to Close: one
// writer and readerConns readers, all opened by Open. Requests beyond them
// wait in Go for a free one instead of opening more. Issue 9: with an
// unbounded pool, 20,000 pipelined requests opened a SQLite connection each
// until the process ran out of descriptors, and connections the pool closed
// afterwards kept theirs: SQLite defers closing a file descriptor while
// another connection of the process holds a POSIX lock on the same file
// (which a WAL connection does), so pool churn leaked them for good, and
// connections opened while descriptors ran out came up read-only.
const (
	// writerConns is one: SQLite admits one writer at a time anyway, and
	// with one connection writers queue in Go rather than poll SQLite's
	// lock under busy_timeout and fail with SQLITE_BUSY when it runs out.
	writerConns = 1
	// readerConns serve the frequent lookups of every request (the task,
	// its tabs) beside the writer: WAL readers never wait for it. Four is
	// more than the host's two-core machines run at once.
	readerConns = 4
)

// writerPragmas apply to every connection the pool opens, which a one-off
// PRAGMA after Open would not. synchronous(FULL) makes a committed
// idempotency "started" record survive power loss before the caller
// dispatches; _txlock=immediate takes the write lock at BEGIN so that a
// read-then-write transaction never has to upgrade its lock.
const writerPragmas = "_pragma=journal_mode(WAL)&_pragma=synchronous(FULL)&_pragma=busy_timeout(5000)&_pragma=foreign_keys(1)&_txlock=immediate"

// readerPragmas make a reader unable to write (query_only), so a write sent
// to the readers by mistake fails instead of racing the writer. The
// database is already in WAL mode when they open (the writer set it).
const readerPragmas = "_pragma=busy_timeout(5000)&_pragma=foreign_keys(1)&_query_only=1"

// openPool opens a pool of exactly n connections to dsn and keeps them all
// open until Close: no idle timeout, no lifetime, so there is no churn.
func openPool(ctx context.Context, dsn string, n int) (*sql.DB, error) {
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(n)
	db.SetMaxIdleConns(n)
	if err := fill(ctx, db, n); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// fill opens all n connections now and reads through each (which opens
// its -wal file), so that a failure shows at Open and the store's
// descriptors do not change afterwards.
func fill(ctx context.Context, db *sql.DB, n int) error {
	conns := make([]*sql.Conn, 0, n)
	var errs []error
	for range n {
		c, err := db.Conn(ctx)
		if err != nil {
			errs = append(errs, err)
			break
		}
		conns = append(conns, c)
		var tables int
		if err := c.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_schema").Scan(&tables); err != nil {
			errs = append(errs, err)
			break
		}
	}
	for _, c := range conns {
		errs = append(errs, c.Close())
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("opening %d connections: %w", n, err)
	}
	return nil
}
