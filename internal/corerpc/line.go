package corerpc

import (
	"bufio"
	"errors"
	"io"
)

// ErrLineTooLong is ReadLine's answer to a line over its limit.
var ErrLineTooLong = errors.New("line too long")

// ReadLine returns the next newline-delimited line without its newline; a
// last line without a newline is a line, then io.EOF. A line over max bytes
// is ErrLineTooLong. With skip, the rest of that line is read and dropped
// first, so the next call starts at the next line: right for a stream the
// peer keeps in step, such as an MCP client's stdin. Without skip it stops
// reading at once: Core RPC's socket is then closed, since a peer that
// sends an endless line would otherwise keep the reader busy for ever.
func ReadLine(br *bufio.Reader, max int, skip bool) ([]byte, error) {
	var line []byte
	tooLong := false
	for {
		chunk, err := br.ReadSlice('\n')
		n := len(line) + len(chunk)
		if err == nil {
			n-- // the newline
		}
		if !tooLong && n > max {
			if !skip {
				return nil, ErrLineTooLong
			}
			tooLong, line = true, nil
		}
		if !tooLong {
			line = append(line, chunk...)
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case tooLong && (err == nil || errors.Is(err, io.EOF)):
			return nil, ErrLineTooLong
		case err == nil:
			return line[:len(line)-1], nil
		case errors.Is(err, io.EOF) && len(line) > 0:
			return line, nil
		default:
			return nil, err
		}
	}
}
