package neural

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/gridgym/gridgym/internal/inputfile"
)

// Play settings stored with the weights (issue 54).
//
// A network's recommended play settings — Rectangle's shipped network
// places with temp=6:steps=1, because two greedy copies share their
// placement and collapse (play.go) — live in its safetensors metadata
// under PlayKey, so that every command that plays or exports the file by
// its plain name (tournament, play, pipeline, export) plays what was
// measured. Train writes them from its config's play: section; `gridgym
// weights play FILE` reads and rewrites them (WritePlay: the tensors stay
// byte-identical). An explicit setting wins: a spec's temp=, steps= or
// seed= (PlayGiven.Over), export's --temperature/--temp-steps.

// PlayKey is the metadata key of a network's recommended play settings:
// JSON {"temperature": T, "steps": K} (EncodePlay), no seed — copies must
// draw differently, so the seed is the player's (the seat, the game, the
// exported bot's process), never the file's. Absent means greedy.
const PlayKey = "play"

// storedPlay is PlayKey's JSON.
type storedPlay struct {
	Temperature float64 `json:"temperature"`
	Steps       int     `json:"steps,omitempty"`
	Opening     int     `json:"opening,omitempty"`
	Guard       bool    `json:"guard,omitempty"`
}

// EncodePlay returns the PlayKey metadata value of p, its seed left out.
func EncodePlay(p Play) string {
	b, _ := json.Marshal(storedPlay{Temperature: p.Temperature, Steps: p.Steps, Opening: p.Opening, Guard: p.Guard})
	return string(b)
}

// StoredPlay returns the play settings stored in a network's metadata
// (PlayKey); ok is false where none are (the network plays greedy). A
// value out of range or not JSON is an error, not silently greedy.
func StoredPlay(meta map[string]string) (p Play, ok bool, err error) {
	v, has := meta[PlayKey]
	if !has {
		return Play{}, false, nil
	}
	var s storedPlay
	dec := json.NewDecoder(strings.NewReader(v))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return Play{}, false, fmt.Errorf("metadata %s %q: %v", PlayKey, v, err)
	}
	p = Play{Temperature: s.Temperature, Steps: s.Steps, Opening: s.Opening, Guard: s.Guard}
	if err := p.check(); err != nil {
		return Play{}, false, fmt.Errorf("metadata %s %q: %w", PlayKey, v, err)
	}
	return p, true, nil
}

// check refuses settings SplitPlaySpec would refuse.
func (p Play) check() error {
	if !(p.Temperature >= 0 && p.Temperature <= MaxTemperature) {
		return fmt.Errorf("temperature %v: want 0..%d (0 = greedy)", p.Temperature, MaxTemperature)
	}
	if p.Steps < 0 {
		return fmt.Errorf("steps %d: want ≥ 0 (0 = every step)", p.Steps)
	}
	if p.Opening < 0 || p.Opening > MaxOpening {
		return fmt.Errorf("opening %d: want 0..%d (0 = the network places)", p.Opening, MaxOpening)
	}
	return nil
}

// Describe names p in a few words, for tables and notes: "greedy",
// "temp 6", "temp 6, first step", "temp 6, first 3 steps", with ", seed S"
// where a seed is set.
func (p Play) Describe() string {
	s := "greedy"
	if p.Temperature > 0 {
		s = fmt.Sprintf("temp %g", p.Temperature)
		switch {
		case p.Steps == 1:
			s += ", first step"
		case p.Steps > 1:
			s += fmt.Sprintf(", first %d steps", p.Steps)
		}
	}
	if p.Opening > 0 {
		s += fmt.Sprintf(", opening %d", p.Opening)
	}
	if p.Guard {
		s += ", guard"
	}
	if p.Seed != 0 && (p.Temperature > 0 || p.Opening > 0) {
		s += fmt.Sprintf(", seed %d", p.Seed)
	}
	return s
}

// PlayGiven records which settings a weights spec set explicitly
// (SplitPlaySpecGiven), so that they override the stored ones (Over).
type PlayGiven struct{ Temp, Seed, Steps, Opening, Guard bool }

// Any reports whether the spec set any setting.
func (g PlayGiven) Any() bool { return g.Temp || g.Seed || g.Steps || g.Opening || g.Guard }

// Over returns the settings in force for a spec that gave spec's settings
// g over a network that stores stored: an explicit temp= replaces the
// stored sampling whole (temp=T alone samples every step, as it always
// has; temp=0 is greedy); steps= alone keeps the stored temperature with
// other steps; seed= keys the draws either way (stored settings carry no
// seed).
func (g PlayGiven) Over(stored, spec Play) Play {
	p := stored
	p.Seed = 0
	if g.Temp {
		p.Temperature, p.Steps = spec.Temperature, 0
	}
	if g.Steps {
		p.Steps = spec.Steps
	}
	if g.Seed {
		p.Seed = spec.Seed
	}
	if g.Opening {
		p.Opening = spec.Opening
	}
	if g.Guard {
		p.Guard = spec.Guard
	}
	return p
}

