package e2e

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agenttab/agenttab/protocol"
)

// agentTabTools serves the scripted agent with AgentTab's tools: a task
// tab per page (browser_open), browser_snapshot in its default mode, and
// one browser_act batch per run, with snapshot_after when the agent reads
// the page next.
type agentTabTools struct {
	s   *mcp.ClientSession
	m   callMeter
	tab string
	rev int64 // the page_revision refs come from
}

func (d *agentTabTools) name() string      { return "AgentTab" }
func (d *agentTabTools) meter() *callMeter { return &d.m }

// actAnswer is the part of a result the agent reads besides the text.
type actAnswer struct {
	Tab          string `json:"tab"`
	PageRevision int64  `json:"page_revision"`
	Code         string `json:"code"`
	Message      string `json:"message"`
	Outcome      string `json:"outcome"`
	Error        *struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
	Steps []struct {
		Index   int    `json:"index"`
		Outcome string `json:"outcome"`
		Note    string `json:"note"`
		Error   *struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	} `json:"steps"`
	Snapshot *struct {
		PageRevision int64  `json:"page_revision"`
		Text         string `json:"text"`
	} `json:"snapshot"`
}

func readActAnswer(res *mcp.CallToolResult) actAnswer {
	var a actAnswer
	raw, _ := json.Marshal(res.StructuredContent)
	json.Unmarshal(raw, &a)
	return a
}

func (d *agentTabTools) open(url string) error {
	res, text, err := d.m.toolCall(d.s, protocol.MethodOpen, map[string]any{"url": url}, false)
	if err != nil {
		return err
	}
	if res.IsError {
		return fmt.Errorf("browser_open: %s", text)
	}
	var opened struct {
		Tab struct {
			Tab          string `json:"tab"`
			PageRevision int64  `json:"page_revision"`
		} `json:"tab"`
	}
	raw, _ := json.Marshal(res.StructuredContent)
	json.Unmarshal(raw, &opened)
	d.tab, d.rev = opened.Tab.Tab, opened.Tab.PageRevision
	return nil
}

func (d *agentTabTools) snapshot() (string, error) { return d.snapshotWith(nil) }

// snapshotWith is snapshot with more arguments (max_chars).
func (d *agentTabTools) snapshotWith(extra map[string]any) (string, error) {
	args := map[string]any{"tab": d.tab}
	for k, v := range extra {
		args[k] = v
	}
	res, text, err := d.m.toolCall(d.s, protocol.MethodSnapshot, args, true)
	if err != nil {
		return "", err
	}
	if res.IsError {
		return "", fmt.Errorf("browser_snapshot: %s", text)
	}
	d.rev = readActAnswer(res).PageRevision
	return text, nil
}

func (d *agentTabTools) run(steps []agentStep, after bool) (string, error) {
	actions := make([]map[string]any, len(steps))
	for i, st := range steps {
		actions[i] = agentTabStep(st)
	}
	args := map[string]any{"tab": d.tab, "expected_page_revision": d.rev, "actions": actions}
	if after {
		args["snapshot_after"] = true
	}
	// With snapshot_after the text is the receipt's JSON line, then the
	// snapshot as browser_snapshot gives it: the snapshot counts as a
	// snapshot read, the receipt only in all characters (as Playwright's
	// click answers do).
	res, text, err := d.m.toolCall(d.s, protocol.MethodAct, args, false)
	if err != nil {
		return "", err
	}
	if after {
		if _, tree, ok := strings.Cut(text, "\n"); ok {
			d.m.snapshotChars += len([]rune(tree))
		}
	}
	a := readActAnswer(res)
	if a.PageRevision != 0 {
		d.rev = a.PageRevision
	}
	if res.IsError {
		for _, st := range a.Steps {
			if st.Error != nil {
				return "", fmt.Errorf("step %d (%s): %s: %s", st.Index, steps[st.Index], st.Error.Code, st.Error.Message)
			}
		}
		return "", fmt.Errorf("browser_act: %s", clipped(text, 2000))
	}
	if !after {
		return "", nil
	}
	if a.Snapshot != nil && a.Snapshot.Text != "" {
		if a.Snapshot.PageRevision != 0 {
			d.rev = a.Snapshot.PageRevision
		}
		return a.Snapshot.Text, nil
	}
	// The tree as plain text after the receipt (issue 11): the element
	// lines are what the agent reads refs from.
	return text, nil
}

// agentTabStep is a step as browser_act takes it.
func agentTabStep(st agentStep) map[string]any {
	switch st.kind {
	case "press":
		return map[string]any{"kind": "press", "keys": st.keys}
	case "wait_text":
		return map[string]any{"kind": "wait", "wait": map[string]any{"until": "text", "text": st.text}}
	case "navigate":
		return map[string]any{"kind": "navigate", "url": st.text}
	case "select":
		return map[string]any{"kind": "select", "ref": st.ref, "values": []string{st.value}}
	case "drag":
		m := map[string]any{"kind": "drag", "ref": st.ref, "to_ref": st.toRef}
		if st.where != "" {
			m["position"] = st.where
		}
		return m
	case "type", "fill":
		return map[string]any{"kind": st.kind, "ref": st.ref, "text": st.text}
	}
	return map[string]any{"kind": st.kind, "ref": st.ref}
}

var clipMarkRe = regexp.MustCompile(`… \(\+\d+ chars\)`)

// clipped: the header's status says the mode clipped texts, each marked
// "… (+N chars)" (protocol.SnapshotClipped).
func (d *agentTabTools) clipped(snapshot string) bool { return clipMarkRe.MatchString(snapshot) }

// readClipped reads the page's text whole, as the clipped snapshot's
// header says: mode "readable".
func (d *agentTabTools) readClipped() (string, error) {
	return d.snapshotWith(map[string]any{"mode": "readable"})
}

// closePage closes the task's tab, outside the task's count.
func (d *agentTabTools) closePage() {
	if d.tab == "" {
		return
	}
	var m callMeter
	m.toolCall(d.s, protocol.MethodAct, map[string]any{"tab": d.tab, "expected_page_revision": d.rev, "actions": []map[string]any{{"kind": "close"}}}, false)
	d.tab = ""
}
