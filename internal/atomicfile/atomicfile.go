// Package atomicfile writes a file so that a reader never sees half of it:
// through a temporary file in the same folder, synced and renamed into place.
package atomicfile

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Write writes what write produces to path with permissions perm (the
// temporary file's 0600 is changed to perm before the rename, so a page or
// weights file is readable as the user's other files are). On any error the
// temporary file is removed, path is left as it was, and the error names
// path.
func Write(path string, perm os.FileMode, write func(io.Writer) error) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	err = write(f)
	if err == nil {
		err = f.Chmod(perm)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
