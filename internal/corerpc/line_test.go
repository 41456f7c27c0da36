package corerpc

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Without skip, a long line ends the reading at once, wherever it stands.
func TestReadLineWithoutSkip(t *testing.T) {
	br := bufio.NewReaderSize(strings.NewReader("ok\n"+strings.Repeat("x", 40)+"\nnever\n"), 16)
	if line, err := ReadLine(br, 8, false); err != nil || string(line) != "ok" {
		t.Fatalf("first line: %q, %v", line, err)
	}
	if _, err := ReadLine(br, 8, false); !errors.Is(err, ErrLineTooLong) {
		t.Fatalf("long line: %v, want ErrLineTooLong", err)
	}
	if rest, _ := io.ReadAll(br); !bytes.Contains(rest, []byte("x")) {
		t.Fatalf("the long line was read to its end (%q left): without skip nothing more is read", rest)
	}
}

func TestReadLine(t *testing.T) {
	const max = 8
	input := "short\n" + strings.Repeat("x", 9) + "\n" + strings.Repeat("y", 8) + "\n" + strings.Repeat("z", 40) + "\nlast"
	// A reader buffer smaller than the long lines, so they arrive in pieces.
	br := bufio.NewReaderSize(strings.NewReader(input), 16)
	var got []string
	for {
		line, err := ReadLine(br, max, true)
		if errors.Is(err, io.EOF) {
			break
		}
		if errors.Is(err, ErrLineTooLong) {
			got = append(got, "(too long)")
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, string(line))
	}
	want := []string{"short", "(too long)", "yyyyyyyy", "(too long)", "last"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("lines (-want +got):\n%s", diff)
	}
}

func FuzzReadLine(f *testing.F) {
	f.Add([]byte("a\nbb\n\ncccccccccccccccccccccccccccccc\nd"), 4)
	f.Add([]byte("\n\n\n"), 1)
	f.Fuzz(func(t *testing.T, data []byte, max int) {
		if max < 1 || max > 1<<12 {
			return
		}
		const skipped = "\n(too long)" // holds a newline: no line can be it
		br := bufio.NewReaderSize(bytes.NewReader(data), 16)
		var got []string
		for range len(data) + 2 {
			line, err := ReadLine(br, max, true)
			if errors.Is(err, io.EOF) {
				break
			}
			if errors.Is(err, ErrLineTooLong) {
				got = append(got, skipped)
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, string(line))
		}
		// Every line of the input, in order: those up to max bytes as they
		// were, the longer ones skipped.
		var want []string
		if len(data) > 0 {
			for _, l := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
				if len(l) > max {
					l = skipped
				}
				want = append(want, l)
			}
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("lines of %q with max %d (-want +got):\n%s", data, max, diff)
		}
	})
}
