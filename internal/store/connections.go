package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Connection is one accepted Core RPC connection. Its identity comes from the
// host (ID, PeerPID); the client names are what the client said about itself
// and grant nothing (spec 001).
type Connection struct {
	ID             string
	OpenedAt       time.Time
	ClosedAt       *time.Time
	PeerPID        int
	ClientName     string
	ClientVersion  string
	ConversationID string
}

// InsertConnection records a new connection.
func (s *Store) InsertConnection(ctx context.Context, c Connection) error {
	if c.ID == "" {
		return errors.New("store: insert connection: empty id")
	}
	_, err := s.db.ExecContext(ctx, `INSERT INTO connections
		(id, opened_at, closed_at, peer_pid, client_name, client_version, conversation_id)
		VALUES (?, ?, ?, ?, ?, ?, ?)`,
		c.ID, millis(c.OpenedAt), nullMillis(c.ClosedAt), c.PeerPID, c.ClientName, c.ClientVersion, c.ConversationID)
	if err != nil {
		return fmt.Errorf("store: insert connection %s: %w", c.ID, err)
	}
	return nil
}

// Connection returns the connection with id.
func (s *Store) Connection(ctx context.Context, id string) (Connection, error) {
	var c Connection
	var opened int64
	var closed sql.NullInt64
	err := s.read.QueryRowContext(ctx, `SELECT id, opened_at, closed_at, peer_pid, client_name, client_version, conversation_id
		FROM connections WHERE id = ?`, id).
		Scan(&c.ID, &opened, &closed, &c.PeerPID, &c.ClientName, &c.ClientVersion, &c.ConversationID)
	if errors.Is(err, sql.ErrNoRows) {
		return Connection{}, fmt.Errorf("store: connection %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return Connection{}, fmt.Errorf("store: connection %s: %w", id, err)
	}
	c.OpenedAt = fromMillis(opened)
	c.ClosedAt = timePtr(closed)
	return c, nil
}

// UpdateConnectionMeta stores what the client said about itself at
// initialize.
func (s *Store) UpdateConnectionMeta(ctx context.Context, id, clientName, clientVersion, conversationID string) error {
	res, err := s.db.ExecContext(ctx, `UPDATE connections
		SET client_name = ?, client_version = ?, conversation_id = ? WHERE id = ?`,
		clientName, clientVersion, conversationID, id)
	if err != nil {
		return fmt.Errorf("store: update connection %s: %w", id, err)
	}
	return expectOne(res, "store: update connection "+id)
}

// CloseConnection marks the connection closed at at. Closing twice keeps the
// first time.
func (s *Store) CloseConnection(ctx context.Context, id string, at time.Time) error {
	res, err := s.db.ExecContext(ctx, `UPDATE connections SET closed_at = COALESCE(closed_at, ?) WHERE id = ?`,
		millis(at), id)
	if err != nil {
		return fmt.Errorf("store: close connection %s: %w", id, err)
	}
	return expectOne(res, "store: close connection "+id)
}

// expectOne turns "no row changed" into ErrNotFound.
func expectOne(res sql.Result, what string) error {
	n, err := res.RowsAffected()
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	if n == 0 {
		return fmt.Errorf("%s: %w", what, ErrNotFound)
	}
	return nil
}
