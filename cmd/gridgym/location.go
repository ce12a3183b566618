package main

// Locations. Every command that reads or writes shards, weights, run
// folders, reports or replays takes a location for them: a plain path, a
// file:// URL or an s3:// URL (package store). One mechanism serves them
// all:
//
//   - inputs are fetched into a temporary folder (store.Fetch) and read
//     there by the unchanged local code;
//   - outputs are written into a local staging folder and uploaded object
//     by object, each upload atomic (store.Stage, store.Mirror);
//   - bot specs that are URLs (a .safetensors object or a training run
//     folder's prefix) are resolved by resolveURL, registered with
//     agents.RegisterResolver, so that every command taking bots (play,
//     tournament, selfplay --agents, a train config's opponents and
//     baselines) accepts them.
//
// Temporary folders are removed when the command ends (removeTemps).

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/agents/neural"
	"github.com/gridgym/gridgym/internal/inputfile"
	"github.com/gridgym/gridgym/store"
)

var temps struct {
	sync.Mutex
	cleanups []func()
}

// atExit registers a cleanup for removeTemps.
func atExit(f func()) {
	temps.Lock()
	defer temps.Unlock()
	temps.cleanups = append(temps.cleanups, f)
}

// removeTemps removes the temporary folders of fetched inputs and staged
// outputs (main calls it when the command ends).
func removeTemps() {
	temps.Lock()
	defer temps.Unlock()
	for _, f := range temps.cleanups {
		f()
	}
	temps.cleanups = nil
	fetched.Clear() // its copies are gone
}

// localInput returns a local path for an input location: itself when local,
// else a temporary copy of the object, or of every object under the prefix
// whose key ends in suffix ("" for all). The copy is removed by cleanup, or
// at the latest when the command ends.
func localInput(loc, suffix string) (path string, cleanup func(), err error) {
	p, cleanup, err := store.Fetch(context.Background(), loc, suffix)
	if err != nil {
		return "", nil, err
	}
	once := sync.OnceFunc(cleanup)
	atExit(once)
	// A named pipe, socket or device would hang or feed its reader: only a
	// regular file or a folder (whose files its reader checks) is an input.
	if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
		if _, err := inputfile.Check(p); err != nil {
			once()
			return "", nil, err
		}
	}
	return p, once, nil
}

// output is an output location and the local folder written for it.
type output struct {
	loc    string
	dir    string // the folder to write into
	mirror *store.Mirror
	keep   bool // a failed upload keeps the staging folder
}

// openOutput prepares the output location loc: a local one is written in
// place; a remote one is staged in a temporary folder that sync uploads.
// last names relative paths to upload after all others (pointers).
func openOutput(loc string, last ...string) (*output, error) {
	dir, m, cleanup, err := store.Stage(loc)
	if err != nil {
		return nil, usagef("%s: %v", store.Redact(loc), err)
	}
	if m != nil {
		m.Last = last
	}
	o := &output{loc: loc, dir: dir, mirror: m}
	atExit(func() {
		if !o.keep {
			cleanup()
		}
	})
	return o, nil
}

// remote reports whether the output is uploaded (not written in place).
func (o *output) remote() bool { return o.mirror != nil }

// sync uploads what changed in the staging folder since the last sync.
// Uploads outlive an interrupted command's context.
func (o *output) sync(ctx context.Context) error {
	_, err := o.mirror.Sync(context.WithoutCancel(ctx))
	return err
}

// finish uploads what is left; when the upload fails the staging folder is
// kept (not removed at exit), and the error says where it is.
func (o *output) finish(ctx context.Context) error {
	if err := o.sync(ctx); err != nil {
		o.keep = true
		return fmt.Errorf("%w (the output is kept in %s)", err, o.dir)
	}
	return nil
}

// show names a path under the output folder as the user should see it: the
// path itself for a local output, its URL for a remote one.
func (o *output) show(p string) string {
	if !o.remote() || p == "" {
		return p
	}
	rel, err := filepath.Rel(o.dir, p)
	if err != nil || strings.HasPrefix(rel, "..") {
		return p
	}
	if rel == "." {
		rel = ""
	}
	return store.Redact(store.Join(o.loc, filepath.ToSlash(rel)))
}

func init() { agents.RegisterResolver(resolveURL) }

// fetched caches fetchBot's downloads: a spec is downloaded once per
// process however often it is looked up.
var fetched sync.Map // spec → *fetchedBot

type fetchedBot struct {
	once sync.Once
	path string
	err  error
}

// fetchBot returns a local weights file or run folder for a bot spec: the
// spec itself unless it is a URL; for a file:// URL its path; for another
// URL a temporary copy of the .safetensors object it names, or of the
// policy of the training run folder at that prefix: its best.safetensors,
// else its latest checkpoint's weights (the objects latest and
// checkpoints/NAME/weights.safetensors), laid out as a run folder that
// neural.WeightsPath reads.
func fetchBot(spec string) (string, error) {
	if !store.IsURL(spec) {
		return spec, nil
	}
	if p, ok := store.LocalPath(spec); ok {
		return p, nil
	}
	v, _ := fetched.LoadOrStore(spec, &fetchedBot{})
	f := v.(*fetchedBot)
	f.once.Do(func() { f.path, f.err = downloadBot(context.Background(), spec) })
	return f.path, f.err
}

