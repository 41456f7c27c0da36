package protocol

// browser_profile (issue 14; spec 000 "Profile operations"): the one
// Standard tool that works on the Chrome profile rather than a task tab.
// Bookmarks (search, tree, create, update, move, and bookmarks_remove,
// which always stages a Commit record, YOLO mode or not), history_search
// (read only), sessions (list, and sessions_restore as inactive task tabs
// of their http(s) URLs, at most 25; refused under managed origin lists),
// and downloads (search, cancel, pause, resume; never open, show, remove
// or erase). Profile work is browser-global (spec 001), needs no site
// access, respects Pause and never focuses anything. Titles, URLs, file
// names and search text appear only in the result to the requesting agent:
// the audit replaces every string argument with a length-only marker, and
// write results (kept as idempotency records) carry ids and state only.

// MethodProfile is browser_profile's Core method.
const MethodProfile = "browser_profile"

// NativeProfile runs one profile operation (host→extension; global class).
const NativeProfile = "profile"

// ProfileOp is one browser_profile operation.
type ProfileOp string

const (
	ProfileBookmarksSearch ProfileOp = "bookmarks_search"
	ProfileBookmarksTree   ProfileOp = "bookmarks_tree"
	ProfileBookmarksCreate ProfileOp = "bookmarks_create"
	ProfileBookmarksUpdate ProfileOp = "bookmarks_update"
	ProfileBookmarksMove   ProfileOp = "bookmarks_move"
	ProfileBookmarksRemove ProfileOp = "bookmarks_remove"
	ProfileHistorySearch   ProfileOp = "history_search"
	ProfileSessionsList    ProfileOp = "sessions_list"
	ProfileSessionsRestore ProfileOp = "sessions_restore"
	ProfileDownloadsSearch ProfileOp = "downloads_search"
	ProfileDownloadsCancel ProfileOp = "downloads_cancel"
	ProfileDownloadsPause  ProfileOp = "downloads_pause"
	ProfileDownloadsResume ProfileOp = "downloads_resume"
)

// ProfileOps lists every ProfileOp, in the order agents see them.
var ProfileOps = []ProfileOp{
	ProfileBookmarksSearch, ProfileBookmarksTree, ProfileBookmarksCreate, ProfileBookmarksUpdate, ProfileBookmarksMove, ProfileBookmarksRemove,
	ProfileHistorySearch, ProfileSessionsList, ProfileSessionsRestore,
	ProfileDownloadsSearch, ProfileDownloadsCancel, ProfileDownloadsPause, ProfileDownloadsResume,
}

// ProfileWrites are the operations that change the profile: they carry
// idempotency keys, and their results carry ids and state only.
var ProfileWrites = []ProfileOp{ProfileBookmarksCreate, ProfileBookmarksUpdate, ProfileBookmarksMove, ProfileBookmarksRemove, ProfileSessionsRestore, ProfileDownloadsCancel, ProfileDownloadsPause, ProfileDownloadsResume}

// Bounds.
const (
	// MaxRestoreURLs bounds sessions_restore (spec 000: at most 25).
	MaxRestoreURLs = 25
	// DefaultProfileResults and MaxProfileResults bound a search's answer.
	DefaultProfileResults = 50
	MaxProfileResults     = 1000
)

// Profile error codes.
const (
	// CodeBookmarkProtected: the invisible root, its top-level folders and
	// managed bookmarks cannot be changed.
	CodeBookmarkProtected ErrorCode = "bookmark_protected"
	// CodeBookmarkFolderNotEmpty: bookmarks_remove removes one bookmark or
	// one empty folder.
	CodeBookmarkFolderNotEmpty ErrorCode = "bookmark_folder_not_empty"
	// CodeProfileNotFound: no bookmark, session or download with that id.
	CodeProfileNotFound ErrorCode = "profile_item_not_found"
	// CodeOriginPolicyUnverifiable is declared with the origin policy
	// (origins.go); sessions_restore under managed lists answers it.
)

// ProfileParams are browser_profile's arguments; which apply depends on Op.
type ProfileParams struct {
	Op ProfileOp `json:"op"`
	// Query is the search text (bookmarks_search, history_search,
	// downloads_search).
	Query string `json:"query,omitempty"`
	// ID names a bookmark, a session or a download.
	ID string `json:"id,omitempty"`
	// ParentID and Index place a bookmark (create, move).
	ParentID string `json:"parent_id,omitempty"`
	Index    *int   `json:"index,omitempty"`
	Title    string `json:"title,omitempty"`
	URL      string `json:"url,omitempty"`
	// StartTimeMs and EndTimeMs bound history_search (epoch ms).
	StartTimeMs    *int64 `json:"start_time_ms,omitempty"`
	EndTimeMs      *int64 `json:"end_time_ms,omitempty"`
	MaxResults     *int   `json:"max_results,omitempty"`
	IdempotencyKey string `json:"idempotency_key,omitempty"`
}

// ProfileResult: Items for reads; IDs and State for writes; Tabs for a
// restore; Stage for bookmarks_remove.
type ProfileResult struct {
	Op    ProfileOp `json:"op"`
	Items []any     `json:"items,omitempty"`
	IDs   []string  `json:"ids,omitempty"`
	State string    `json:"state,omitempty"`
	// Tabs are the restored tabs' handles (sessions_restore).
	Tabs    []string   `json:"tabs,omitempty"`
	Stage   *StageInfo `json:"stage,omitempty"`
	Outcome Outcome    `json:"outcome"`
	Replay  bool       `json:"replay,omitempty"`
}

// ExtProfileParams is the operation as the host passes it on.
type ExtProfileParams struct {
	TaskID string        `json:"task_id"`
	Params ProfileParams `json:"params"`
}
