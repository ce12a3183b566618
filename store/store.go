// Package store is gridgym's storage for shards, weights and reports behind
// one interface, gocloud.dev/blob, so that the same commands work on a local
// folder and on any S3-compatible object store (AWS S3, MinIO, Ceph, …).
//
// # Locations
//
// A location is a URL or a plain path:
//
//	runs/dist                       a local folder (today's behaviour)
//	file:///abs/folder              the same, as a URL
//	s3://bucket/some/prefix?endpoint=http://127.0.0.1:9000&use_path_style=true&disable_https=true&region=us-east-1
//
// For s3:// the URL's host is the bucket and its path a key prefix under
// which every key of the location lives; the query goes to gocloud's s3blob
// opener (region, endpoint, use_path_style, disable_https,
// request_checksum_calculation, …). Credentials come from the usual AWS
// environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_REGION, …).
// Where the URL names an endpoint (a store that is not AWS) and does not set
// them, request_checksum_calculation and response_checksum_validation default
// to when_required: newer AWS SDKs otherwise send aws-chunked bodies with
// trailing checksums that many S3-compatible servers reject.
//
// # Atomicity
//
// Put and PutFile are the commit: an object appears under its final key only
// once all its bytes were uploaded (S3 PUT and multipart completion are
// atomic; fileblob writes a temporary file next to the final one and renames
// it). A writer that fails, or whose process dies, leaves nothing under the
// key.
//
// # Weights
//
// Published weights are versioned keys weights/vNNNNNN.safetensors and a
// small pointer object weights/LATEST, JSON {version, key, sha256, created},
// written after the weights themselves: a reader that sees a pointer always
// finds its weights, and checks their hash.
package store

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"gocloud.dev/blob"
	"gocloud.dev/blob/fileblob"
	_ "gocloud.dev/blob/s3blob" // s3:// URLs
	"gocloud.dev/gcerrors"
)

// Store is a bucket and a key prefix.
type Store struct {
	url    string
	bucket *blob.Bucket
	local  string // the folder, for file locations
}

// IsURL reports whether loc is a URL with a scheme (file://, s3://, …) rather
// than a plain path.
func IsURL(loc string) bool {
	i := strings.Index(loc, "://")
	return i > 1 && !strings.ContainsAny(loc[:i], `/\.`)
}

// IsRemote reports whether loc names something other than a local path
// (any URL but file://).
func IsRemote(loc string) bool { return IsURL(loc) && !strings.HasPrefix(loc, "file://") }

// LocalPath returns the folder of a plain path or file:// URL.
func LocalPath(loc string) (string, bool) {
	if !IsURL(loc) {
		return loc, true
	}
	u, err := url.Parse(loc)
	if err != nil || u.Scheme != "file" {
		return "", false
	}
	p := u.Path
	if u.Host == "." {
		p = strings.TrimPrefix(p, "/")
	}
	return filepath.FromSlash(p), true
}

// Open opens the location loc (a plain path, file:// or s3:// URL); a local
// folder is created if missing.
func Open(ctx context.Context, loc string) (*Store, error) {
	if dir, ok := LocalPath(loc); ok {
		if dir == "" {
			return nil, errors.New("store: empty location")
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("store: %w", err)
		}
		b, err := fileblob.OpenBucket(dir, &fileblob.Options{Metadata: fileblob.MetadataDontWrite, NoTempDir: true})
		if err != nil {
			return nil, fmt.Errorf("store %s: %w", loc, err)
		}
		return &Store{url: loc, bucket: b, local: dir}, nil
	}
	u, err := url.Parse(loc)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	prefix := strings.Trim(u.Path, "/")
	q := u.Query()
	if u.Scheme == "s3" && q.Get("endpoint") != "" {
		for _, k := range []string{"request_checksum_calculation", "response_checksum_validation"} {
			if q.Get(k) == "" {
				q.Set(k, "when_required")
			}
		}
	}
	if prefix != "" {
		q.Set("prefix", prefix+"/")
	}
	open := url.URL{Scheme: u.Scheme, Host: u.Host, RawQuery: q.Encode()}
	b, err := blob.OpenBucket(ctx, open.String())
	if err != nil {
		return nil, fmt.Errorf("store %s: %w", Redact(loc), err)
	}
	return &Store{url: loc, bucket: b}, nil
}

// Redact returns loc without user information (for messages).
func Redact(loc string) string {
	u, err := url.Parse(loc)
	if err != nil || u.User == nil {
		return loc
	}
	u.User = nil
	return u.String()
}

// URL returns the location the store was opened at.
func (s *Store) URL() string { return s.url }

// Local returns the folder of a local store ("" for a remote one).
func (s *Store) Local() string { return s.local }

// Close releases the bucket.
func (s *Store) Close() error { return s.bucket.Close() }

// Put writes b under key, atomically: the object exists only once complete.
func (s *Store) Put(ctx context.Context, key string, b []byte) error {
	return s.put(ctx, key, func(w io.Writer) error { _, err := w.Write(b); return err })
}

