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

// ProfileField is a browser_profile argument an operation may take: the
// JSON names of ProfileParams' fields ("op" is always there).
type ProfileField string

const (
	ProfileFieldQuery          ProfileField = "query"
	ProfileFieldID             ProfileField = "id"
	ProfileFieldParentID       ProfileField = "parent_id"
	ProfileFieldIndex          ProfileField = "index"
	ProfileFieldTitle          ProfileField = "title"
	ProfileFieldURL            ProfileField = "url"
	ProfileFieldStartTimeMs    ProfileField = "start_time_ms"
	ProfileFieldEndTimeMs      ProfileField = "end_time_ms"
	ProfileFieldMaxResults     ProfileField = "max_results"
	ProfileFieldIdempotencyKey ProfileField = "idempotency_key"
)

// ProfileFields lists every ProfileField.
var ProfileFields = []ProfileField{
	ProfileFieldQuery, ProfileFieldID, ProfileFieldParentID, ProfileFieldIndex, ProfileFieldTitle, ProfileFieldURL,
	ProfileFieldStartTimeMs, ProfileFieldEndTimeMs, ProfileFieldMaxResults, ProfileFieldIdempotencyKey,
}

// ProfileRule is what one operation takes and does (as StepRule is for a
// step kind). A field in neither Needs nor Takes is refused
// (invalid_params), so that a field meant for another operation is not
// silently ignored; OneOf names fields of which at least one must be given.
type ProfileRule struct {
	Needs []ProfileField `json:"needs,omitempty"`
	Takes []ProfileField `json:"takes,omitempty"`
	OneOf []ProfileField `json:"one_of,omitempty"`
	// Write: the operation changes the profile. It carries an idempotency
	// key, runs as a task mutation, and its result (kept as the key's
	// record) carries ids and state only.
	Write bool `json:"write,omitempty"`
}

// ProfileRules holds every ProfileOp's rule: the one list of operations
// (tool descriptions sort its keys). Never change it at run time.
var ProfileRules = map[ProfileOp]ProfileRule{
	ProfileBookmarksSearch: {Needs: []ProfileField{ProfileFieldQuery}, Takes: []ProfileField{ProfileFieldMaxResults}},
	// Without an id the whole tree; with one, that subtree.
	ProfileBookmarksTree: {Takes: []ProfileField{ProfileFieldID}},
	// Without a url a folder; without a parent_id, Chrome's "Other bookmarks".
	ProfileBookmarksCreate: {Takes: []ProfileField{ProfileFieldParentID, ProfileFieldIndex, ProfileFieldTitle, ProfileFieldURL, ProfileFieldIdempotencyKey}, OneOf: []ProfileField{ProfileFieldTitle, ProfileFieldURL}, Write: true},
	ProfileBookmarksUpdate: {Needs: []ProfileField{ProfileFieldID}, Takes: []ProfileField{ProfileFieldTitle, ProfileFieldURL, ProfileFieldIdempotencyKey}, OneOf: []ProfileField{ProfileFieldTitle, ProfileFieldURL}, Write: true},
	ProfileBookmarksMove:   {Needs: []ProfileField{ProfileFieldID}, Takes: []ProfileField{ProfileFieldParentID, ProfileFieldIndex, ProfileFieldIdempotencyKey}, OneOf: []ProfileField{ProfileFieldParentID, ProfileFieldIndex}, Write: true},
	ProfileBookmarksRemove: {Needs: []ProfileField{ProfileFieldID}, Takes: []ProfileField{ProfileFieldIdempotencyKey}, Write: true},
	// An empty query matches every visit in the range.
	ProfileHistorySearch:   {Takes: []ProfileField{ProfileFieldQuery, ProfileFieldStartTimeMs, ProfileFieldEndTimeMs, ProfileFieldMaxResults}},
	ProfileSessionsList:    {Takes: []ProfileField{ProfileFieldMaxResults}},
	ProfileSessionsRestore: {Needs: []ProfileField{ProfileFieldID}, Takes: []ProfileField{ProfileFieldIdempotencyKey}, Write: true},
	ProfileDownloadsSearch: {Takes: []ProfileField{ProfileFieldQuery, ProfileFieldMaxResults}},
	ProfileDownloadsCancel: {Needs: []ProfileField{ProfileFieldID}, Takes: []ProfileField{ProfileFieldIdempotencyKey}, Write: true},
	ProfileDownloadsPause:  {Needs: []ProfileField{ProfileFieldID}, Takes: []ProfileField{ProfileFieldIdempotencyKey}, Write: true},
	ProfileDownloadsResume: {Needs: []ProfileField{ProfileFieldID}, Takes: []ProfileField{ProfileFieldIdempotencyKey}, Write: true},
}

