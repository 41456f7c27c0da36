package extbuild

import (
	"bytes"
	"encoding/json"
	"slices"

	"github.com/agenttab/agenttab/extension"
)

// Permissions are the install-time permissions, exactly as spec 000 lists
// them: "nativeMessaging, debugger, tabs, tabGroups, storage, alarms,
// bookmarks, history, sessions, downloads, webNavigation, and idle".
// debugger cannot be optional in Chrome. cookies, contentSettings and
// activeTab are never requested.
var Permissions = slices.Concat(
	[]string{"nativeMessaging", "debugger", "tabs", "tabGroups", "storage", "alarms"},
	ProfilePermissions,
	[]string{"webNavigation", "idle"},
)

// ProfilePermissions back browser_profile only: spec 000, "bookmarks,
// history, sessions, and downloads exist only for browser_profile ... no
// other AgentTab feature uses them". TestSourceFences keeps their chrome.*
// APIs inside profile modules.
var ProfilePermissions = []string{"bookmarks", "history", "sessions", "downloads"}

// OptionalPermissions: scripting is requested by the popup when the user
// turns automation on and removed when it is turned off (spec 000).
var OptionalPermissions = []string{"scripting"}

// HostPermissions: spec 000, "with <all_urls> host access".
var HostPermissions = []string{"<all_urls>"}

// MinimumChromeVersion is the oldest Chrome the extension supports: MV3
// service workers kept alive by a native port, promise-returning tabGroups
// APIs and 30-second alarms are all there by 120.
const MinimumChromeVersion = "120"

type manifest struct {
	ManifestVersion      int        `json:"manifest_version"`
	Name                 string     `json:"name"`
	Version              string     `json:"version"`
	VersionName          string     `json:"version_name"`
	Description          string     `json:"description"`
	MinimumChromeVersion string     `json:"minimum_chrome_version"`
	Key                  string     `json:"key"`
	Permissions          []string   `json:"permissions"`
	OptionalPermissions  []string   `json:"optional_permissions"`
	HostPermissions      []string   `json:"host_permissions"`
	Background           background `json:"background"`
	Action               action     `json:"action"`
}

type background struct {
	ServiceWorker string `json:"service_worker"`
	Type          string `json:"type"`
}

type action struct {
	DefaultPopup string `json:"default_popup"`
	DefaultTitle string `json:"default_title"`
}

// Manifest returns manifest.json. The key pins the extension id
// (extension.ID), so the native host manifest can name the exact origin.
func Manifest() ([]byte, error) {
	m := manifest{
		ManifestVersion:      3,
		Name:                 "AgentTab",
		Version:              extension.Version,
		VersionName:          extension.VersionName,
		Description:          "A local browser runtime for AI agents: task-owned tabs in your signed-in Chrome profile.",
		MinimumChromeVersion: MinimumChromeVersion,
		Key:                  extension.PublicKey,
		Permissions:          Permissions,
		OptionalPermissions:  OptionalPermissions,
		HostPermissions:      HostPermissions,
		Background:           background{ServiceWorker: "background.js", Type: "module"},
		Action:               action{DefaultPopup: "popup.html", DefaultTitle: "AgentTab"},
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // keep "<all_urls>" readable
	enc.SetIndent("", "  ")
	if err := enc.Encode(m); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