// weightsOf resolves a weights spec: a .safetensors file, a training run
// folder, or the URL of either (fetchBot), to the weights file it means,
// through neural.WeightsPath (a run folder's best.safetensors where
// training wrote one, else its latest checkpoint), the one resolution
// that export, bench --weights and every bot list share. For a run folder
// it notes on w (nil: nowhere) which file it chose. ok is false when spec
// names neither kind (a registered bot's name); a spec that looks like one
// but is not is a usage error.
func weightsOf(w io.Writer, spec string) (path string, ok bool, err error) {
	local, err := fetchBot(spec)
	if err != nil {
		return "", true, err
	}
	path, ok, err = neural.WeightsPath(local)
	if err != nil {
		return "", true, usageError{err}
	}
	if ok {
		if _, err := inputfile.Check(path); err != nil { // a named pipe would hang the loader
			return "", true, err
		}
	}
	if ok && path != local && w != nil {
		fmt.Fprintf(w, "note: run folder %s: %s\n", store.Redact(spec), runWeightsNote(local, path))
	}
	return path, ok, nil
}

// runWeightsNote says which file of the run folder dir path is, and why.
func runWeightsNote(dir, path string) string {
	rel, err := filepath.Rel(dir, path)
	if err != nil {
		rel = path
	}
	if filepath.Base(path) == "best.safetensors" {
		return "using " + rel + ", the policy of its best evaluation"
	}
	return "using " + rel + ", its latest checkpoint (it has no best.safetensors)"
}

func downloadBot(ctx context.Context, spec string) (string, error) {
	if _, key := store.SplitObject(spec); key != "" {
		if !strings.HasSuffix(key, ".safetensors") {
			return "", fmt.Errorf("bot %s: neither a .safetensors object nor a training run folder", store.Redact(spec))
		}
		p, _, err := localInput(spec, "")
		if err != nil {
			return "", fmt.Errorf("bot: %w", err)
		}
		return p, nil
	}
	fail := func(err error) (string, error) {
		return "", fmt.Errorf("bot %s: %w", store.Redact(spec), err)
	}
	s, err := store.Open(ctx, spec)
	if err != nil {
		return fail(err)
	}
	defer s.Close()
	tmp, err := os.MkdirTemp("", "gridgym-bot-")
	if err != nil {
		return fail(err)
	}
	atExit(func() { os.RemoveAll(tmp) })
	run := filepath.Join(tmp, store.Base(spec))
	if store.Base(spec) == "" {
		run = filepath.Join(tmp, "run")
	}
	// The policy training pointed to (neural.RunFolderWeights' order).
	if err := s.GetFile(ctx, "best.safetensors", filepath.Join(run, "best.safetensors")); err == nil {
		return run, nil
	} else if !store.IsNotFound(err) {
		return fail(err)
	}
	b, err := s.Get(ctx, "latest")
	if store.IsNotFound(err) {
		return fail(fmt.Errorf("neither a .safetensors object nor a training run folder (no object %q under it)", "latest"))
	} else if err != nil {
		return fail(err)
	}
	name := strings.TrimSpace(string(b))
	if name == "" || strings.ContainsAny(name, `/\`) || strings.HasPrefix(name, ".") {
		return fail(fmt.Errorf("object latest: %q is not a checkpoint name", name))
	}
	key := "checkpoints/" + name + "/weights.safetensors"
	if err := s.GetFile(ctx, key, filepath.Join(run, filepath.FromSlash(key))); err != nil {
		return fail(err)
	}
	if err := os.WriteFile(filepath.Join(run, "latest"), b, 0o644); err != nil {
		return fail(err)
	}
	return run, nil
}

// resolveURL makes URLs of weights and run folders usable wherever a bot
// name is: it fetches them (fetchBot) and lets package neural's resolver
// load the local copy; the entry keeps the URL as its name.
func resolveURL(game, spec string) (agents.Entry, bool, error) {
	if !store.IsURL(spec) {
		return agents.Entry{}, false, nil
	}
	p, err := fetchBot(spec)
	if err != nil {
		return agents.Entry{}, true, err
	}
	if _, ok, err := neural.WeightsPath(p); !ok || err != nil {
		if err == nil {
			err = fmt.Errorf("neither a .safetensors file, a checkpoint folder nor a training run folder")
		}
		return agents.Entry{}, true, fmt.Errorf("bot %s: %w", store.Redact(spec), err)
	}
	e, err := agents.Lookup(game, p)
	if err != nil {
		return agents.Entry{}, true, fmt.Errorf("bot %s: %w", store.Redact(spec), err)
	}
	e.Name = spec
	return e, true, nil
}