// WebSchemes are the URL schemes a bookmark made by AgentTab may hold and
// sessions_restore reopens (spec 000: "only the entry's http and https
// URLs"): the host's and the extension's one rule.
var WebSchemes = []string{"http", "https"}

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
// restore; Stage for bookmarks_remove (outcome staged).
type ProfileResult struct {
	Op ProfileOp `json:"op"`
	// Items are a read's answer: an empty list when nothing matched (never
	// omitted, so an agent can tell "none" from a write's answer).
	Items []any `json:"items"`
	// Truncated: a read found more than max_results items (the extension's
	// ExtProfileResult.Truncated), so Items is not all there is.
	Truncated bool     `json:"truncated,omitempty"`
	IDs       []string `json:"ids,omitempty"`
	State     string   `json:"state,omitempty"`
	// Tabs are the restored tabs' handles (sessions_restore).
	Tabs    []string   `json:"tabs,omitempty"`
	Stage   *StageInfo `json:"stage,omitempty"`
	Outcome Outcome    `json:"outcome"`
	Replay  bool       `json:"replay,omitempty"`
}

// ExtProfileParams is the operation as the host passes it on (class
// global: profile work is browser-global, spec 001). The extension's
// global lane skips the Pause check (dispatch.ts), so its profile handler
// checks Pause itself. Task is the task's look, for sessions_restore's
// tabs in the task's group.
type ExtProfileParams struct {
	Task   TaskLook      `json:"task"`
	Params ProfileParams `json:"params"`
	// Commit, on a bookmarks_remove, runs the approved stage: the
	// extension finds its entry by the review handle's digest, checks the
	// fingerprint, reads the bookmark again, refuses it if its title, URL
	// or parent changed (stage_target_changed) or it is no longer one
	// bookmark or one empty folder, and removes it. Without Commit a
	// bookmarks_remove only stages (ExtProfileResult.Staged), YOLO mode or
	// not.
	Commit *ExtProfileCommit `json:"commit,omitempty"`
}

// ExtProfileCommit names the approved stage a bookmarks_remove commits.
type ExtProfileCommit struct {
	ReviewHandleDigest string `json:"review_handle_digest"`
	Fingerprint        string `json:"fingerprint"`
}

// ExtProfileResult is the extension's answer. Items for reads (what the
// agent gets, never logged); IDs and State for writes (State a short
// lower-case word such as "paused" or "removed"); Tabs, the tabs a restore
// opened in the task's group; Staged, a bookmarks_remove's stage report:
// Step 0, Effect bookmark_remove, the fingerprint and preview digest
// keyed by the review handle (the title, URL and parent the popup shows
// stay in extension storage).
type ExtProfileResult struct {
	Items []any `json:"items,omitempty"`
	// Truncated: a read had more than max_results items.
	Truncated bool      `json:"truncated,omitempty"`
	IDs       []string  `json:"ids,omitempty"`
	State     string    `json:"state,omitempty"`
	Tabs      []ExtTab  `json:"tabs,omitempty"`
	Staged    *ExtStage `json:"staged,omitempty"`
}
