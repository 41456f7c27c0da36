package host

import (
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/agenttab/agenttab/internal/fileroots"
	"github.com/agenttab/agenttab/internal/policy"
	"github.com/agenttab/agenttab/internal/statedir"
	"github.com/agenttab/agenttab/protocol"
)

// localFiles decides file: URLs: local_files.allowed_roots as the host
// resolved it at start, and the state directory no root can reach.
// Source of truth: issue 9 and protocol/localfiles.go. The same decision
// serves explicit targets (browser_open, navigate steps) and every file:
// request an owned tab's page makes (the extension asks, NativeLocalFile):
// only the host can resolve the symlinks that say where a path leads.
//
// Roots and the state directory are compared by identity (os.SameFile on
// each folder from the resolved file up to /), not by path text: a
// case-insensitive disk (macOS) spells one folder many ways, and a bind
// mount shows the state directory under a second path; both are the same
// folder to SameFile. (A bind mount of one folder *inside* the state
// directory is not caught: walking up from it never meets the state
// directory. Making one takes root.)
//
// What this cannot see: the file is resolved here and opened by Chrome a
// moment later, so a local process that swaps a checked file for a
// symlink in between wins the race. Such a process runs as the user and
// can read the state directory itself; the check is against pages and
// agents, which cannot make symlinks.
type localFiles struct {
	roots []fs.FileInfo
	state fs.FileInfo
}

// rootsKey is the policy key, as errors name it.
const rootsKey = "local_files.allowed_roots"

// loadLocalFiles resolves the roots of the policy at start (symlinks, a
// relative part) and refuses, naming the entry, a root that does not
// exist, is not a folder, or lies in the state directory (a root that
// holds the state directory is fine: the state directory stays refused).
func loadLocalFiles(p policy.Policy, dir statedir.Dir) (*localFiles, error) {
	refuse := func(i int, root, why string) error {
		return &policy.Error{Path: dir.Policy(), Key: rootsKey, Problem: fmt.Sprintf("policy key %q entry %d %q: %s", rootsKey, i, root, why)}
	}
	state, err := os.Stat(string(dir))
	if err != nil {
		return nil, fmt.Errorf("state directory: %w", err)
	}
	l := &localFiles{state: state}
	for i, root := range p.LocalFiles.AllowedRoots {
		// Windows paths (drive letters, UNC shares, alternate data
		// streams, names Windows shortens or trims) are not something
		// this build has been checked against: fail closed.
		if runtime.GOOS == "windows" {
			return nil, refuse(i, root, "local folders are not admitted on Windows in this build")
		}
		real, fi, err := fileroots.Folder(root)
		if err != nil {
			return nil, refuse(i, root, err.Error())
		}
		inState, err := l.inState(real)
		if err != nil {
			return nil, refuse(i, root, "it cannot be read: "+err.Error())
		}
		if inState {
			return nil, refuse(i, root, "it lies in AgentTab's state directory, which no policy can admit")
		}
		l.roots = append(l.roots, fi)
	}
	return l, nil
}

// configured reports whether any folder is admitted.
func (l *localFiles) configured() bool { return l != nil && len(l.roots) > 0 }

// admit decides a file: URL: the canonical URL of what it names (symlinks
// resolved, a folder with its trailing slash) when that is a regular file
// or a folder inside an admitted root and outside the state directory,
// else local_file_denied. The message never holds the path.
func (l *localFiles) admit(raw string) (string, *protocol.Error) {
	deny := func(why string) (string, *protocol.Error) {
		return "", protocol.Fail(protocol.CodeLocalFileDenied, why)
	}
	if !l.configured() {
		return deny(protocol.LocalFileNoRoots)
	}
	path, tail, why := filePath(raw)
	if why != "" {
		return deny(why)
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return deny("the local file does not exist, or cannot be read")
	}
	// The state directory first: it is refused whatever else is true.
	inState, err := l.inState(real)
	if err != nil {
		return deny("the local file's folders cannot be read")
	}
	if inState {
		return deny("the local file lies in AgentTab's state directory, which no policy admits")
	}
	fi, err := os.Lstat(real)
	switch {
	case err != nil:
		return deny("the local file cannot be read")
	case fi.Mode().IsRegular() && fileroots.HardLinked(fi):
		// Another name of the same file may lie anywhere, the state
		// directory included (spec 000 refuses such files for uploads).
		return deny("the local file has more than one hard link, so it may be any other file")
	case !fi.Mode().IsRegular() && !fi.IsDir():
		return deny("the local path is neither a regular file nor a folder")
	}
	inRoot, err := l.inRoot(real)
	if err != nil {
		return deny("the local file's folders cannot be read")
	}
	if !inRoot {
		return deny("the local file is not inside a folder the user's policy admits (" + rootsKey + ")")
	}
	if fi.IsDir() && !strings.HasSuffix(real, "/") {
		real += "/"
	}
	return "file://" + (&url.URL{Path: real}).EscapedPath() + tail, nil
}

// inState reports whether path (resolved, without symlinks) is the state
// directory or lies in it.
func (l *localFiles) inState(path string) (bool, error) {
	return fileroots.AnyAncestor(path, fileroots.SameAs(l.state))
}

// inRoot reports whether path (resolved) is an admitted root or lies in one.
func (l *localFiles) inRoot(path string) (bool, error) {
	return fileroots.AnyAncestor(path, fileroots.SameAs(l.roots...))
}

// filePath reads the absolute path a file: URL names, the way Chrome
// does, and refuses every form where Chrome and this reading could
// differ: a host (file://server/share is a network share), a path
// that is not absolute, dot segments ("..", "%2e%2e": Chrome removes
// them before it reads the disk), an escaped slash or backslash, an
// empty segment, control characters. It returns the decoded path, the
// query and fragment as written (kept, but not part of the file), and
// why the URL is refused ("" when it is not).
func filePath(raw string) (path, tail, why string) {
	const odd = "the file: URL is not of the form file:///absolute/path"
	scheme, rest, ok := strings.Cut(raw, ":")
	if !ok || !strings.EqualFold(scheme, "file") {
		return "", "", odd
	}
	switch {
	case strings.HasPrefix(rest, "///"):
		rest = rest[2:]
	case len(rest) >= len("//localhost/") && strings.EqualFold(rest[:len("//localhost/")], "//localhost/"):
		rest = rest[len("//localhost"):]
	case strings.HasPrefix(rest, "//"):
		return "", "", "the file: URL names a host (file://host/…), which AgentTab never opens"
	default:
		return "", "", odd
	}
	if i := strings.IndexAny(rest, "?#"); i >= 0 {
		rest, tail = rest[:i], rest[i:]
	}
	for _, c := range rest + tail {
		if c < 0x20 || c == 0x7f || c == '\\' {
			return "", "", odd
		}
	}
	segments := strings.Split(rest[1:], "/")
	for i, seg := range segments {
		dec, err := url.PathUnescape(seg)
		switch {
		case err != nil:
			return "", "", odd
		case seg == "" && i != len(segments)-1:
			return "", "", odd
		case dec == "." || dec == "..":
			return "", "", "the file: URL has a . or .. segment"
		case strings.ContainsAny(dec, "/\\\x00"):
			return "", "", odd
		}
		segments[i] = dec
	}
	return "/" + strings.Join(segments, "/"), tail, ""
}
