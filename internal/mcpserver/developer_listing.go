package mcpserver

import (
	"context"
	"sync"
	"time"

	"github.com/agenttab/agenttab/protocol"
)

// developerListing keeps browser_developer listed exactly while the host
// last said Developer mode is on (issue 13: "When off, the tool is absent").
// The go-sdk sends notifications/tools/list_changed when a running server
// adds or removes a tool, so a host that appears, or restarts with another
// policy, after the client listed the tools is followed.
type developerListing struct {
	mu     sync.Mutex
	listed bool
}

// developerProbe bounds the Core connection `agenttab mcp` tries at start,
// so that the first tools/list already has browser_developer when the host
// runs with Developer mode on. hello creates no task.
const developerProbe = 2 * time.Second

// setDeveloperMode lists or unlists browser_developer.
func (s *Server) setDeveloperMode(on bool) {
	s.dev.mu.Lock()
	defer s.dev.mu.Unlock()
	switch {
	case on && !s.dev.listed:
		addTool[developerInput, protocol.DeveloperResult](s.mcp, developerTool, s.developer)
	case !on && s.dev.listed:
		s.mcp.RemoveTools(developerTool.Name)
	}
	s.dev.listed = on
}

// probeHost connects to the host once, briefly, to learn the policy's
// Developer mode (the connection is kept for the first call). A host that
// is not there is no error, and is not waited for (core.probe): the tool
// is listed when a later call connects.
func (s *Server) probeHost(ctx context.Context) {
	ctx, cancel := context.WithTimeout(ctx, developerProbe)
	defer cancel()
	s.core.probe(ctx)
}
