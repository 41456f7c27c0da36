package store

import (
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"time"
)

// Times are stored as unix milliseconds: sortable, zone-free, and precise
// enough for the 24-hour and five-minute rules they feed.

func millis(t time.Time) int64 { return t.UnixMilli() }

func fromMillis(ms int64) time.Time { return time.UnixMilli(ms).UTC() }

func nullMillis(t *time.Time) sql.NullInt64 {
	if t == nil {
		return sql.NullInt64{}
	}
	return sql.NullInt64{Int64: t.UnixMilli(), Valid: true}
}

func timePtr(n sql.NullInt64) *time.Time {
	if !n.Valid {
		return nil
	}
	t := fromMillis(n.Int64)
	return &t
}

// randomHex returns 2n hex digits from crypto/rand. Task ids and tab
// handles are unguessable so that a client cannot name another task's tab
// by counting.
func randomHex(n int) string {
	b := make([]byte, n)
	// crypto/rand.Read never fails (it crashes the program instead).
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
