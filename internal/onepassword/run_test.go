package onepassword

import (
	"bytes"
	"strings"
	"testing"
	"testing/iotest"
)

// stdout is read straight into the wiping buffer: the arrays it outgrows
// are zeroed, and it stops at max.
func TestWipeBufferReadFrom(t *testing.T) {
	secret := strings.Repeat("S", 5000) // past the first 4 KiB array
	w := &wipeBuffer{max: 1 << 20}
	var first []byte
	r := iotest.OneByteReader(strings.NewReader(secret))
	spy := readerFunc(func(p []byte) (int, error) {
		if first == nil && cap(w.buf) > 0 {
			first = w.buf[:cap(w.buf)]
		}
		return r.Read(p)
	})
	if err := w.readFrom(spy); err != nil || string(w.buf) != secret || w.over {
		t.Fatalf("read %d bytes, %v, over %v", len(w.buf), err, w.over)
	}
	if len(first) != 4096 || bytes.ContainsRune(first, 'S') {
		t.Fatalf("the outgrown array (%d bytes) was not wiped", len(first))
	}
	w.wipe()
	small := &wipeBuffer{max: 10}
	if err := small.readFrom(strings.NewReader(secret)); err != nil || !small.over || len(small.buf) != 10 {
		t.Fatalf("max: %d bytes, over %v, %v", len(small.buf), small.over, err)
	}
}

type readerFunc func([]byte) (int, error)

func (f readerFunc) Read(p []byte) (int, error) { return f(p) }
