package store

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// This file holds what commands share to read inputs from, and write
// outputs to, any location: inputs are fetched into a temporary folder and
// read there; outputs are written into a local staging folder and mirrored
// to the location (Mirror), object by object, each upload atomic.

// Join returns the location of key under loc (a URL keeps its query).
func Join(loc, key string) string {
	if key == "" {
		return loc
	}
	if !IsURL(loc) {
		return filepath.Join(loc, filepath.FromSlash(key))
	}
	u, err := url.Parse(loc)
	if err != nil {
		return loc + "/" + key
	}
	u.Path = strings.TrimSuffix(u.Path, "/") + "/" + key
	return u.String()
}

// Base returns the last element of a location's path ("" for none).
func Base(loc string) string {
	if !IsURL(loc) {
		return filepath.Base(filepath.Clean(loc))
	}
	u, err := url.Parse(loc)
	if err != nil {
		return ""
	}
	b := path.Base(strings.TrimSuffix(u.Path, "/"))
	if b == "." || b == "/" {
		return ""
	}
	return b
}

// Sibling returns the location beside loc whose name is loc's with suffix
// appended (runs/x → runs/x-parquet; s3://b/x?… → s3://b/x-parquet?…).
func Sibling(loc, suffix string) string {
	if !IsURL(loc) {
		return strings.TrimSuffix(filepath.Clean(loc), string(filepath.Separator)) + suffix
	}
	u, err := url.Parse(loc)
	if err != nil {
		return loc + suffix
	}
	u.Path = strings.TrimSuffix(u.Path, "/") + suffix
	return u.String()
}

// Fetch makes what loc names readable locally. A local location (a plain
// path, file://) is returned as is. Otherwise the object loc names (its last
// element has a file extension), or every object under the prefix whose key
// ends in suffix (all when suffix is ""), is downloaded into a new temporary
// folder, which cleanup removes. Finding nothing is an error naming loc.
func Fetch(ctx context.Context, loc, suffix string) (p string, cleanup func(), err error) {
	if lp, ok := LocalPath(loc); ok {
		return lp, func() {}, nil
	}
	tmp, err := os.MkdirTemp("", "gridgym-download-")
	if err != nil {
		return "", nil, fmt.Errorf("download %s: %w", Redact(loc), err)
	}
	cleanup = func() { os.RemoveAll(tmp) }
	if _, key := SplitObject(loc); key != "" {
		p, err = Download(ctx, loc, tmp, suffix)
	} else {
		// A folder named after the prefix, so that names derived from
		// it (a run's name) stay meaningful.
		p = filepath.Join(tmp, cmp(Base(loc), "data"))
		var n int
		n, err = FetchDir(ctx, loc, p, suffix)
		if err == nil && n == 0 {
			what := "objects"
			if suffix != "" {
				what = "*" + suffix + " objects"
			}
			err = fmt.Errorf("no %s under this prefix", what)
		}
	}
	if err != nil {
		cleanup()
		return "", nil, fmt.Errorf("download %s: %w", Redact(loc), err)
	}
	return p, cleanup, nil
}

func cmp(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// FetchDir downloads every object under the prefix loc whose key ends in
// suffix (all when suffix is "") into the folder dir, keys as relative
// paths, and returns how many it downloaded. Unlike Download, loc is always
// a prefix, whatever its last element looks like.
func FetchDir(ctx context.Context, loc, dir, suffix string) (int, error) {
	s, err := Open(ctx, loc)
	if err != nil {
		return 0, err
	}
	defer s.Close()
	objs, err := s.List(ctx, "")
	if err != nil {
		return 0, err
	}
	n := 0
	for _, o := range objs {
		if suffix != "" && !strings.HasSuffix(o.Key, suffix) {
			continue
		}
		if err := s.GetFile(ctx, o.Key, filepath.Join(dir, filepath.FromSlash(o.Key))); err != nil {
			return n, err
		}
		n++
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return n, err
	}
	return n, nil
}

// Stage returns the local folder to write the output location loc into:
// the folder itself when loc is local (m is then nil, and a nil Mirror does
// nothing), else a new temporary folder named like loc's last element, with
// a Mirror that uploads it to loc; cleanup removes the temporary folder.
func Stage(loc string) (dir string, m *Mirror, cleanup func(), err error) {
	if lp, ok := LocalPath(loc); ok {
		if lp == "" {
			return "", nil, nil, errors.New("store: empty location")
		}
		return lp, nil, func() {}, nil
	}
	if _, err := url.Parse(loc); err != nil {
		return "", nil, nil, fmt.Errorf("%s: %w", Redact(loc), err)
	}
	tmp, err := os.MkdirTemp("", "gridgym-upload-")
	if err != nil {
		return "", nil, nil, err
	}
	dir = filepath.Join(tmp, cmp(Base(loc), "out"))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		os.RemoveAll(tmp)
		return "", nil, nil, err
	}
	return dir, NewMirror(dir, loc), func() { os.RemoveAll(tmp) }, nil
}

