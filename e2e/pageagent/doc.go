// Package pageagent proves the page agent (extension/src/page) in a real
// Chromium without the rest of the product: its tests bundle the agent
// with internal/extbuild.PageAgentBundle, evaluate it in an isolated world
// of pages they serve, and check snapshots and element functions against
// the page and against Chrome's own accessibility tree. It holds tests
// only and must never be imported.
package pageagent
