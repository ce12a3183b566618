package distrib_test

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gridgym/gridgym/datasets"
	"github.com/gridgym/gridgym/distrib"
	_ "github.com/gridgym/gridgym/games"
	"github.com/gridgym/gridgym/internal/s3test"
	"github.com/gridgym/gridgym/store"
)

// proc is a gridgym process whose output is collected.
type proc struct {
	name string
	cmd  *exec.Cmd
	mu   sync.Mutex
	out  strings.Builder
	line chan string // stdout lines
	done chan struct{}
}

func start(t *testing.T, bin, name string, env []string, args ...string) *proc {
	t.Helper()
	p := &proc{name: name, cmd: exec.Command(bin, args...), line: make(chan string, 1024), done: make(chan struct{})}
	p.cmd.Env = append(os.Environ(), env...)
	stdout, err := p.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	p.cmd.Stderr = writerFunc(func(b []byte) (int, error) {
		p.mu.Lock()
		defer p.mu.Unlock()
		return p.out.Write(b)
	})
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			p.mu.Lock()
			p.out.WriteString(sc.Text() + "\n")
			p.mu.Unlock()
			select {
			case p.line <- sc.Text():
			default:
			}
		}
	}()
	go func() { p.cmd.Wait(); close(p.done) }()
	t.Cleanup(func() {
		select {
		case <-p.done:
		default:
			p.cmd.Process.Kill()
			<-p.done
		}
		if t.Failed() {
			t.Logf("--- %s output:\n%s", p.name, p.output())
		}
	})
	return p
}

func (p *proc) output() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.out.String()
}

