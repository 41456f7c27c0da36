package install

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Owner-only modes: the state directory holds the user's automation state,
// and Chromium runs as the same user, so nobody else needs to read it
// (DESIGN.md "State directory").
const (
	dirMode  fs.FileMode = 0o700
	fileMode fs.FileMode = 0o600
)

// writeFileAtomic replaces path with data through a temporary sibling, so
// a browser reading the manifest never sees half a file.
func writeFileAtomic(path string, data []byte) (err error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			os.Remove(f.Name())
		}
	}()
	if err := f.Chmod(fileMode); err != nil {
		f.Close()
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}

// replaceTree makes dst hold exactly src's files. It builds the new tree in
// a temporary sibling and swaps it in with renames, so a browser restarting
// meanwhile loads either the old extension or the new one, never a mix.
func replaceTree(src fs.FS, dst string) (err error) {
	parent := filepath.Dir(dst)
	fresh, err := os.MkdirTemp(parent, "."+filepath.Base(dst)+".new-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			os.RemoveAll(fresh)
		}
	}()
	if err := copyTree(src, fresh); err != nil {
		return err
	}

	// Move the old tree aside instead of deleting it first: if the final
	// rename fails, it goes back.
	var aside string
	if _, err := os.Lstat(dst); err == nil {
		holder, err := os.MkdirTemp(parent, "."+filepath.Base(dst)+".old-*")
		if err != nil {
			return err
		}
		defer os.RemoveAll(holder)
		aside = filepath.Join(holder, "tree")
		if err := os.Rename(dst, aside); err != nil {
			return err
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if err := os.Rename(fresh, dst); err != nil {
		if aside != "" {
			if rerr := os.Rename(aside, dst); rerr != nil {
				return fmt.Errorf("%w (and restoring the previous %s failed: %v)", err, dst, rerr)
			}
		}
		return err
	}
	return nil
}

func copyTree(src fs.FS, dst string) error {
	return fs.WalkDir(src, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		target := filepath.Join(dst, filepath.FromSlash(p))
		switch {
		case d.IsDir():
			return os.MkdirAll(target, dirMode)
		case d.Type().IsRegular():
			data, err := fs.ReadFile(src, p)
			if err != nil {
				return err
			}
			return os.WriteFile(target, data, fileMode)
		default:
			return fmt.Errorf("%s: not a regular file (%v)", p, d.Type())
		}
	})
}
