package mcpserver

import (
	"context"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agenttab/agenttab/protocol"
)

type waitInput struct {
	Tab string `json:"tab" jsonschema:"The tab handle."`
	protocol.WaitCondition
}

var waitTool = &mcp.Tool{
	Name:  protocol.MethodWait,
	Title: "Wait on a task tab",
	Description: `Wait until a condition holds on an owned tab, for at most timeout_ms (1 to 30000; 5000 when omitted): load (the page finished loading), url (exact or glob with *), text (appears, or disappears with gone: true), ref (an element becomes visible, hidden or enabled), navigation (the next navigation commits), network_idle (no request in flight for idle_ms, default 500), download (a download this tab started, even just before the wait, ends: the result's download has its id (Chrome's download guid), file_name (the name the page suggested; Chrome may save the file under another, e.g. with " (1)" added), bytes and state: complete, or canceled, which a broken connection gives too).
It is a read: it never blocks your other calls. The result says satisfied true or false and what was last seen.`,
	Annotations: &mcp.ToolAnnotations{Title: "Wait on a task tab", ReadOnlyHint: true, OpenWorldHint: ptr(true)},
}

// progressEvery is how often a waiting call reports progress to a client
// that asked for it.
const progressEvery = 500 * time.Millisecond

func (s *Server) wait(ctx context.Context, req *mcp.CallToolRequest, in waitInput) (*mcp.CallToolResult, any, error) {
	stop := reportProgress(ctx, req, in.TimeoutMs, protocol.DefaultWaitMs)
	defer stop()
	var res protocol.WaitResult
	perr := s.core.call(ctx, protocol.MethodWait, protocol.WaitParams{Tab: in.Tab, Condition: in.WaitCondition}, &res, protocol.OutcomeNotStarted)
	return toolResult(res, perr), nil, nil
}

// reportProgress sends MCP progress notifications (elapsed of the timeout:
// the agent's timeout_ms, or def when it gave none) while a wait runs,
// when the client gave a progress token.
func reportProgress(ctx context.Context, req *mcp.CallToolRequest, timeout *int, def int) func() {
	token := req.Params.GetProgressToken()
	if token == nil || req.Session == nil {
		return func() {}
	}
	timeoutMs := def
	if timeout != nil {
		timeoutMs = *timeout
	}
	done := make(chan struct{})
	go func() {
		start := time.Now()
		tick := time.NewTicker(progressEvery)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-tick.C:
				elapsed := time.Since(start)
				req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
					ProgressToken: token, Progress: float64(elapsed.Milliseconds()), Total: float64(timeoutMs),
					Message: "waiting",
				})
			}
		}
	}()
	return func() { close(done) }
}
