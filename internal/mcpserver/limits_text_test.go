package mcpserver

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/agenttab/agenttab/protocol"
)

// The ranges and defaults the tool list tells the model are written out in
// schema tags and descriptions; the numbers themselves live in protocol/.
// Each text must state the constants' values, so a changed limit fails
// here until its text follows (issue 9 review: one source of truth).
func TestToolTextsStateTheProtocolLimits(t *testing.T) {
	text := map[string]string{}
	for _, tool := range listTools(t, connect(t, socketPath(t))) {
		raw, err := json.Marshal(tool)
		if err != nil {
			t.Fatal(err)
		}
		text[tool.Name] = string(raw)
	}
	for _, tc := range []struct{ tool, want string }{
		{protocol.MethodSnapshot, fmt.Sprintf("1 to %d (omit it for %d)", protocol.MaxMaxChars, protocol.DefaultMaxChars)},
		{protocol.MethodWait, fmt.Sprintf("1 to %d ms (omit it for %d)", protocol.MaxWaitMs, protocol.DefaultWaitMs)},
		{protocol.MethodWait, fmt.Sprintf("1 to %d ms (omit it for %d)", protocol.MaxIdleMs, protocol.DefaultIdleMs)},
		{protocol.MethodWait, fmt.Sprintf("timeout_ms (1 to %d; %d when omitted)", protocol.MaxWaitMs, protocol.DefaultWaitMs)},
		{protocol.MethodWait, fmt.Sprintf("idle_ms, default %d", protocol.DefaultIdleMs)},
		{protocol.MethodAct, fmt.Sprintf("1 to %d steps", protocol.MaxSteps)},
		{protocol.MethodAct, fmt.Sprintf("1 to %d ms (omit it for %d)", protocol.MaxWaitMs, protocol.DefaultWaitMs)},
		{protocol.MethodCommit, fmt.Sprintf("0 to %d ms (omit it for %d)", protocol.MaxActionableMs, protocol.DefaultActionableMs)},
		{protocol.MethodHandoff, fmt.Sprintf("%d to %d s (omit it for %d)", protocol.MinNoticeSeconds, protocol.MaxNoticeSeconds, protocol.DefaultNoticeSeconds)},
		{protocol.MethodHandoff, fmt.Sprintf("at most %d characters", protocol.MaxHandoffMessage)},
		{protocol.MethodOpen, fmt.Sprintf("1 to %d ms (omit it for %d)", protocol.MaxAdoptTimeoutMs, protocol.DefaultAdoptTimeoutMs)},
	} {
		if !strings.Contains(text[tc.tool], tc.want) {
			t.Errorf("%s's texts do not say %q: write the limit from protocol/ into them", tc.tool, tc.want)
		}
	}
}
