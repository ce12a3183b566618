package train

import (
	"strings"
	"testing"

	"github.com/gridgym/gridgym/agents/neural"
)

// A config's play: section is stored in every weights file the run writes
// (the metadata trainer.meta gives each), so that the network is played and
// exported with it by default; no section stores nothing (greedy); a
// temperature out of range is refused. Rectangle's rings preset stores the
// sampled placement its card measured (issue 54).
func TestPlaySectionIsStored(t *testing.T) {
	cfg, err := PresetConfig("rectangle", "rings")
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Play != (PlayConfig{Temperature: 6, Steps: 1}) {
		t.Fatalf("the rings preset's play: %+v, want temperature 6, steps 1", cfg.Play)
	}
	tr := &trainer{cfg: cfg, opt: Options{Dir: "runs/rect-rings"}}
	if p, ok, err := neural.StoredPlay(tr.meta()); !ok || err != nil || p != (neural.Play{Temperature: 6, Steps: 1}) {
		t.Errorf("stored %+v, %v, %v", p, ok, err)
	}
	tr.cfg.Play = PlayConfig{}
	if _, ok := tr.meta()[neural.PlayKey]; ok {
		t.Error("a greedy config stored play settings")
	}
	if _, err := ParseConfig([]byte("game: rectangle\nplay: {temperature: 101}\n"), "my.yaml"); err == nil || !strings.Contains(err.Error(), "play.temperature") {
		t.Errorf("temperature 101: %v", err)
	}
	// The opening (issue 54): stored alone too, and refused where the game has none.
	tr.cfg.Play = PlayConfig{Opening: 8}
	if p, ok, err := neural.StoredPlay(tr.meta()); !ok || err != nil || p != (neural.Play{Opening: 8}) {
		t.Errorf("an opening alone: stored %+v, %v, %v", p, ok, err)
	}
	for _, bad := range []string{"game: rectangle\nplay: {opening: 65}\n", "game: nuggets\nplay: {opening: 8}\n"} {
		if _, err := ParseConfig([]byte(bad), "my.yaml"); err == nil || !strings.Contains(err.Error(), "play.opening") {
			t.Errorf("%q: %v", bad, err)
		}
	}
}