// PutFile uploads the local file at path under key, atomically. An
// executable file (an exported slime-bot) stays executable: a local store's
// copy gets its permissions, and a remote object records them in its
// metadata (modeKey), which GetFile restores.
func (s *Store) PutFile(ctx context.Context, key, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	var md map[string]string
	mode := fi.Mode().Perm()
	if mode&0o111 != 0 {
		md = map[string]string{modeKey: strconv.FormatUint(uint64(mode), 8)}
	}
	if err := s.putMeta(ctx, key, md, func(w io.Writer) error { _, err := io.Copy(w, f); return err }); err != nil {
		return err
	}
	if md != nil && s.local != "" {
		if err := os.Chmod(filepath.Join(s.local, filepath.FromSlash(key)), mode); err != nil {
			return fmt.Errorf("store: %w", err)
		}
	}
	return nil
}

// modeKey is the object metadata key holding an executable file's
// permission bits (octal), as PutFile uploads them.
const modeKey = "gridgym-mode"

// PutStream writes what fill writes under key, atomically. Only the writer's
// Close commits the object; when fill fails, the upload is cancelled and no
// object appears.
func (s *Store) PutStream(ctx context.Context, key string, fill func(io.Writer) error) error {
	return s.put(ctx, key, fill)
}

func (s *Store) put(ctx context.Context, key string, fill func(io.Writer) error) error {
	return s.putMeta(ctx, key, nil, fill)
}

// putMeta is put with object metadata md (nil for none).
func (s *Store) putMeta(ctx context.Context, key string, md map[string]string, fill func(io.Writer) error) error {
	// Cancelling the writer's context before Close aborts the upload
	// (gocloud's documented way): nothing is committed under key.
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	w, err := s.bucket.NewWriter(wctx, key, &blob.WriterOptions{ContentType: contentType(key), Metadata: md})
	if err != nil {
		return fmt.Errorf("store: put %s: %w", key, err)
	}
	if err := fill(w); err != nil {
		cancel()
		w.Close()
		return fmt.Errorf("store: put %s: %w", key, err)
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("store: put %s: %w", key, err)
	}
	return nil
}

func contentType(key string) string {
	switch path.Ext(key) {
	case ".json", "":
		return "application/json"
	case ".arrow":
		return "application/vnd.apache.arrow.file"
	case ".csv":
		return "text/csv"
	}
	return "application/octet-stream"
}

// Get reads the object under key.
func (s *Store) Get(ctx context.Context, key string) ([]byte, error) {
	b, err := s.bucket.ReadAll(ctx, key)
	if err != nil {
		return nil, fmt.Errorf("store: get %s: %w", key, err)
	}
	return b, nil
}

// GetFile downloads key to the local file dst (written under a temporary
// name and renamed when complete).
func (s *Store) GetFile(ctx context.Context, key, dst string) error {
	r, err := s.bucket.NewReader(ctx, key, nil)
	if err != nil {
		return fmt.Errorf("store: get %s: %w", key, err)
	}
	defer r.Close()
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	tmp := filepath.Join(filepath.Dir(dst), "."+filepath.Base(dst)+".download")
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, r); err != nil {
		f.Close()
		os.Remove(tmp)
		return fmt.Errorf("store: get %s: %w", key, err)
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return err
	}
	if mode, ok := s.execMode(ctx, key); ok {
		if err := os.Chmod(tmp, mode); err != nil {
			os.Remove(tmp)
			return err
		}
	}
	return os.Rename(tmp, dst)
}

// execMode returns the permissions of key if PutFile stored it as an
// executable: a local store's file says so itself, a remote object through
// its metadata.
func (s *Store) execMode(ctx context.Context, key string) (os.FileMode, bool) {
	if s.local != "" {
		fi, err := os.Stat(filepath.Join(s.local, filepath.FromSlash(key)))
		if err != nil || fi.Mode().Perm()&0o111 == 0 {
			return 0, false
		}
		return fi.Mode().Perm(), true
	}
	a, err := s.bucket.Attributes(ctx, key)
	if err != nil {
		return 0, false
	}
	m, err := strconv.ParseUint(a.Metadata[modeKey], 8, 32)
	if err != nil || m&0o111 == 0 || m > 0o777 {
		return 0, false
	}
	return os.FileMode(m), true
}

// Exists reports whether key exists.
func (s *Store) Exists(ctx context.Context, key string) (bool, error) {
	return s.bucket.Exists(ctx, key)
}

// Delete removes key.
func (s *Store) Delete(ctx context.Context, key string) error { return s.bucket.Delete(ctx, key) }

// Object is one listed object.
type Object struct {
	Key     string
	Size    int64
	ModTime time.Time
}

// List returns the objects whose keys start with prefix, sorted by key.
// Temporary files of local writers are not listed.
func (s *Store) List(ctx context.Context, prefix string) ([]Object, error) {
	it := s.bucket.List(&blob.ListOptions{Prefix: prefix})
	var out []Object
	for {
		o, err := it.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("store: list %s: %w", prefix, err)
		}
		if o.IsDir || strings.HasSuffix(o.Key, ".tmp") || strings.HasPrefix(path.Base(o.Key), ".") {
			continue
		}
		out = append(out, Object{Key: o.Key, Size: o.Size, ModTime: o.ModTime})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out, nil
}

