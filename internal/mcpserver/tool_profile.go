package mcpserver

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agenttab/agenttab/protocol"
)

// browser_profile (spec 000 "Profile operations"; protocol/profile.go).
// Its input is protocol.ProfileParams itself; which fields each operation
// needs, takes or wants one of is protocol.ProfileRules, and both the
// description's list of operations and each field's "for …" are derived
// from it, so a rule changed there is taught here without an edit. What
// an operation and a field mean is said once below, keyed by them: a key
// missing here stops the adapter at start-up (profileOpText).

// profileOpWhat says what each operation does, for the description.
var profileOpWhat = map[protocol.ProfileOp]string{
	protocol.ProfileBookmarksSearch: "bookmarks and folders whose title or URL matches query",
	protocol.ProfileBookmarksTree:   "the whole bookmark tree, or with id that folder's subtree, flat and depth first (each item names its parent_id)",
	protocol.ProfileBookmarksCreate: `a bookmark (with url) or a folder (title only), in parent_id at index (default: the end of "Other bookmarks")`,
	protocol.ProfileBookmarksUpdate: "a bookmark's or folder's title, a bookmark's url",
	protocol.ProfileBookmarksMove:   "a bookmark or folder to another folder and/or position",
	protocol.ProfileBookmarksRemove: "one bookmark or one empty folder, only after the user approves it (below)",
	protocol.ProfileHistorySearch:   "visited pages matching query (empty: every page) in the time range, newest first; read only",
	protocol.ProfileSessionsList:    "recently closed tabs and windows, then each of the user's other devices with its open tabs",
	protocol.ProfileSessionsRestore: "reopen a sessions_list tab or window entry as tabs of this task (below)",
	protocol.ProfileDownloadsSearch: "downloads whose file name or URL matches query's words (empty: all)",
	protocol.ProfileDownloadsCancel: "cancel an in-progress download",
	protocol.ProfileDownloadsPause:  "pause an in-progress download",
	protocol.ProfileDownloadsResume: "resume a paused (or resumable interrupted) download",
}

// profileFieldWhat says what each field is, for its schema description.
var profileFieldWhat = map[protocol.ProfileField]string{
	protocol.ProfileFieldQuery:          "Search text, matched as Chrome's own search matches it.",
	protocol.ProfileFieldID:             "The id of a bookmark, folder, session entry or download, from an earlier answer's items.",
	protocol.ProfileFieldParentID:       "The id of the folder to put the bookmark in.",
	protocol.ProfileFieldIndex:          "The position within the folder, 0 first.",
	protocol.ProfileFieldTitle:          "The bookmark's or folder's title.",
	protocol.ProfileFieldURL:            "The bookmark's absolute URL (no javascript:, data:, blob: or filesystem: URLs).",
	protocol.ProfileFieldStartTimeMs:    "History from this time on, epoch milliseconds.",
	protocol.ProfileFieldEndTimeMs:      "History up to this time, epoch milliseconds.",
	protocol.ProfileFieldMaxResults:     fmt.Sprintf("At most this many items, 1 to %d (omit it for %d); truncated: true says there were more.", protocol.MaxProfileResults, protocol.DefaultProfileResults),
	protocol.ProfileFieldIdempotencyKey: "",
}

// profileOps are the operations in the schema's and the description's order.
var profileOps = slices.Sorted(maps.Keys(protocol.ProfileRules))

var profileTool = &mcp.Tool{
	Name:        protocol.MethodProfile,
	Title:       "Use the Chrome profile's bookmarks, history, sessions and downloads",
	Description: profileDescription(),
	Annotations: &mcp.ToolAnnotations{Title: "Use the Chrome profile's bookmarks, history, sessions and downloads", ReadOnlyHint: false, DestructiveHint: ptr(true), OpenWorldHint: ptr(true)},
	InputSchema: profileSchema(),
}

