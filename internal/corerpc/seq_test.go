package corerpc

import (
	"bufio"
	"context"
	"fmt"
	"testing"
)

// Each request is numbered in the order its line was read (issue 10: the
// host admits a task's pipelined requests in that order, although each is
// handled in its own goroutine); a line refused before handling takes no
// number.
func TestRequestsAreNumberedAsRead(t *testing.T) {
	path := startServer(t, newFakeHandler(), nil)
	nc, err := Dial(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	nc.Write([]byte(`{"jsonrpc":"2.0","id":1,"method":"seq"}` + "\n" +
		`{"jsonrpc":"2.0","id":2,"method":7}` + "\n" +
		`{"jsonrpc":"2.0","id":3,"method":"seq"}` + "\n" +
		`{"jsonrpc":"2.0","id":4,"method":"seq"}` + "\n"))
	br := bufio.NewReader(nc)
	got := map[string]string{}
	for range 4 {
		a := readAnswer(t, br)
		got[string(a.ID)] = string(a.Result)
	}
	// The malformed request is answered for no id (null).
	want := map[string]string{"1": "1", "null": "", "3": "2", "4": "3"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("numbers by request id %v, want %v", got, want)
	}
}
