// Package s3test starts a real S3-compatible server on loopback for tests:
// s3rver (npm, version pinned below), installed on first use into the
// repository's git-ignored .cache/s3rver with npm. Tests that need it skip,
// loudly, only where node or npm is absent.
package s3test

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// Version is the s3rver release installed.
const Version = "3.7.1"

// Credentials s3rver accepts by default.
const (
	AccessKey = "S3RVER"
	SecretKey = "S3RVER"
)

// Server is a running s3rver.
type Server struct {
	Endpoint string // http://127.0.0.1:PORT
	Bucket   string
	Dir      string // its data folder
}

// URL returns the s3:// location of prefix in the server's bucket.
func (s *Server) URL(prefix string) string {
	return fmt.Sprintf("s3://%s/%s?endpoint=%s&use_path_style=true&disable_https=true&region=us-east-1",
		s.Bucket, strings.Trim(prefix, "/"), s.Endpoint)
}

// Env is the environment a client process needs (credentials).
func (s *Server) Env() []string {
	return []string{"AWS_ACCESS_KEY_ID=" + AccessKey, "AWS_SECRET_ACCESS_KEY=" + SecretKey, "AWS_REGION=us-east-1",
		"AWS_EC2_METADATA_DISABLED=true"}
}

// SetEnv sets Env in this process for the test's duration.
func (s *Server) SetEnv(t testing.TB) {
	for _, kv := range s.Env() {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
}

var installMu sync.Mutex

// repoRoot finds the module root above the working directory.
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod above the working directory")
		}
		dir = parent
	}
}

// Script returns the path of s3rver's command-line script, installing it
// with npm if needed. Several test binaries (one per package) may install at
// once: each installs into a folder of its own and renames it into place, so
// .cache/s3rver, once it exists, is a complete install; a process that loses
// the race uses the winner's.
func Script(t testing.TB) string {
	t.Helper()
	_, nerr := exec.LookPath("node")
	npm, perr := exec.LookPath("npm")
	if nerr != nil || perr != nil {
		t.Skip("SKIPPING: this test needs node and npm to run a real S3-compatible server (s3rver); install Node.js")
	}
	root, err := repoRoot()
	if err != nil {
		t.Fatal(err)
	}
	prefix := filepath.Join(root, ".cache", "s3rver")
	script := filepath.Join(prefix, "node_modules", "s3rver", "bin", "s3rver.js")
	installMu.Lock()
	defer installMu.Unlock()
	if _, err := os.Stat(script); err == nil {
		return script
	}
	if err := os.MkdirAll(filepath.Dir(prefix), 0o755); err != nil {
		t.Fatal(err)
	}
	tmp, err := os.MkdirTemp(filepath.Dir(prefix), "s3rver-install-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(tmp) // gone after a successful rename; a loser's or a failed install's leftovers
	t.Logf("installing s3rver@%s into %s with npm", Version, prefix)
	cmd := exec.Command(npm, "install", "--no-audit", "--no-fund", "--prefix", tmp, "s3rver@"+Version)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("npm install s3rver@%s: %v\n%s", Version, err, out)
	}
	if _, err := os.Stat(script); err != nil {
		os.RemoveAll(prefix) // an incomplete install of an older scheme, which installed in place
	}
	if err := os.Rename(tmp, prefix); err != nil {
		if _, serr := os.Stat(script); serr != nil { // not another process's finished install
			t.Fatalf("install s3rver into %s: %v", prefix, err)
		}
	}
	if _, err := os.Stat(script); err != nil {
		t.Fatalf("npm installed s3rver but %s is missing: %v", script, err)
	}
	return script
}

var listening = regexp.MustCompile(`listening on ([0-9.]+):([0-9]+)`)

// Start runs s3rver on a free loopback port with one bucket, until the test
// ends.
func Start(t testing.TB) *Server {
	t.Helper()
	script := Script(t)
	dir := t.TempDir()
	const bucket = "gridgym"
	cmd := exec.Command("node", script, "-d", dir, "-a", "127.0.0.1", "-p", "0", "--silent", "--configure-bucket", bucket)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatalf("start s3rver: %v", err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		sent := false
		for sc.Scan() {
			if m := listening.FindStringSubmatch(sc.Text()); m != nil && !sent {
				found <- "http://" + m[1] + ":" + m[2]
				sent = true
			}
		}
		if !sent {
			close(found)
		}
	}()
	select {
	case ep, ok := <-found:
		if !ok {
			t.Fatalf("s3rver exited without listening: %s", stderr.String())
		}
		return &Server{Endpoint: ep, Bucket: bucket, Dir: dir}
	case <-time.After(30 * time.Second):
		t.Fatalf("s3rver did not start in 30 s: %s", stderr.String())
	}
	return nil
}
