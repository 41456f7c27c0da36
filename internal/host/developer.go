package host

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"time"

	"github.com/agenttab/agenttab/internal/corerpc"
	"github.com/agenttab/agenttab/internal/store"
	"github.com/agenttab/agenttab/protocol"
)

// browser_developer (protocol/developer.go; spec 000 "Developer mode"):
// raw DevTools commands and JavaScript evaluation on a tab the task owns,
// only while the user's policy.json enables developer_mode. Off, the method
// is refused before anything else, whatever the arguments, and no task is
// made. On, it is a task mutation under an idempotency key (the page can
// change in any way). A call that may have run marks the task for good
// (store.MarkTaskDeveloper): the popup and status show it, and the host
// sends the mark in the task's look so that every group of the task
// carries protocol.DeveloperMarker. The audit keeps the arguments' shape
// only, as for every call (audit.Summarize): the method name, expression
// and params appear as lengths.

// developerTimeout bounds the extension's answer: its own bound on one
// command (protocol.DeveloperCommandMs) plus the mark.
const developerTimeout = protocol.DeveloperCommandMs*time.Millisecond + 10*time.Second

// devtoolsMethod is the form of a DevTools method name: Domain.method.
var devtoolsMethod = regexp.MustCompile(`^[A-Z][A-Za-z]*\.[a-z][A-Za-z]*$`)

func (h *Host) developer(ctx context.Context, c *call) (any, error) {
	if !h.policy.DeveloperMode.Enabled {
		return nil, protocol.Fail(protocol.CodeDeveloperModeDisabled,
			"Developer mode is off in AgentTab's policy.json (developer_mode.enabled); browser_developer does nothing")
	}
	// Admitted here rather than by the method table, so that the policy's
	// refusal above comes first in every lifecycle state.
	if perr := h.life.admit(); perr != nil {
		return nil, perr
	}
	var p protocol.DeveloperParams
	if perr := corerpc.DecodeParams(c.params, &p); perr != nil {
		return nil, perr
	}
	if perr := checkDeveloperParams(p); perr != nil {
		return nil, perr
	}
	task, tab, unlock, perr := h.tabCall(ctx, c, p.Tab)
	if perr != nil {
		return nil, perr
	}
	defer unlock()
	key := p.IdempotencyKey
	p.IdempotencyKey = ""
	return mutate(h, ctx, c, task.ID, protocol.MethodDeveloper, key, p,
		func(r *protocol.DeveloperResult) (*bool, protocol.Outcome) { return &r.Replay, r.Outcome },
		func() (protocol.DeveloperResult, *protocol.Error) { return h.developerOn(ctx, task, tab, p) })
}

// checkDeveloperParams checks what each action takes.
func checkDeveloperParams(p protocol.DeveloperParams) *protocol.Error {
	bad := func(msg string) *protocol.Error { return protocol.Fail(protocol.CodeInvalidParams, msg) }
	if perr := oneOf("action", p.Action, protocol.DeveloperActions); perr != nil {
		return perr
	}
	if p.Tab == "" {
		return bad("browser_developer needs tab: a tab handle your task owns")
	}
	switch p.Action {
	case protocol.DeveloperCDP:
		if p.Expression != "" {
			return bad(`expression belongs to action "evaluate"; a cdp call sends method and params`)
		}
		if !devtoolsMethod.MatchString(p.Method) {
			return bad("method must be a DevTools method name such as \"DOM.getDocument\", not " + quotedShort(p.Method))
		}
		if protocol.DeveloperRefused(p.Method) {
			return bad(developerRefusal(p.Method))
		}
		raw, err := json.Marshal(p.Params)
		if err != nil || len(raw) > protocol.MaxDeveloperInput {
			return bad(fmt.Sprintf("params must be a JSON object of at most %d bytes", protocol.MaxDeveloperInput))
		}
	case protocol.DeveloperEvaluate:
		if p.Method != "" || p.Params != nil {
			return bad(`method and params belong to action "cdp"; an evaluate call sends expression`)
		}
		if p.Expression == "" {
			return bad("evaluate needs expression: the JavaScript to evaluate in the page")
		}
		if perr := checkLen("expression", p.Expression, protocol.MaxDeveloperInput); perr != nil {
			return perr
		}
	}
	return nil
}

// developerRefusal says why a refused method is (protocol.DeveloperRefused).
func developerRefusal(method string) string {
	return method + " is refused in Developer mode: it reaches beyond the owned tab (other targets, the browser, other origins' storage and cookies) or around the user's managed policy (origin lists, local files, upload roots), which Developer mode does not lift; upload files with browser_act's upload_file"
}

// developerOn asks the extension, and marks the task once anything may
// have run on the page.
func (h *Host) developerOn(ctx context.Context, task store.Task, tab store.OwnedTab, p protocol.DeveloperParams) (protocol.DeveloperResult, *protocol.Error) {
	ext := protocol.ExtDeveloperParams{TaskID: task.ID, TabID: tab.ChromeTabID, Action: p.Action, Method: p.Method, Params: p.Params, Expression: p.Expression}
	var out protocol.ExtDeveloperResult
	perr := h.extCall(ctx, developerTimeout, protocol.NativeDeveloper, ext, &out, protocol.OutcomeUnknown)
	if perr == nil || perr.Outcome != protocol.OutcomeNotStarted {
		if err := h.store.MarkTaskDeveloper(ctx, task.ID); err != nil {
			h.log.Printf("task %s: recording Developer mode: %v", task.ID, err)
		}
	}
	if perr != nil {
		return protocol.DeveloperResult{}, perr
	}
	return protocol.DeveloperResult{Tab: tab.Handle, Result: out.Result, Outcome: protocol.OutcomeConfirmed}, nil
}
