package host

import (
	"context"

	"github.com/agenttab/agenttab/internal/corerpc"
	"github.com/agenttab/agenttab/internal/store"
	"github.com/agenttab/agenttab/protocol"
	"time"
)

// hello records client metadata. conversation_id is metadata only: it is
// stored with the connection and later tasks, and selects nothing.
func (h *Host) hello(ctx context.Context, c *call) (any, error) {
	var p protocol.HelloParams
	if perr := corerpc.DecodeParams(c.params, &p); perr != nil {
		return nil, perr
	}
	if perr := checkLen("client_name", p.ClientName, 200); perr != nil {
		return nil, perr
	}
	if perr := checkLen("client_version", p.ClientVersion, 100); perr != nil {
		return nil, perr
	}
	if perr := checkLen("conversation_id", p.ConversationID, 200); perr != nil {
		return nil, perr
	}
	c.s.mu.Lock()
	c.s.conversationID = p.ConversationID
	c.s.mu.Unlock()
	if err := h.store.UpdateConnectionMeta(ctx, c.s.conn.ID(), p.ClientName, p.ClientVersion, p.ConversationID); err != nil {
		return nil, internalError("recording client metadata", err)
	}
	c.outcome = protocol.OutcomeConfirmed
	return protocol.HelloResult{ConnectionID: c.s.conn.ID(), ProtocolVersion: protocol.Version, HostVersion: h.opts.Version, Lifecycle: h.life.get(), DeveloperMode: h.policy.DeveloperMode.Enabled}, nil
}

func storeConnection(c *corerpc.Conn, now time.Time) store.Connection {
	return store.Connection{ID: c.ID(), OpenedAt: now, PeerPID: c.Peer().PID}
}
