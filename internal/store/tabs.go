package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/agenttab/agenttab/protocol"
)

// Sources of ownership: the three paths spec 001 allows.
const (
	SourceCreated = "created"
	SourceAdopted = "adopted"
	SourceChild   = "child"
)

// Tab ownership states.
const (
	TabOwned    = "owned"
	TabRevoked  = "revoked"
	TabReleased = "released"
)

// ErrAlreadyOwned is returned (wrapped) by AddOwnedTab when some task already
// owns the Chrome tab: ownership is exclusive.
var ErrAlreadyOwned = errors.New("tab is already owned")

// OwnedTab is one grant of ownership of a Chrome tab to a task. Rows outlive
// the grant (as revoked or released) so that a tab's generation only grows.
type OwnedTab struct {
	// Handle is the opaque name agents use; never a Chrome tab id.
	Handle      string
	TaskID      string
	ChromeTabID int
	WindowID    int
	GroupID     int
	// Generation changes on every grant and revocation of the Chrome tab, so
	// work queued under an old generation can be refused (spec 001).
	Generation   int64
	Source       string // SourceCreated, SourceAdopted or SourceChild
	State        string // TabOwned, TabRevoked or TabReleased
	RevokeReason string
	CreatedAt    time.Time
}

const tabColumns = `handle, task_id, chrome_tab_id, window_id, group_id, generation, source, state, revoke_reason, created_at`

// handleAttempts bounds the retries on a handle collision. Handles have 32
// random bits, so even one retry is rare.
const handleAttempts = 16

// AddOwnedTab grants tab.ChromeTabID to tab.TaskID, which must be an active
// task. The store chooses Handle, Generation (one more than any generation
// ever recorded for that Chrome tab) and State (owned); a zero CreatedAt
// means now. It fails with ErrAlreadyOwned when another grant is in force.
func (s *Store) AddOwnedTab(ctx context.Context, tab OwnedTab) (OwnedTab, error) {
	switch tab.Source {
	case SourceCreated, SourceAdopted, SourceChild:
	default:
		return OwnedTab{}, fmt.Errorf("store: add owned tab: unknown source %q", tab.Source)
	}
	if tab.CreatedAt.IsZero() {
		tab.CreatedAt = time.Now()
	}
	tab.CreatedAt = fromMillis(millis(tab.CreatedAt))
	tab.State = TabOwned
	tab.RevokeReason = ""
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		var state string
		err := tx.QueryRowContext(ctx, `SELECT state FROM tasks WHERE id = ?`, tab.TaskID).Scan(&state)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("task %s: %w", tab.TaskID, ErrNotFound)
		}
		if err != nil {
			return err
		}
		if state != TaskActive {
			return fmt.Errorf("task %s is %s", tab.TaskID, state)
		}
		var owner string
		err = tx.QueryRowContext(ctx, `SELECT task_id FROM owned_tabs WHERE chrome_tab_id = ? AND state = ?`,
			tab.ChromeTabID, TabOwned).Scan(&owner)
		if err == nil {
			return fmt.Errorf("chrome tab %d (owner %s): %w", tab.ChromeTabID, owner, ErrAlreadyOwned)
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(generation), 0) + 1 FROM owned_tabs WHERE chrome_tab_id = ?`,
			tab.ChromeTabID).Scan(&tab.Generation); err != nil {
			return err
		}
		if tab.Handle, err = freeHandle(ctx, tx); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO owned_tabs (`+tabColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			tab.Handle, tab.TaskID, tab.ChromeTabID, tab.WindowID, tab.GroupID, tab.Generation,
			tab.Source, tab.State, tab.RevokeReason, millis(tab.CreatedAt))
		if err != nil {
			return err
		}
		return forgetRevisionFloor(ctx, tx, tab.ChromeTabID)
	})
	if err != nil {
		return OwnedTab{}, fmt.Errorf("store: add owned tab: %w", err)
	}
	return tab, nil
}

