package harness

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestStructured(t *testing.T) {
	tests := []struct {
		name    string
		res     *mcp.CallToolResult
		want    map[string]any
		wantErr bool
	}{
		{
			name: "structured content as decoded by the client",
			res:  &mcp.CallToolResult{StructuredContent: map[string]any{"outcome": "confirmed", "tab": map[string]any{"tab": "t1"}}},
			want: map[string]any{"outcome": "confirmed", "tab": map[string]any{"tab": "t1"}},
		},
		{
			name: "structured content as raw JSON",
			res:  &mcp.CallToolResult{StructuredContent: json.RawMessage(`{"code":"not_owned"}`)},
			want: map[string]any{"code": "not_owned"},
		},
		{
			name: "structured wins over text",
			res: &mcp.CallToolResult{
				StructuredContent: map[string]any{"a": float64(1)},
				Content:           []mcp.Content{&mcp.TextContent{Text: `{"a":2}`}},
			},
			want: map[string]any{"a": float64(1)},
		},
		{
			name: "text fallback",
			res:  &mcp.CallToolResult{Content: []mcp.Content{&mcp.ImageContent{MIMEType: "image/png"}, &mcp.TextContent{Text: `{"code":"paused"}`}}},
			want: map[string]any{"code": "paused"},
		},
		{
			name:    "text that is not an object",
			res:     &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "invalid params"}}},
			wantErr: true,
		},
		{
			name:    "structured array",
			res:     &mcp.CallToolResult{StructuredContent: []any{1}},
			wantErr: true,
		},
		{
			name:    "empty",
			res:     &mcp.CallToolResult{},
			wantErr: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := structured(tt.res)
			if (err != nil) != tt.wantErr {
				t.Fatalf("structured() error = %v, want error %v", err, tt.wantErr)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("structured() (-want +got):\n%s", diff)
			}
		})
	}
}
