package selfplay

import "github.com/gridgym/gridgym/rules"

// PolicyReporter is implemented by agents that act with a learned policy and
// can say, after each Act, the log-probability of the action they took (summed
// over heads) and their value estimate. Self-play writes them into the rows'
// policy_logp and value columns, which a learner needs for off-policy
// corrections (PPO's ratio) and advantage estimation.
type PolicyReporter interface {
	LastPolicy() (logp, value float32, ok bool)
}

// Labeler is implemented by agents that play one move and name another
// as the decision's label (agents.Dagger: the clone plays, the teacher
// labels). Self-play writes the label into the row's action (what
// behaviour cloning learns) and the played move into its Move (what the
// game did), so such shards are imitation data, not a trajectory of the
// actions taken.
type Labeler interface {
	Label() rules.Move
}