func freeHandle(ctx context.Context, tx *sql.Tx) (string, error) {
	for range handleAttempts {
		h := protocol.HandlePrefixTab + randomHex(4)
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM owned_tabs WHERE handle = ?`, h).Scan(&n); err != nil {
			return "", err
		}
		if n == 0 {
			return h, nil
		}
	}
	return "", errors.New("no free tab handle after repeated collisions")
}

// OwnedTabs returns the tabs the task owns now, in the order they were
// granted.
func (s *Store) OwnedTabs(ctx context.Context, taskID string) ([]OwnedTab, error) {
	tabs, err := s.queryTabs(ctx, `WHERE task_id = ? AND state = ? ORDER BY id`, taskID, TabOwned)
	if err != nil {
		return nil, fmt.Errorf("store: owned tabs of task %s: %w", taskID, err)
	}
	return tabs, nil
}

// AllOwnedTabs returns every tab any task owns now, in grant order; the host
// reconciles them against Chrome at start.
func (s *Store) AllOwnedTabs(ctx context.Context) ([]OwnedTab, error) {
	tabs, err := s.queryTabs(ctx, `WHERE state = ? ORDER BY id`, TabOwned)
	if err != nil {
		return nil, fmt.Errorf("store: all owned tabs: %w", err)
	}
	return tabs, nil
}

// TabByHandle returns the task's tab with handle in any state, so the caller
// can say "revoked" rather than "unknown". A handle of another task is
// ErrNotFound: it must not be distinguishable from a made-up one.
func (s *Store) TabByHandle(ctx context.Context, taskID, handle string) (OwnedTab, error) {
	t, err := scanTab(s.read.QueryRowContext(ctx, `SELECT `+tabColumns+` FROM owned_tabs WHERE handle = ? AND task_id = ?`,
		handle, taskID))
	if errors.Is(err, sql.ErrNoRows) {
		return OwnedTab{}, fmt.Errorf("store: tab %s of task %s: %w", handle, taskID, ErrNotFound)
	}
	if err != nil {
		return OwnedTab{}, fmt.Errorf("store: tab %s of task %s: %w", handle, taskID, err)
	}
	return t, nil
}

// OwnedTabByChromeID returns the grant in force for a Chrome tab.
func (s *Store) OwnedTabByChromeID(ctx context.Context, chromeTabID int) (OwnedTab, error) {
	t, err := scanTab(s.read.QueryRowContext(ctx, `SELECT `+tabColumns+` FROM owned_tabs WHERE chrome_tab_id = ? AND state = ?`,
		chromeTabID, TabOwned))
	if errors.Is(err, sql.ErrNoRows) {
		return OwnedTab{}, fmt.Errorf("store: owned chrome tab %d: %w", chromeTabID, ErrNotFound)
	}
	if err != nil {
		return OwnedTab{}, fmt.Errorf("store: owned chrome tab %d: %w", chromeTabID, err)
	}
	return t, nil
}

// RevokeTab ends the grant in force for a Chrome tab and advances its
// generation. It reports false, without error, when no task owned the tab:
// Chrome events for unowned tabs are normal.
func (s *Store) RevokeTab(ctx context.Context, chromeTabID int, reason string) (OwnedTab, bool, error) {
	var t OwnedTab
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		var err error
		t, err = scanTab(tx.QueryRowContext(ctx, `UPDATE owned_tabs
			SET state = ?, revoke_reason = ?, generation = generation + 1
			WHERE chrome_tab_id = ? AND state = ?
			RETURNING `+tabColumns, TabRevoked, reason, chromeTabID, TabOwned))
		return err
	})
	if errors.Is(err, sql.ErrNoRows) {
		return OwnedTab{}, false, nil
	}
	if err != nil {
		return OwnedTab{}, false, fmt.Errorf("store: revoke chrome tab %d: %w", chromeTabID, err)
	}
	return t, true, nil
}

// UpdateTabPlacement records where Chrome now shows an owned tab (its window
// and group), for the default-window rule and reconciliation.
func (s *Store) UpdateTabPlacement(ctx context.Context, chromeTabID, windowID, groupID int) error {
	res, err := s.db.ExecContext(ctx, `UPDATE owned_tabs SET window_id = ?, group_id = ?
		WHERE chrome_tab_id = ? AND state = ?`, windowID, groupID, chromeTabID, TabOwned)
	if err != nil {
		return fmt.Errorf("store: update placement of chrome tab %d: %w", chromeTabID, err)
	}
	return expectOne(res, fmt.Sprintf("store: update placement of chrome tab %d", chromeTabID))
}

// ReleaseTaskTabs ends every grant of the task without revoking (the task
// let go; nothing went wrong) and returns how many it ended.
func (s *Store) ReleaseTaskTabs(ctx context.Context, taskID string) (int, error) {
	var n int
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		var err error
		n, err = releaseTabs(ctx, tx, taskID)
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("store: release tabs of task %s: %w", taskID, err)
	}
	return n, nil
}

func releaseTabs(ctx context.Context, tx *sql.Tx, taskID string) (int, error) {
	res, err := tx.ExecContext(ctx, `UPDATE owned_tabs SET state = ? WHERE task_id = ? AND state = ?`,
		TabReleased, taskID, TabOwned)
	if err != nil {
		return 0, err
	}
	n, err := res.RowsAffected()
	return int(n), err
}

func (s *Store) queryTabs(ctx context.Context, where string, args ...any) ([]OwnedTab, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT `+tabColumns+` FROM owned_tabs `+where, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []OwnedTab
	for rows.Next() {
		t, err := scanTab(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

func scanTab(r rowScanner) (OwnedTab, error) {
	var t OwnedTab
	var created int64
	if err := r.Scan(&t.Handle, &t.TaskID, &t.ChromeTabID, &t.WindowID, &t.GroupID, &t.Generation,
		&t.Source, &t.State, &t.RevokeReason, &created); err != nil {
		return OwnedTab{}, err
	}
	t.CreatedAt = fromMillis(created)
	return t, nil
}
