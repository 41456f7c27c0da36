// Package mcpserver is the MCP face of AgentTab: it registers the Standard
// tools that work in this build, each with a description written for a
// model, and serves them over MCP stdio, or over Streamable HTTP on loopback
// with a bearer token and one Server per MCP session. Every tool call
// becomes one Core RPC request on its Server's own Core connection (and so
// its own task).
//
// It must never import the host, the store, audit, policy or native
// messaging: it reaches the host only through Core RPC. It never invents a
// task id, owner or conversation id that could grant access.
package mcpserver