// stop sends SIGTERM and waits for a clean exit.
func (p *proc) stop(t *testing.T, within time.Duration) {
	t.Helper()
	p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(within):
		t.Fatalf("%s did not stop within %s after SIGTERM", p.name, within)
	}
	if !p.cmd.ProcessState.Success() {
		t.Fatalf("%s exited with %v:\n%s", p.name, p.cmd.ProcessState, p.output())
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(b []byte) (int, error) { return f(b) }

// buildGridgym builds the command into dir.
func buildGridgym(t *testing.T, dir string) string {
	t.Helper()
	bin := filepath.Join(dir, "gridgym")
	cmd := exec.Command("go", "build", "-o", bin, "github.com/gridgym/gridgym/cmd/gridgym")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// waitFor polls cond until it holds or the deadline passes.
func waitFor(t *testing.T, what string, d time.Duration, cond func() bool) {
	t.Helper()
	end := time.Now().Add(d)
	for !cond() {
		if time.Now().After(end) {
			t.Fatalf("timed out after %s waiting for %s", d, what)
		}
		time.Sleep(300 * time.Millisecond)
	}
}

// TestDistributed runs a learner and two actors as separate processes
// against a real S3-compatible server (s3rver) on loopback: shards arrive,
// weights are published and picked up, and killing an actor in the middle of
// an upload loses nothing committed and leaves no partial object.
func TestDistributed(t *testing.T) {
	if testing.Short() {
		t.Skip("starts an S3 server and three processes")
	}
	t0 := time.Now()
	srv := s3test.Start(t)
	srv.SetEnv(t)
	tmp := t.TempDir()
	bin := buildGridgym(t, tmp)
	t.Logf("server up and gridgym built in %.1fs", time.Since(t0).Seconds())

	// A tiny network and short PPO updates keep the run short.
	cfg := filepath.Join(tmp, "tiny.yaml")
	os.WriteFile(cfg, []byte("game: slime\nnetwork: {filters: 8, layers: 1, hidden: 8}\nppo: {epochs: 1, minibatch: 64}\n"), 0o644)
	pubURL, shardURL := srv.URL("run/pub"), srv.URL("run/shards")
	env := srv.Env()
	learner := start(t, bin, "learner", env, "train", "--config", cfg, "--from-shards", shardURL, "--publish", pubURL,
		"--min-shards", "2", "--max-wait", "3s", "--minutes", "3")
	actorArgs := func(id string) []string {
		return []string{"selfplay", "--game", "slime", "--weights", pubURL, "--out", shardURL, "--actor-id", id,
			"--steps", "0", "--round-steps", "300", "--envs", "4", "--max-episode", "40", "--workers", "1", "--seed", "7"}
	}
	a1 := start(t, bin, "actor a1", env, actorArgs("a1")...)
	// a2's third upload stalls half-way: it is killed there.
	a2 := start(t, bin, "actor a2", append(env, "GRIDGYM_TEST_UPLOAD_STALL=3:60s"), actorArgs("a2")...)

	ctx := context.Background()
	shards, err := store.Open(ctx, shardURL)
	if err != nil {
		t.Fatal(err)
	}
	defer shards.Close()
	pub, err := store.Open(ctx, pubURL)
	if err != nil {
		t.Fatal(err)
	}
	defer pub.Close()
	keys := func(sub string) map[string]bool {
		objs, err := shards.List(ctx, "")
		if err != nil {
			t.Fatal(err)
		}
		m := map[string]bool{}
		for _, o := range objs {
			if strings.Contains(o.Key, sub) {
				m[o.Key] = true
			}
		}
		return m
	}

	// Kill a2 mid-upload.
	var stalled string
	select {
	case <-a2.done:
		t.Fatalf("actor a2 exited early:\n%s", a2.output())
	case <-time.After(60 * time.Second):
		t.Fatalf("actor a2 never reached its stalled upload:\n%s", a2.output())
	case l := <-waitLine(a2, "upload-stall "):
		stalled = strings.TrimPrefix(l, "upload-stall ")
	}
	committed := keys("/a2-")
	if len(committed) != 2 {
		t.Fatalf("a2 committed %d shards before its third upload, want 2: %v", len(committed), committed)
	}
	a2.cmd.Process.Signal(syscall.SIGKILL)
	<-a2.done
	t.Logf("a2 killed mid-upload of %s at %.1fs", stalled, time.Since(t0).Seconds())
	if ok, err := shards.Exists(ctx, stalled); err != nil || ok {
		t.Fatalf("the killed upload %s exists (%v, %v)", stalled, ok, err)
	}

	// The learner publishes new versions and a1 plays them.
	waitFor(t, "learner to publish v2 and a1 to upload shards of v≥1", 75*time.Second, func() bool {
		p, ok, err := pub.Latest(ctx)
		if err != nil || !ok || p.Version < 2 {
			return false
		}
		for k := range keys("/a1-") {
			if v, _ := distrib.ShardVersion(k); v >= 1 {
				return true
			}
		}
		return false
	})
	learner.stop(t, 60*time.Second)
	a1.stop(t, 30*time.Second)
	t.Logf("learner and a1 stopped at %.1fs", time.Since(t0).Seconds())

	// Nothing a2 committed was lost, its torn upload never appeared, and
	// every shard under a final key is complete and valid.
	after := keys("")
	for k := range committed {
		if !after[k] {
			t.Errorf("committed shard %s lost", k)
		}
	}
	if after[stalled] {
		t.Errorf("torn upload %s appeared", stalled)
	}
	dir := t.TempDir()
	local, err := store.Download(ctx, shardURL, dir, ".arrow")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for k := range after {
		if _, ok := distrib.ShardVersion(k); !ok {
			t.Errorf("shard key %s has no policy version", k)
		}
		rep, err := datasets.Validate(filepath.Join(local, filepath.FromSlash(k)))
		if err != nil {
			t.Fatalf("validate %s: %v", k, err)
		}
		if len(rep.Problems) > 0 {
			t.Errorf("%s: %v", k, rep.Problems)
		}
		n++
	}
	p, _, _ := pub.Latest(ctx)
	if _, err := pub.FetchWeights(ctx, p); err != nil {
		t.Fatal(err)
	}
	csv, err := pub.Get(ctx, "learner.csv")
	if err != nil || strings.Count(string(csv), "\n") < 3 {
		t.Fatalf("learner.csv: %q %v", csv, err)
	}
	if !strings.Contains(a1.output(), "policy v000001") && !strings.Contains(a1.output(), "policy v000002") {
		t.Errorf("a1 never picked up a new policy:\n%s", a1.output())
	}
	t.Logf("%d shards valid, weights at v%06d; total %.1fs", n, p.Version, time.Since(t0).Seconds())
}

// waitLine returns a channel that gets p's first stdout line with prefix.
func waitLine(p *proc, prefix string) <-chan string {
	c := make(chan string, 1)
	go func() {
		for l := range p.line {
			if strings.HasPrefix(l, prefix) {
				c <- l
				return
			}
		}
	}()
	return c
}
