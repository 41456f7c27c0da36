package extension

import "github.com/agenttab/agenttab/internal/buildinfo"

// Version is the extension's manifest "version" (written by
// internal/extbuild) and what the worker announces in its native hello
// (chrome.runtime.getManifest().version). Chrome wants one to four
// dot-separated integers, so it is buildinfo.Version's core ("2.0.0"); the
// prerelease part is in VersionName. buildinfo.Version is the one source.
var Version = buildinfo.Core(buildinfo.Version)

// VersionName is the manifest's "version_name", what chrome://extensions
// shows: the full version, called a prerelease ("2.0.0-rc.1 (prerelease)").
var VersionName = buildinfo.Describe(buildinfo.Version)
