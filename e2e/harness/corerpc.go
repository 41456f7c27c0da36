package harness

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"time"
)

// coreCall is a deliberately tiny Core RPC client: one JSON-RPC 2.0 request
// per line on a fresh Unix-socket connection, one response line back. It
// does not use internal/corerpc so the harness checks the wire format
// rather than sharing the product's code (and its bugs).
func coreCall(ctx context.Context, socket, method string, params, result any) error {
	var d net.Dialer
	conn, err := d.DialContext(ctx, "unix", socket)
	if err != nil {
		return err
	}
	defer conn.Close()
	if deadline, ok := ctx.Deadline(); ok {
		conn.SetDeadline(deadline)
	} else {
		conn.SetDeadline(time.Now().Add(30 * time.Second))
	}
	if params == nil {
		params = struct{}{}
	}
	req, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	if err != nil {
		return err
	}
	if _, err := conn.Write(append(req, '\n')); err != nil {
		return err
	}
	line, err := bufio.NewReader(conn).ReadBytes('\n')
	if err != nil {
		return fmt.Errorf("reading the %s response: %w", method, err)
	}
	var resp struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Result  json.RawMessage `json:"result"`
		Error   *struct {
			Code    int             `json:"code"`
			Message string          `json:"message"`
			Data    json.RawMessage `json:"data"`
		} `json:"error"`
	}
	if err := json.Unmarshal(line, &resp); err != nil {
		return fmt.Errorf("decoding the %s response %q: %w", method, line, err)
	}
	if resp.JSONRPC != "2.0" || string(resp.ID) != "1" {
		return fmt.Errorf("%s response is not a JSON-RPC 2.0 answer to id 1: %s", method, line)
	}
	if resp.Error != nil {
		return fmt.Errorf("%s failed: %d %s %s", method, resp.Error.Code, resp.Error.Message, resp.Error.Data)
	}
	if result == nil {
		return nil
	}
	return json.Unmarshal(resp.Result, result)
}
