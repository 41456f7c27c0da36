package corerpc

import "time"

// Bounds on what Core clients can make the host hold (issue 9: 20,000
// pipelined requests on one connection had run the host out of
// descriptors). Each leaves a wide margin over what AgentTab's own clients
// need: `agenttab mcp` keeps one connection per agent with a handful of calls
// in flight (a pending browser_wait beside a few acts), the HTTP adapter
// one per MCP session, and the CLI one short-lived connection per command.
const (
	// MaxConnections bounds the Core connections the host serves at once;
	// one more is refused with too_many_connections before a byte of it is
	// read. 64 leaves room for dozens of agents and HTTP sessions at once
	// while capping what idle or leaked clients hold (each connection is a
	// descriptor, a goroutine and a row of state).
	MaxConnections = 64

	// MaxInFlight bounds the requests of one connection being handled at
	// once. At the bound the host stops reading the connection until one
	// finishes (back-pressure, never an error), so a pipelining client only
	// waits. 32 is several times the concurrent tool calls an MCP client
	// makes; MaxConnections × MaxInFlight bounds the host's handlers.
	MaxInFlight = 32

	// MaxInFlightBytes bounds the request bytes of one connection being
	// handled at once, so that requests near MaxLine cannot hold
	// MaxInFlight × MaxLine of memory: reading stops until the total falls
	// below it again (a single request up to MaxLine is always read).
	MaxInFlightBytes = 4 * MaxLine

	// IdleTimeout ends a connection with no request in flight that sent no
	// request for this long, after telling it so (connection_idle). It
	// matches the HTTP adapter's session timeout (mcpserver's
	// DefaultIdleTimeout): an agent thinking for minutes keeps its
	// connection, and `agenttab mcp` reconnects and resumes its task by
	// itself when it was closed (DESIGN.md "Tasks": a closed connection's
	// task stays resumable).
	IdleTimeout = 30 * time.Minute

	// MinIdleBeforeEviction: at MaxConnections, a new connection makes the
	// host close the connection idle longest instead of being refused, if
	// that one has had nothing in flight for at least this long (so
	// clients that are working are never cut; a refusal comes only when
	// every connection is busy or has just been used). Its client is told
	// connection_idle and reconnects when it next needs the host.
	MinIdleBeforeEviction = 10 * time.Second

	// refusalWriteTimeout bounds writing too_many_connections to a refused
	// client, which happens on the accept loop: every new client waits
	// behind it.
	// A second, not less: under load the writing goroutine can be held off
	// the CPU that long, and a refusal that is not written leaves the
	// client with a bare hang-up instead of the reason (seen once in a
	// clean-clone CI run, as host_unavailable).
	refusalWriteTimeout = time.Second

	// WriteTimeout bounds writing one answer to a client that does not read
	// it; the connection is then closed, which frees its handlers. AgentTab's
	// clients read their connection all the time.
	WriteTimeout = time.Minute
)
