package harness

import (
	"bufio"
	"context"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// fakeCore is a hand-written Core RPC server: it records the request line
// and answers with a fixed line.
type fakeCore struct {
	answer string
	got    chan string
}

func (f fakeCore) serve(t *testing.T) string {
	t.Helper()
	// A short directory: sun_path is limited to 104-108 bytes.
	dir, err := os.MkdirTemp("", "core")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	sock := filepath.Join(dir, "core.sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		conn, err := l.Accept()
		if err != nil {
			return
		}
		defer conn.Close()
		line, _ := bufio.NewReader(conn).ReadString('\n')
		f.got <- line
		if f.answer != "" {
			conn.Write([]byte(f.answer + "\n"))
		}
	}()
	return sock
}

func TestCoreCall(t *testing.T) {
	tests := []struct {
		name    string
		answer  string
		want    map[string]any
		wantErr string
	}{
		{
			name:   "result",
			answer: `{"jsonrpc":"2.0","id":1,"result":{"lifecycle":"ready","tasks":[]}}`,
			want:   map[string]any{"lifecycle": "ready", "tasks": []any{}},
		},
		{
			name:    "error with data",
			answer:  `{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"not ready","data":{"code":"host_unavailable"}}}`,
			wantErr: `status failed: -32000 not ready {"code":"host_unavailable"}`,
		},
		{
			name:    "wrong id",
			answer:  `{"jsonrpc":"2.0","id":7,"result":{}}`,
			wantErr: "not a JSON-RPC 2.0 answer to id 1",
		},
		{
			name:    "not JSON",
			answer:  `hello`,
			wantErr: "decoding the status response",
		},
		{
			name:    "no answer",
			wantErr: "reading the status response",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := fakeCore{answer: tt.answer, got: make(chan string, 1)}
			sock := f.serve(t)
			ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
			defer cancel()
			var got map[string]any
			err := coreCall(ctx, sock, "status", nil, &got)

			var req map[string]any
			if err := json.Unmarshal([]byte(<-f.got), &req); err != nil {
				t.Fatalf("request is not one JSON line: %v", err)
			}
			wantReq := map[string]any{"jsonrpc": "2.0", "id": float64(1), "method": "status", "params": map[string]any{}}
			if diff := cmp.Diff(wantReq, req); diff != "" {
				t.Errorf("request (-want +got):\n%s", diff)
			}
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("coreCall error = %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("result (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCoreCallNoSocket(t *testing.T) {
	err := coreCall(context.Background(), filepath.Join(t.TempDir(), "core.sock"), "status", nil, nil)
	if err == nil {
		t.Fatal("coreCall to a missing socket succeeded")
	}
}
