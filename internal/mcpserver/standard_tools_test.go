package mcpserver

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agenttab/agenttab/protocol"
)

// The registry lists exactly protocol.StandardTools (as a set: the go-sdk
// sorts tools/list by name) while Developer mode is off (spec 000: "Standard mode exposes exactly these ten
// MCP tools"); the list adapters and e2e tests compare with is the one the
// server serves.
func TestRegistryListsTheStandardTools(t *testing.T) {
	if len(protocol.StandardTools) != 10 {
		t.Errorf("protocol.StandardTools has %d tools, spec 000 names ten", len(protocol.StandardTools))
	}
	if diff := cmp.Diff(slices.Sorted(slices.Values(protocol.StandardTools)), slices.Sorted(slices.Values(toolNames(t, connect(t, socketPath(t)))))); diff != "" {
		t.Errorf("tools/list differs from protocol.StandardTools (-want +got):\n%s", diff)
	}
}
