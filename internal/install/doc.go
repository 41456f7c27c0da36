// Package install puts AgentTab where a Chromium-family browser can reach
// it: it writes the embedded extension to STATE/extension for Load unpacked
// (or --load-extension) and registers the native-messaging host manifest
// for Chrome, Chromium, Edge and Brave in their per-user locations (a
// NativeMessagingHosts folder on Linux and macOS, an HKCU registry key
// pointing at STATE\com.agenttab.host.json on Windows), or in one
// --user-data-dir. It owns the browser table, the manifest's content and
// the rules for which browsers get one.
//
// It must never write a manifest that admits more than the one exact
// extension origin (no wildcard), never write outside the user's own
// directories and HKCU keys under our host name (no /etc, no HKLM), and
// never remove a file or a key it did not write.
package install
