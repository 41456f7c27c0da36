package nativemsg

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/agenttab/agenttab/protocol"
)

// ErrTooLarge is returned (wrapped) for a message over the limit of its
// direction. Nothing was written or consumed beyond the length prefix.
var ErrTooLarge = errors.New("native message too large")

// Chrome uses the platform's native byte order for the length prefix; every
// platform Chrome supports for native messaging is little-endian.
var order = binary.LittleEndian

// Writer writes framed messages. It is safe for concurrent use: each message
// goes out whole, never interleaved with another.
type Writer struct {
	mu  sync.Mutex
	w   io.Writer
	max int
}

// NewWriter returns a Writer that refuses messages over
// protocol.MaxHostToExtension.
func NewWriter(w io.Writer) *Writer {
	return &Writer{w: w, max: protocol.MaxHostToExtension}
}

// Write marshals v and writes it as one frame.
func (w *Writer) Write(v any) error {
	body, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("native message: encode: %w", err)
	}
	return w.WriteRaw(body)
}

// WriteRaw writes an already-encoded JSON message as one frame.
func (w *Writer) WriteRaw(body []byte) error {
	if len(body) > w.max {
		return fmt.Errorf("%w: %d bytes, the limit toward the extension is %d", ErrTooLarge, len(body), w.max)
	}
	frame := make([]byte, 4+len(body))
	order.PutUint32(frame, uint32(len(body)))
	copy(frame[4:], body)
	w.mu.Lock()
	defer w.mu.Unlock()
	if _, err := w.w.Write(frame); err != nil {
		return fmt.Errorf("native message: write: %w", err)
	}
	return nil
}

// Reader reads framed messages from the extension.
type Reader struct {
	r   io.Reader
	max int
}

// NewReader returns a Reader that refuses frames over
// protocol.MaxExtensionToHost.
func NewReader(r io.Reader) *Reader {
	return &Reader{r: r, max: protocol.MaxExtensionToHost}
}

// Read returns the next message body. It returns io.EOF when the extension
// closed the port cleanly between frames. An oversize frame is an error after
// which the stream cannot be resynchronised; the caller must stop reading.
func (r *Reader) Read() ([]byte, error) {
	var prefix [4]byte
	if _, err := io.ReadFull(r.r, prefix[:]); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, fmt.Errorf("native message: truncated length prefix: %w", err)
		}
		return nil, err
	}
	n := order.Uint32(prefix[:])
	if int64(n) > int64(r.max) {
		return nil, fmt.Errorf("%w: frame of %d bytes, the limit from the extension is %d", ErrTooLarge, n, r.max)
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(r.r, body); err != nil {
		return nil, fmt.Errorf("native message: truncated body (%d bytes announced): %w", n, err)
	}
	return body, nil
}
