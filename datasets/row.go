package datasets

import (
	"time"

	"github.com/gridgym/gridgym/rules"
)

// SchemaVersion is written into every shard's metadata; readers refuse
// shards of a newer version.
const SchemaVersion = 1

// Row is one (env step, seat) of a trajectory.
type Row struct {
	EpisodeID uint64     // unique within the run
	Step      int32      // step index within the episode, from 0
	Seat      uint8      // the seat this row belongs to
	State     []uint64   // the compact state words before the step (rules.State.AppendWords)
	Action    []int32    // the encoder's action per head; −1 = none (seat not active, or a move outside the action space)
	Move      rules.Move // the real move the seat played (Pass when not active)
	Legal     []uint64   // the seat's legal-action mask before the step (encoder bitset)
	Reward    float32    // reward received for this step
	Done      bool       // the episode ended by the rules at this step
	Truncated bool       // the episode was cut at this step
	HasPolicy bool       // LogP and Value are set (a learned policy acted)
	LogP      float32    // log-probability of Action under the acting policy
	Value     float32    // the acting policy's value estimate
	Agent     string     // the agent playing the seat
}

// Meta is a shard's file metadata.
type Meta struct {
	SchemaVersion int
	RunID         string
	Game          string   // registry name
	Params        string   // rules.Config.String()
	Seed          uint64   // the run's master seed
	Agents        []string // every agent name that plays in the run
	CodeVersion   string   // module version or VCS revision of the writer
	StateWords    int      // length of Row.State
	MaskWords     int      // length of Row.Legal
	Heads         int      // length of Row.Action
	Reward        string   // reward mode ("rank" or "score")
	Created       time.Time
}
