package main

import (
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/spf13/cobra"

	"github.com/gridgym/gridgym/agents/neural"
)

// newWeightsAverageCmd is `gridgym weights average`: checkpoint averaging
// (neural.Average) of networks of one architecture and one game setting,
// written as one weights file that every command plays and exports like
// any other.
func newWeightsAverageCmd() *cobra.Command {
	var out string
	var coef []float64
	c := &cobra.Command{
		Use:   "average FILE FILE... --out FILE",
		Short: "Write the parameter-wise mean of networks of one architecture",
		Long: `Write the network whose every parameter is the mean of the given networks'
(checkpoint averaging, "model soups"), for networks fine-tuned from one
start: a run's last checkpoints, the stages of a fine-tuning chain. In
Slime the mean of three fine-tuning stages beat the held-out bots and was
harder to exploit than each stage (reports/slime/finetune); in Nuggets
means across seeds did no better than one checkpoint
(reports/nuggets/finetune). Measure the mean (tournament, exploit) before
shipping it; networks trained apart have no useful mean.

The networks must have one architecture and be trained on the same game
parameters. --coef gives their weights (default equal; normalised to sum
1). The metadata is the first file's (its game parameters and play
settings), without its run, iteration and seed, and with "averaged": the
files and weights it came from. A run folder means the file it plays
(its best.safetensors, else its latest checkpoint); a checkpoint folder
means its weights.safetensors.`,
		Example: `  gridgym weights average runs/ft/checkpoints/iter-000050 runs/ft/checkpoints/iter-000060 --out soup.safetensors
  gridgym weights average stage2.safetensors stage3.safetensors --coef 1,2 --out mix.safetensors`,
		Args: cobra.MinimumNArgs(2),
		RunE: func(c *cobra.Command, args []string) error {
			if out == "" {
				return usagef("--out FILE: where to write the mean")
			}
			if coef != nil && len(coef) != len(args) {
				return usagef("--coef gives %d weights for %d networks", len(coef), len(args))
			}
			nets := make([]*neural.Net, len(args))
			var meta map[string]string
			var params map[string]string
			type source struct {
				File   string  `json:"file"`
				Weight float64 `json:"weight"`
			}
			from := make([]source, len(args))
			for i, a := range args {
				path, err := weightsFileOf(c, a)
				if err != nil {
					return err
				}
				net, m, err := neural.Load(path)
				if err != nil {
					return usageError{err}
				}
				p, err := gameParams(m)
				if err != nil {
					return usageError{fmt.Errorf("%s: %w", path, err)}
				}
				if i == 0 {
					meta, params = m, p
				} else if net.Arch.Game != nets[0].Arch.Game {
					return usagef("%s is a %s network, %s a %s one: they have no mean", path, net.Arch.Game, from[0].File, nets[0].Arch.Game)
				} else if !reflect.DeepEqual(p, params) {
					return usagef("%s was trained on game parameters %v, %s on %v: their mean plays neither", path, p, from[0].File, params)
				}
				nets[i] = net
				from[i] = source{File: path, Weight: 1}
				if coef != nil {
					from[i].Weight = coef[i]
				}
			}
			mean, err := neural.Average(nets, coef)
			if err != nil {
				return usageError{err}
			}
			for _, k := range []string{"run", "iteration", "seed", "created", "arch", "game", "encoding", "format"} {
				delete(meta, k) // Save writes the architecture's own
			}
			b, _ := json.Marshal(from)
			meta["averaged"] = string(b)
			if err := mean.Save(out, meta); err != nil {
				return err
			}
			play := "greedy"
			if p, ok, err := neural.StoredPlay(meta); err == nil && ok {
				play = p.Describe()
			}
			fmt.Fprintf(c.OutOrStdout(), "%s: the mean of %d %s networks (%s); plays %s, as %s stored\n",
				out, len(nets), nets[0].Arch.Game, describeCoef(coef), play, from[0].File)
			return nil
		},
	}
	c.Flags().StringVar(&out, "out", "", "the weights file to write (required)")
	c.Flags().Float64SliceVar(&coef, "coef", nil, "the networks' weights, in order (default equal), e.g. 1,2")
	return c
}

// gameParams is a weights file's game parameters (its metadata "params"),
// none stored and an empty set alike.
func gameParams(meta map[string]string) (map[string]string, error) {
	p := map[string]string{}
	if s := meta["params"]; s != "" && s != "null" {
		if err := json.Unmarshal([]byte(s), &p); err != nil {
			return nil, fmt.Errorf("metadata params %q: %v", s, err)
		}
	}
	return p, nil
}

// describeCoef says how the networks were weighed.
func describeCoef(coef []float64) string {
	if coef == nil {
		return "equal weights"
	}
	return fmt.Sprintf("weights %v", coef)
}
