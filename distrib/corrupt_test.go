package distrib_test

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gridgym/gridgym/distrib"
)

// A corrupt shard in the object store (a flipped bit in a record batch
// body: its footer is intact, so it downloads and opens, and only its
// checksum tells) is skipped and logged; the learner learns from the
// others and publishes its version.
func TestLearnerSkipsCorruptShard(t *testing.T) {
	r := newSmallRun(t)
	var mu sync.Mutex
	var logged []string
	r.log = func(f string, a ...any) {
		mu.Lock()
		logged = append(logged, fmt.Sprintf(f, a...))
		mu.Unlock()
	}
	ast := r.act(t)
	shards := r.shards
	var files []string
	filepath.WalkDir(shards, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".arrow") {
			files = append(files, p)
		}
		return nil
	})
	if len(files) != ast.Shards {
		t.Fatalf("%d shard files in %s, the actor says %d", len(files), shards, ast.Shards)
	}
	bad := files[0]
	data, err := os.ReadFile(bad)
	if err != nil {
		t.Fatal(err)
	}
	footer := int(binary.LittleEndian.Uint32(data[len(data)-10:]))
	data[len(data)-10-footer-60] ^= 0x20
	if err := os.WriteFile(bad, data, 0o644); err != nil {
		t.Fatal(err)
	}
	st := r.learner(t, distrib.LearnerConfig{Versions: 1, MinShards: ast.Shards, MaxWait: time.Minute})
	if st.Version != 1 || st.Shards != ast.Shards-1 || st.Dropped != 1 {
		t.Fatalf("learner: %+v, want v1 from %d shards and the corrupt one dropped", st, ast.Shards-1)
	}
	key := filepath.Base(bad)
	found := false
	for _, l := range logged {
		found = found || (strings.Contains(l, "skipping corrupt shard") && strings.Contains(l, key) && strings.Contains(l, "checksum mismatch"))
	}
	if !found {
		t.Errorf("no log line names the corrupt shard %s:\n%s", key, strings.Join(logged, "\n"))
	}
}