// IsNotFound reports whether err means a missing object.
func IsNotFound(err error) bool { return gcerrors.Code(err) == gcerrors.NotFound }

// Pointer is the weights/LATEST object: the newest published weights.
type Pointer struct {
	Version int       `json:"version"`
	Key     string    `json:"key"`
	SHA256  string    `json:"sha256"`
	Created time.Time `json:"created"`
}

// LatestKey is the pointer object's key.
const LatestKey = "weights/LATEST"

// WeightsKey is the key of version v's weights.
func WeightsKey(v int) string { return fmt.Sprintf("weights/v%06d.safetensors", v) }

// PublishWeights uploads version v's weights under their versioned key, then
// points LATEST at them. Readers never see a pointer to missing weights.
func (s *Store) PublishWeights(ctx context.Context, v int, weights []byte) (Pointer, error) {
	sum := sha256.Sum256(weights)
	p := Pointer{Version: v, Key: WeightsKey(v), SHA256: hex.EncodeToString(sum[:]), Created: time.Now().UTC()}
	if err := s.Put(ctx, p.Key, weights); err != nil {
		return Pointer{}, err
	}
	b, _ := json.Marshal(p)
	if err := s.Put(ctx, LatestKey, b); err != nil {
		return Pointer{}, err
	}
	return p, nil
}

// Latest reads the LATEST pointer; ok is false when nothing is published yet.
func (s *Store) Latest(ctx context.Context) (p Pointer, ok bool, err error) {
	b, err := s.bucket.ReadAll(ctx, LatestKey)
	if IsNotFound(err) {
		return Pointer{}, false, nil
	}
	if err != nil {
		return Pointer{}, false, fmt.Errorf("store: %s: %w", LatestKey, err)
	}
	if err := json.Unmarshal(b, &p); err != nil {
		return Pointer{}, false, fmt.Errorf("store: %s: %w", LatestKey, err)
	}
	return p, true, nil
}

// FetchWeights downloads the weights p points at and checks their hash.
func (s *Store) FetchWeights(ctx context.Context, p Pointer) ([]byte, error) {
	b, err := s.Get(ctx, p.Key)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(b)
	if got := hex.EncodeToString(sum[:]); got != p.SHA256 {
		return nil, fmt.Errorf("store: %s: sha256 %s, pointer says %s", p.Key, got, p.SHA256)
	}
	return b, nil
}

// SplitObject splits a location naming one object (s3://bucket/dir/file.arrow)
// into the location of its folder and its key. A location without a file
// extension in its last element is taken as a folder (key "").
func SplitObject(loc string) (dir, key string) {
	if !IsURL(loc) {
		return loc, ""
	}
	u, err := url.Parse(loc)
	if err != nil {
		return loc, ""
	}
	base := path.Base(u.Path)
	if path.Ext(base) == "" || u.Path == "" || strings.HasSuffix(u.Path, "/") {
		return loc, ""
	}
	u.Path = path.Dir(u.Path)
	if u.Path == "." || u.Path == "/" {
		u.Path = ""
	}
	return u.String(), base
}

// Download fetches what a location names into the local folder dir: one
// object (a URL whose last element has a file extension) or every object
// under a prefix whose key ends in suffix (all when suffix is ""). It returns
// the local path to use: the file, or dir. A local location is returned as
// is.
func Download(ctx context.Context, loc, dir, suffix string) (string, error) {
	if p, ok := LocalPath(loc); ok {
		return p, nil
	}
	folder, key := SplitObject(loc)
	s, err := Open(ctx, folder)
	if err != nil {
		return "", err
	}
	defer s.Close()
	if key != "" {
		dst := filepath.Join(dir, key)
		return dst, s.GetFile(ctx, key, dst)
	}
	objs, err := s.List(ctx, "")
	if err != nil {
		return "", err
	}
	for _, o := range objs {
		if suffix != "" && !strings.HasSuffix(o.Key, suffix) {
			continue
		}
		if err := s.GetFile(ctx, o.Key, filepath.Join(dir, filepath.FromSlash(o.Key))); err != nil {
			return "", err
		}
	}
	return dir, nil
}

// Upload copies a local file or folder (recursively) to a location: a
// folder's files keep their relative paths as keys; a file goes under its
// base name. A local location gets a copy too.
func Upload(ctx context.Context, local, loc string) error {
	s, err := Open(ctx, loc)
	if err != nil {
		return err
	}
	defer s.Close()
	fi, err := os.Stat(local)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return s.PutFile(ctx, filepath.Base(local), local)
	}
	return filepath.WalkDir(local, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(local, p)
		if err != nil {
			return err
		}
		return s.PutFile(ctx, filepath.ToSlash(rel), p)
	})
}
