package mcpserver

import (
	"errors"
	"testing"
)

func TestCheckLoopback(t *testing.T) {
	for addr, wantNotLoopback := range map[string]bool{
		"127.0.0.1:8765": false,
		"127.0.0.2:0":    false,
		"[::1]:8765":     false,
		"localhost:8765": false,
		"LocalHost:1":    false,
		"0.0.0.0:8765":   true,
		":8765":          true,
		"[::]:8765":      true,
		"192.168.1.2:80": true,
		"example.com:80": true,
	} {
		err := CheckLoopback(addr)
		if got := errors.Is(err, ErrNotLoopback); got != wantNotLoopback || (err != nil) != wantNotLoopback {
			t.Errorf("%s: %v", addr, err)
		}
	}
	for _, addr := range []string{"127.0.0.1", "127.0.0.1:http", "127.0.0.1:65536", "127.0.0.1:-1", "127.0.0.1:08765"} {
		if err := CheckLoopback(addr); err == nil || errors.Is(err, ErrNotLoopback) {
			t.Errorf("%s: %v, want a malformed-address error", addr, err)
		}
	}
}

func TestListenLoopbackBindsLoopback(t *testing.T) {
	l, err := ListenLoopback("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if _, err := ListenLoopback("0.0.0.0:0"); !errors.Is(err, ErrNotLoopback) {
		t.Fatalf("0.0.0.0: %v", err)
	}
}
