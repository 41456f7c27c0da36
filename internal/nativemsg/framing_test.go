package nativemsg

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/agenttab/agenttab/protocol"
)

func TestRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf)
	if err := w.Write(map[string]string{"type": "welcome", "text": "héllo"}); err != nil {
		t.Fatal(err)
	}
	r := NewReader(&buf)
	got, err := r.Read()
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"text":"héllo","type":"welcome"}`; string(got) != want {
		t.Fatalf("got %s, want %s", got, want)
	}
	if _, err := r.Read(); err != io.EOF {
		t.Fatalf("after the last frame: got %v, want io.EOF", err)
	}
}

func TestWriterRefusesOversizeBeforeWriting(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf)
	big := strings.Repeat("x", protocol.MaxHostToExtension)
	err := w.Write(map[string]string{"t": big})
	if !errors.Is(err, ErrTooLarge) {
		t.Fatalf("got %v, want ErrTooLarge", err)
	}
	if buf.Len() != 0 {
		t.Fatalf("%d bytes were written; an oversize message must write nothing", buf.Len())
	}
	// Exactly at the limit is allowed.
	exact := make([]byte, protocol.MaxHostToExtension)
	for i := range exact {
		exact[i] = ' '
	}
	exact[0], exact[len(exact)-1] = '"', '"'
	if err := w.WriteRaw(exact); err != nil {
		t.Fatalf("a message of exactly the limit: %v", err)
	}
}

func TestReaderErrors(t *testing.T) {
	for _, tc := range []struct {
		name  string
		input []byte
		want  error
	}{
		{"truncated prefix", []byte{1, 0}, io.ErrUnexpectedEOF},
		{"truncated body", []byte{5, 0, 0, 0, '{', '}'}, io.ErrUnexpectedEOF},
		{"oversize frame", []byte{0xff, 0xff, 0xff, 0x7f}, ErrTooLarge},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewReader(bytes.NewReader(tc.input)).Read()
			if !errors.Is(err, tc.want) {
				t.Fatalf("got %v, want %v", err, tc.want)
			}
		})
	}
}

func FuzzReader(f *testing.F) {
	f.Add([]byte{2, 0, 0, 0, '{', '}'})
	f.Add([]byte{0xff, 0xff, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, data []byte) {
		r := NewReader(bytes.NewReader(data))
		r.max = 1 << 16 // keep allocations small under fuzzing
		for i := 0; i < 64; i++ {
			body, err := r.Read()
			if err != nil {
				return
			}
			if len(body) > r.max {
				t.Fatalf("read %d bytes past the limit", len(body))
			}
		}
	})
}
