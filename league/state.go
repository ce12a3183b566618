package league

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/gridgym/gridgym/agents/neural"
	"github.com/gridgym/gridgym/internal/inputfile"
)

// The roles of the league's players (Learner.Role, Member.Role).
const (
	// RoleMain is a main agent: trains against a PFSP mixture of the
	// whole pool and itself; never reset. Its weights are the league's
	// product.
	RoleMain = "main"
	// RoleMainExploiter trains against the current main agent alone, to
	// find its weaknesses; reset when it succeeds or after its budget.
	RoleMainExploiter = "main-exploiter"
	// RoleLeagueExploiter trains against the whole pool with PFSP, to find
	// what no player of the league handles; now and then reset.
	RoleLeagueExploiter = "league-exploiter"
	// RoleScripted is a scripted bot of the base config's opponents: a
	// permanent pool member.
	RoleScripted = "scripted"
	// RoleInitial is the initial network every learner starts from: the
	// pool's first snapshot.
	RoleInitial = "initial"
)

// InitialName is the initial network's member name.
const InitialName = "initial"

// Learner is a player that trains every round.
type Learner struct {
	Name string `json:"name"` // main, main-2, main-exploiter, league-exploiter, …
	Role string `json:"role"`
	// Weights is its current network, relative to the league folder.
	Weights string `json:"weights"`
	// Iterations counts its PPO iterations since its last reset; Since
	// its rounds since then; Resets its resets; Snapshots the members
	// frozen from it.
	Iterations int `json:"iterations"`
	Since      int `json:"rounds_since_reset"`
	Resets     int `json:"resets"`
	Snapshots  int `json:"snapshots"`
	// Target is a main exploiter's main agent (its name).
	Target string `json:"target,omitempty"`
	// Optim is the checkpoint folder of its last round's run, relative to
	// the league folder, whose optimiser state (Adam's moments) its next
	// round continues; "" after a reset, before its first round and with
	// Settings.RestartOptimizer.
	Optim string `json:"optim,omitempty"`
}

// Member is a frozen player of the pool.
type Member struct {
	Name string `json:"name"` // main-r0004, initial, or a scripted bot's name
	Role string `json:"role"` // the role it was frozen from, RoleInitial or RoleScripted
	// Weights is its network, relative to the league folder; "" for a
	// scripted bot, whose Bot names it.
	Weights string `json:"weights,omitempty"`
	Bot     string `json:"bot,omitempty"`
	Round   int    `json:"round"` // the round it joined (0: at the start)
}

// CurvePoint is one evaluation of the learning curve: the first main agent
// against Bot after Round, the mean competition scores a seat and the
// margin's 95% interval.
type CurvePoint struct {
	Round     int     `json:"round"`
	Minutes   float64 `json:"minutes"`
	Bot       string  `json:"bot"`
	Games     int     `json:"games"`
	Main      float64 `json:"main_score"`
	Opponent  float64 `json:"bot_score"`
	Margin    float64 `json:"margin"`
	MarginLo  float64 `json:"margin_lo"`
	MarginHi  float64 `json:"margin_hi"`
	ScoreName string  `json:"score"`
}

// State is league.json: everything a resume needs. It is written
// atomically after every round, so a killed league resumes from the last
// finished one.
type State struct {
	Version  int          `json:"version"`
	Game     string       `json:"game"`
	Settings Settings     `json:"settings"`
	Round    int          `json:"round"`     // rounds finished
	ElapsedS float64      `json:"elapsed_s"` // wall time of the finished rounds
	Learners []Learner    `json:"learners"`
	Members  []Member     `json:"members"`
	Payoff   Payoff       `json:"payoff"`
	Curve    []CurvePoint `json:"curve,omitempty"`
}

// stateVersion is the version of league.json's layout.
const stateVersion = 1

// StateFile is the league folder's state file.
const StateFile = "league.json"

// maxStateBytes bounds league.json when it is read back.
const maxStateBytes = 64 << 20

// save writes the state to dir/league.json atomically.
func (s *State) save(dir string) error {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return fmt.Errorf("league state: %w", err)
	}
	if err := neural.WriteFileAtomic(filepath.Join(dir, StateFile), append(b, '\n')); err != nil {
		return fmt.Errorf("league state: %w", err)
	}
	return nil
}

// loadState reads dir/league.json.
func loadState(dir string) (*State, error) {
	b, err := inputfile.ReadFile(filepath.Join(dir, StateFile), maxStateBytes, "a league state")
	if err != nil {
		return nil, err
	}
	var s State
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, StateFile), err)
	}
	if s.Version != stateVersion {
		return nil, fmt.Errorf("%s: version %d, want %d", filepath.Join(dir, StateFile), s.Version, stateVersion)
	}
	if s.Payoff == nil {
		s.Payoff = Payoff{}
	}
	return &s, nil
}

// Exists says whether dir holds a league (its league.json): Open resumes
// it rather than creating one.
func Exists(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, StateFile))
	return err == nil
}

// learner returns the learner named name.
func (s *State) learner(name string) *Learner {
	for i := range s.Learners {
		if s.Learners[i].Name == name {
			return &s.Learners[i]
		}
	}
	return nil
}

// memberNames lists the pool's members in pool order.
func (s *State) memberNames() []string {
	names := make([]string, len(s.Members))
	for i, m := range s.Members {
		names[i] = m.Name
	}
	return names
}

// member returns the member named name.
func (s *State) member(name string) *Member {
	for i := range s.Members {
		if s.Members[i].Name == name {
			return &s.Members[i]
		}
	}
	return nil
}
