package mcpserver

// Close releases the server's Core connection; the host then detaches the
// connection's task. A later tool call would dial a new connection (and so
// start a new task), so close the MCP session first: Streamable HTTP closes
// a session's server once the session has ended.
func (s *Server) Close() { s.core.close() }