// SetMetadata returns the safetensors file b with its metadata edited by
// edit (given a copy it may change, add to or delete from) and everything
// else unchanged: the tensors' header entries and the data section are
// b's own bytes, so the tensors stay byte-identical. A file that is not
// safetensors gets DecodeSafetensors' error.
func SetMetadata(b []byte, edit func(map[string]string)) ([]byte, error) {
	if _, _, err := DecodeSafetensors(b); err != nil {
		return nil, err
	}
	n := binary.LittleEndian.Uint64(b) // DecodeSafetensors checked it
	var header map[string]json.RawMessage
	if err := json.Unmarshal(b[8:8+n], &header); err != nil {
		return nil, corruptf("header: %v", err)
	}
	meta := map[string]string{}
	if r, ok := header["__metadata__"]; ok {
		if err := json.Unmarshal(r, &meta); err != nil {
			return nil, corruptf("metadata: %v", err)
		}
	}
	edit(meta)
	delete(header, "__metadata__")
	if len(meta) > 0 {
		m, err := json.Marshal(meta)
		if err != nil {
			return nil, err
		}
		header["__metadata__"] = m
	}
	h, err := json.Marshal(header)
	if err != nil {
		return nil, err
	}
	for len(h)%8 != 0 { // as EncodeSafetensors pads it
		h = append(h, ' ')
	}
	out := make([]byte, 8, 8+len(h)+len(b)-8-int(n))
	binary.LittleEndian.PutUint64(out, uint64(len(h)))
	out = append(append(out, h...), b[8+n:]...)
	return out, nil
}

// ReadPlay returns the play settings stored in the weights file path
// (StoredPlay); ok is false where it stores none.
func ReadPlay(path string) (p Play, ok bool, err error) {
	_, meta, err := Load(path)
	if err != nil {
		return Play{}, false, err
	}
	p, ok, err = StoredPlay(meta)
	if err != nil {
		return Play{}, false, fmt.Errorf("%s: %w", path, err)
	}
	return p, ok, nil
}

// WritePlay stores p as the weights file path's play settings (PlayKey),
// or with nothing to store (Play.Stores: greedy, no opening, no guard)
// removes them; p's seed is not stored.
// The file is rewritten atomically (a reader sees the old file or the
// new, never a mix) and its tensors stay byte-identical (SetMetadata). It
// refuses a file that is not a gridgym network.
func WritePlay(path string, p Play) error {
	if err := p.check(); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	b, err := readWeights(path)
	if err != nil {
		return err
	}
	if _, _, err := Decode(b); err != nil {
		return InFile(path, err)
	}
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	out, err := SetMetadata(b, func(m map[string]string) {
		if p.Stores() {
			m[PlayKey] = EncodePlay(p)
		} else {
			delete(m, PlayKey)
		}
	})
	if err != nil {
		return InFile(path, err)
	}
	if bytes.Equal(out, b) {
		return nil
	}
	if err := WriteFileAtomic(path, out); err != nil {
		return err
	}
	return os.Chmod(path, st.Mode().Perm()) // keep the file's own mode
}

// readWeights reads a weights file, refusing a named pipe or other
// non-regular file before it is opened (internal/inputfile).
func readWeights(path string) ([]byte, error) {
	if _, err := inputfile.Check(path); err != nil {
		return nil, err
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("load weights: %w", err)
	}
	return b, nil
}

// Settings are the play settings a weights spec is played with and where
// they came from (SpecSettings).
type Settings struct {
	Play      Play      // in force
	Stored    Play      // stored in the weights (PlayKey), if HasStored
	HasStored bool      // the weights store settings
	Given     PlayGiven // which of Play the spec set itself
}

// FromWeights reports whether the settings in force are the stored ones,
// untouched by the spec.
func (s Settings) FromWeights() bool { return s.HasStored && !s.Given.Any() }

// Note says in a few words what a network plays with and why, for the
// tables of tournament and play: "temp 6, first step, stored in its
// weights", "greedy, the spec's over its weights' temp 6, first step",
// "temp 2, from the spec"; "greedy" for a network with neither.
func (s Settings) Note() string {
	d := s.Play.Describe()
	switch {
	case s.FromWeights():
		return d + ", stored in its weights"
	case s.HasStored:
		return fmt.Sprintf("%s, the spec's over its weights' %s", d, s.Stored.Describe())
	case s.Given.Any():
		return d + ", from the spec"
	}
	return d
}

// Notable reports whether Note says more than "greedy": settings were
// stored or given.
func (s Settings) Notable() bool { return s.HasStored || s.Given.Any() }

// SpecSettings returns the settings a weights spec (FILE[:temp=T][:seed=S]
// [:steps=K], a run folder too) is played with by the resolver; ok is
// false for a spec that names no weights (a registered bot, py:…).
func SpecSettings(spec string) (s Settings, ok bool, err error) {
	base, p, given, err := SplitPlaySpecGiven(spec)
	if err != nil {
		return Settings{}, true, err
	}
	path, ok, err := WeightsPath(base)
	if !ok || err != nil {
		return Settings{}, ok, err
	}
	stored, has, err := ReadPlay(path)
	if err != nil {
		return Settings{}, true, err
	}
	return Settings{Play: given.Over(stored, p), Stored: stored, HasStored: has, Given: given}, true, nil
}