// A Mirror keeps a location in step with a local folder: Sync uploads the
// files that are new or changed since the last Sync (or Mark), each
// atomically under its relative path. Files named in Last go after all the
// others: a pointer such as a run's "latest" never names objects not yet
// uploaded. Hidden and .tmp files (writers' temporary files) are skipped.
// The methods of a nil Mirror do nothing.
type Mirror struct {
	Dir, Loc string
	Last     []string // relative paths (slash-separated) uploaded last
	sent     map[string]stamp
}

type stamp struct {
	size int64
	mod  time.Time
}

// NewMirror returns a Mirror of the folder dir at the location loc.
func NewMirror(dir, loc string, last ...string) *Mirror {
	return &Mirror{Dir: dir, Loc: loc, Last: last, sent: map[string]stamp{}}
}

// files lists the folder's files with their stamps.
func (m *Mirror) files() (map[string]stamp, error) {
	out := map[string]stamp{}
	err := filepath.WalkDir(m.Dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil // a writer's temporary file renamed meanwhile
			}
			return err
		}
		name := d.Name()
		if p != m.Dir && (strings.HasPrefix(name, ".") || strings.HasSuffix(name, ".tmp")) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		rel, err := filepath.Rel(m.Dir, p)
		if err != nil {
			return err
		}
		out[filepath.ToSlash(rel)] = stamp{fi.Size(), fi.ModTime()}
		return nil
	})
	return out, err
}

// Mark records the folder's files as uploaded (after fetching them from the
// location, say).
func (m *Mirror) Mark() error {
	if m == nil {
		return nil
	}
	fs, err := m.files()
	if err != nil {
		return err
	}
	for k, v := range fs {
		m.sent[k] = v
	}
	return nil
}

// Sync uploads the new or changed files and returns how many it uploaded.
// Errors name the location and the file.
func (m *Mirror) Sync(ctx context.Context) (int, error) {
	if m == nil {
		return 0, nil
	}
	files, err := m.files()
	if err != nil {
		return 0, fmt.Errorf("upload to %s: %w", Redact(m.Loc), err)
	}
	var todo, last []string
	for k, st := range files {
		if old, ok := m.sent[k]; ok && old == st {
			continue
		}
		isLast := false
		for _, l := range m.Last {
			isLast = isLast || l == k
		}
		if isLast {
			last = append(last, k)
		} else {
			todo = append(todo, k)
		}
	}
	if len(todo)+len(last) == 0 {
		return 0, nil
	}
	sort.Strings(todo)
	sort.Strings(last)
	s, err := Open(ctx, m.Loc)
	if err != nil {
		return 0, fmt.Errorf("upload to %s: %w", Redact(m.Loc), err)
	}
	defer s.Close()
	n := 0
	for _, k := range append(todo, last...) {
		if err := s.PutFile(ctx, k, filepath.Join(m.Dir, filepath.FromSlash(k))); err != nil {
			return n, fmt.Errorf("upload %s to %s: %w", k, Redact(m.Loc), err)
		}
		m.sent[k] = files[k]
		n++
	}
	return n, nil
}