func profileDescription() string {
	var b strings.Builder
	b.WriteString(`Work on the user's Chrome profile rather than a tab: find and file bookmarks, search history, see recently closed tabs and the user's other devices' tabs and reopen them, find downloads and pause, resume or cancel them. Set op; each op takes only its own fields (another op's field fails invalid_params, nothing done):
`)
	for _, op := range profileOps {
		b.WriteString("- " + string(op) + profileOpFields(protocol.ProfileRules[op]) + ": " + profileOpText(op) + "\n")
	}
	fmt.Fprintf(&b, `Reads answer items (kind, id, and as they apply parent_id, index, title, url, time_ms, managed, visit_count, filename, state, paused, bytes_received, total_bytes), %d at most by default, and truncated: true when more matched (narrow the search or raise max_results). Later ops take the ids they give.
Writes answer ids and state only (never a title or URL): read again to see the result. Their idempotency_key works as in browser_act.
bookmarks_remove never removes at once, even with YOLO mode on: it answers outcome "staged" with stage {stage, effect "bookmark_remove", expires_in_ms}. Tell the user in your chat which bookmark you want to remove and why, ask them to approve it in the AgentTab popup (it shows the bookmark's title and URL), wait for their word, then call browser_commit {stage}. The commit is refused with nothing removed if the bookmark's title, URL or folder changed since (stage_target_changed: read it again and ask again) or a folder is no longer empty (bookmark_folder_not_empty). The invisible root, its top-level folders (Bookmarks bar, Other bookmarks, Mobile bookmarks) and bookmarks the administrator manages cannot be changed (bookmark_protected).
sessions_restore never uses Chrome's own restore: it opens the entry's http(s) URLs, at most %d (more fails invalid_params), as inactive background tabs of this task in its group, nothing focused, and answers their handles: they are your tabs like browser_open's (browser_finish {close_tabs: true} closes them). When the user's policy lists allowed or denied sites it is refused (origin_policy_unverifiable): open each URL you need with browser_open, which the policy checks.
History is read only: nothing is ever deleted from it. Downloads are never opened, shown in a folder, removed from disk or erased from Chrome's list. No op needs site access or focuses anything; while AgentTab is paused every op fails paused (not_started).
Privacy: what a read returns is the user's private browsing data. It comes to you only: AgentTab writes no title, URL, file name or search text to its audit or logs. Use it for what the user asked, and do not pass it on elsewhere unasked.`,
		protocol.DefaultProfileResults, protocol.MaxRestoreURLs)
	return b.String()
}

// profileOpFields is an operation's fields as its rule has them:
// " {id; title, url (one at least); idempotency_key}".
func profileOpFields(rule protocol.ProfileRule) string {
	var parts []string
	if len(rule.Needs) > 0 {
		parts = append(parts, joinFields(rule.Needs))
	}
	if len(rule.OneOf) > 0 {
		parts = append(parts, "at least one of "+joinFields(rule.OneOf))
	}
	var optional []protocol.ProfileField
	for _, f := range rule.Takes {
		if !slices.Contains(rule.OneOf, f) {
			optional = append(optional, f)
		}
	}
	if len(optional) > 0 {
		parts = append(parts, "optional "+joinFields(optional))
	}
	if len(parts) == 0 {
		return ""
	}
	return " {" + strings.Join(parts, "; ") + "}"
}

func joinFields(fs []protocol.ProfileField) string {
	s := make([]string, len(fs))
	for i, f := range fs {
		s[i] = string(f)
	}
	return strings.Join(s, ", ")
}

func profileOpText(op protocol.ProfileOp) string {
	text, ok := profileOpWhat[op]
	if !ok {
		panic("browser_profile: no description of op " + string(op)) // fails at start-up in every test
	}
	return text
}

// profileSchema is ProfileParams' schema with each field's meaning and the
// operations that take it (ProfileRules).
func profileSchema() *jsonschema.Schema {
	s := describeKey(inputSchema[protocol.ProfileParams](), "doing the write again", "")
	s.Properties["op"].Description = "The operation; the tool's description says what each takes."
	for _, f := range protocol.ProfileFields {
		prop, ok := s.Properties[string(f)]
		what, described := profileFieldWhat[f]
		if !ok || !described {
			panic("browser_profile: field " + string(f) + " has no property or no description") // fails at start-up in every test
		}
		var ops []string
		for _, op := range profileOps {
			rule := protocol.ProfileRules[op]
			if slices.Contains(rule.Needs, f) || slices.Contains(rule.Takes, f) {
				ops = append(ops, string(op))
			}
		}
		taken := "For " + strings.Join(ops, ", ") + "."
		if what == "" {
			prop.Description = taken + " " + prop.Description
		} else {
			prop.Description = what + " " + taken
		}
	}
	return s
}

func (s *Server) profile(ctx context.Context, _ *mcp.CallToolRequest, in protocol.ProfileParams) (*mcp.CallToolResult, any, error) {
	write := protocol.ProfileRules[in.Op].Write
	// A write's key is mapped as browser_act's (agentkeys.go), a fresh one
	// when the agent gave none. A read takes none: one given still goes
	// (mapped), and the host refuses it by the op's rule.
	if write || in.IdempotencyKey != "" {
		key, perr := s.core.keys.coreKey(in.IdempotencyKey)
		if perr != nil {
			return toolResult(nil, perr), nil, nil
		}
		in.IdempotencyKey = key
	}
	// A lost write may have happened; a lost read changed nothing.
	ifLost := protocol.OutcomeNotStarted
	if write {
		ifLost = protocol.OutcomeUnknown
	}
	var res protocol.ProfileResult
	perr := s.core.call(ctx, protocol.MethodProfile, in, &res, ifLost)
	return toolResult(res, perr), nil, nil
}
