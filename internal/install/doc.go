// Package install puts AgentTab where a Chromium-family browser can reach
// it: it writes the embedded extension to STATE/extension for Load unpacked
// (or --load-extension) and registers the native-messaging host manifest
// for Chrome, Chromium, Edge and Brave in their per-user locations, or in
// one --user-data-dir. It owns the browser table, the manifest's content
// and the rules for which browsers get one.
//
// It must never write a manifest that admits more than the one exact
// extension origin (no wildcard), never write outside the user's own
// directories (no /etc, no registry), and never remove a file it did not
// write.
package install
