package selfplay

// PolicyReporter is implemented by agents that act with a learned policy and
// can say, after each Act, the log-probability of the action they took (summed
// over heads) and their value estimate. Self-play writes them into the rows'
// policy_logp and value columns, which a learner needs for off-policy
// corrections (PPO's ratio) and advantage estimation.
type PolicyReporter interface {
	LastPolicy() (logp, value float32, ok bool)
}
