package host

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/agenttab/agenttab/internal/corerpc"
	"github.com/agenttab/agenttab/protocol"
)

// Blobs are binary results passed by reference (DESIGN.md "Blobs"):
// STATE/blobs/<task>/<name>, directories 0700 and files 0600, readable only
// through the task that made them, deleted when the task finishes or after
// blobTTL.
const (
	blobScheme = "agenttab://blob/"
	blobTTL    = 24 * time.Hour
)

// writeBlob stores data for a task and returns its reference.
func (h *Host) writeBlob(taskID, ext, mime string, data []byte) (*protocol.BlobRef, error) {
	dir := filepath.Join(h.opts.Dir.Blobs(), taskID)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("blob directory: %w", err)
	}
	var b [12]byte
	if _, err := rand.Read(b[:]); err != nil {
		return nil, err
	}
	name := hex.EncodeToString(b[:]) + "." + ext
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		return nil, fmt.Errorf("writing blob: %w", err)
	}
	return &protocol.BlobRef{Path: path, URI: blobScheme + taskID + "/" + name, MimeType: mime, Bytes: len(data)}, nil
}

// blobRead serves a blob of the caller's own task.
func (h *Host) blobRead(ctx context.Context, c *call) (any, error) {
	var p protocol.BlobReadParams
	if perr := corerpc.DecodeParams(c.params, &p); perr != nil {
		return nil, perr
	}
	task, unlock, perr := h.taskCall(ctx, c)
	if perr != nil {
		return nil, perr
	}
	unlock()
	rest, ok := strings.CutPrefix(p.URI, blobScheme+task.ID+"/")
	if !ok || rest == "" || strings.ContainsAny(rest, `/\`) || strings.HasPrefix(rest, ".") {
		return nil, protocol.NewError(protocol.CodeNotOwned, protocol.OutcomeNotStarted,
			"no blob of this task has that URI", "Use a URI from one of this task's own results.")
	}
	data, err := os.ReadFile(filepath.Join(h.opts.Dir.Blobs(), task.ID, rest))
	if errors.Is(err, os.ErrNotExist) {
		return nil, protocol.NewError(protocol.CodeNotOwned, protocol.OutcomeNotStarted,
			"that blob no longer exists (blobs go when their task finishes or after 24 hours)", "Take a new screenshot.")
	}
	if err != nil {
		return nil, internalError("reading the blob", err)
	}
	c.outcome = protocol.OutcomeObserved
	return protocol.BlobReadResult{MimeType: mimeOf(rest), Base64: base64.StdEncoding.EncodeToString(data)}, nil
}

func mimeOf(name string) string {
	if strings.HasSuffix(name, ".png") {
		return "image/png"
	}
	return "application/octet-stream"
}

// dropBlobs deletes a finished task's blobs.
func (h *Host) dropBlobs(taskID string) {
	if err := os.RemoveAll(filepath.Join(h.opts.Dir.Blobs(), taskID)); err != nil {
		h.log.Printf("removing blobs of %s: %v", taskID, err)
	}
}

// sweepBlobs deletes blob directories of tasks that are no longer active
// and blobs older than blobTTL; it runs at start-up.
func (h *Host) sweepBlobs(active map[string]bool) {
	root := h.opts.Dir.Blobs()
	dirs, err := os.ReadDir(root)
	if err != nil {
		return
	}
	cutoff := h.now().Add(-blobTTL)
	for _, d := range dirs {
		dir := filepath.Join(root, d.Name())
		if !active[d.Name()] {
			os.RemoveAll(dir)
			continue
		}
		files, _ := os.ReadDir(dir)
		for _, f := range files {
			if info, err := f.Info(); err == nil && info.ModTime().Before(cutoff) {
				os.Remove(filepath.Join(dir, f.Name()))
			}
		}
	}
}
