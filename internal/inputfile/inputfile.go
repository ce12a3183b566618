// Package inputfile checks a file named by a user before it is read: it
// must be a regular file (a named pipe would block its reader forever, a
// device or a socket is never an input) and, where the caller says so, no
// larger than a bound, checked before anything is allocated for it.
package inputfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// Error is a refused input: errors.As finds it wherever it is wrapped, so
// that a command can treat it as bad input (gridgym exits 2).
type Error struct {
	Path string
	Msg  string
}

func (e *Error) Error() string { return e.Path + ": " + e.Msg }

// Kind names what a file of mode m is, for messages: "a named pipe
// (FIFO)", "a folder", "a regular file" …
func Kind(m fs.FileMode) string {
	switch t := m.Type(); {
	case t == 0:
		return "a regular file"
	case t&fs.ModeDir != 0:
		return "a folder"
	case t&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case t&fs.ModeSocket != 0:
		return "a socket"
	case t&fs.ModeCharDevice != 0:
		return "a character device"
	case t&fs.ModeDevice != 0:
		return "a block device"
	case t&fs.ModeSymlink != 0:
		return "a symbolic link"
	default:
		return "not a regular file"
	}
}

// notRegular is the Error for path of mode m.
func notRegular(path string, m fs.FileMode) error {
	return &Error{Path: path, Msg: fmt.Sprintf("is %s, not a regular file: inputs are read from regular files only", Kind(m))}
}

// Check returns path's FileInfo (following symbolic links) if it is a
// regular file, else an *Error saying what it is. It opens nothing.
func Check(path string) (fs.FileInfo, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, notRegular(path, fi.Mode())
	}
	return fi, nil
}

// Open opens the regular file at path for reading. It checks the path
// before opening (Check) and the opened file again (it opens without
// blocking, so a file swapped for a named pipe in between cannot hang it).
func Open(path string) (*os.File, error) {
	if _, err := Check(path); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = notRegular(path, fi.Mode())
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// ReadFile reads the regular file at path, refusing it (an *Error) before
// reading when it is larger than limit bytes; what names the file's kind in
// that message ("a config file").
func ReadFile(path string, limit int64, what string) ([]byte, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	tooLarge := func(size string) error {
		return &Error{Path: path, Msg: fmt.Sprintf("is %s bytes, more than %s may be (%d bytes)", size, what, limit)}
	}
	if fi.Size() > limit {
		return nil, tooLarge(fmt.Sprint(fi.Size()))
	}
	b, err := io.ReadAll(io.LimitReader(f, limit+1)) // it may have grown since
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, tooLarge("over " + fmt.Sprint(limit))
	}
	return b, nil
}

// Is reports whether err is (or wraps) a refused input.
func Is(err error) bool {
	var e *Error
	return errors.As(err, &e)
}
