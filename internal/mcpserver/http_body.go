package mcpserver

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
)

// admitBody reads a POST body before the SDK does and refuses what the
// stdio transport refuses before its SDK sees it: a body over MaxMessage
// (413), and one that is not one UTF-8 JSON value (400, answered with the
// JSON-RPC parse error as on stdio). The SDK would answer the latter with
// a text 400, and decode invalid UTF-8 inside strings as U+FFFD. It
// reports whether the request goes on, with the body it read.
func admitBody(w http.ResponseWriter, r *http.Request) bool {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxMessage))
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		http.Error(w, fmt.Sprintf("the request body is longer than %d bytes, the most an MCP message to AgentTab may be", MaxMessage), http.StatusRequestEntityTooLarge)
		return false
	case err != nil:
		http.Error(w, fmt.Sprintf("reading the request body: %v", err), http.StatusBadRequest)
		return false
	}
	if refusal := unreadable(body); refusal != nil {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		w.Write(append(refusal, '\n'))
		return false
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	return true
}
