// Package chromium finds a Chromium-family browser on this machine and builds
// the command line AgentTab launches it with, for `agenttab demo`, for
// `agenttab install`'s browser detection and for the end-to-end harness. It
// owns the list of browser binaries, their preference order and the launch
// flags.
//
// It must never start a browser itself, write to a profile or reach the
// network: callers decide when and how to run what it returns.
package chromium
