package train

import (
	"bufio"
	"fmt"
	"io"
	"regexp"
	"runtime"
	"strconv"
	"time"

	"github.com/gridgym/gridgym/agents/neural"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/train/graph"
)

// LearnerRates are a network's learner and inference speeds on some cores:
// what `gridgym bench --learner` prints, and what the PyTorch anchor
// (torch_learner.py) prints for the same network.
type LearnerRates struct {
	Cores     int     // cores (GOMAXPROCS) or torch threads
	Train     float64 // PPO minibatch steps of 256, in samples/s
	Forward64 float64 // inference at batch 64, observations/s
	Forward1  float64 // inference at batch 1, observations/s
}

// benchBatch is the minibatch of the measured train step (torch_learner.py's).
const benchBatch = 256

// MeasureLearner times, on cores cores (GOMAXPROCS for the duration), the
// same work as torch_learner.py: one PPO minibatch step of 256 (forward,
// masked log-softmax, clipped policy loss, value loss, entropy, backward,
// gradient clipping at 0.5, Adam) on random inputs, and plain-Go forward
// passes at batch 64 and 1, each for about per. The network's weights are
// trained by the steps: pass a copy to keep them.
func MeasureLearner(net *neural.Net, cores int, per time.Duration) (LearnerRates, error) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(cores))
	r := LearnerRates{Cores: cores}
	gr, err := newGraph(net, benchBatch)
	if err != nil {
		return r, err
	}
	graph.FillRandom(gr, rules.NewRNG(1))
	if err := gr.Coefficients(1, 0.5, 0.01, 0); err != nil {
		return r, err
	}
	// The step PPO takes (update.go): on more than one core the minibatch
	// is split over them (graph.Step).
	st, err := graph.NewStep(gr, net, cores)
	if err != nil {
		return r, err
	}
	opt := newAdam(net)
	step := func() error {
		if err := st.Run(); err != nil {
			return err
		}
		grads, err := st.Grads()
		if err != nil {
			return err
		}
		opt.step(net.Values, grads, 3e-4, 0.5)
		return nil
	}
	if r.Train, err = rate(step, benchBatch, per); err != nil {
		return r, fmt.Errorf("train step: %w", err)
	}
	for _, b := range []int{64, 1} {
		w := neural.NewWorkspace(net.Arch, b)
		rng := rules.NewRNG(2)
		for i := range w.Input {
			if rng.U(10) < 3 {
				w.Input[i] = 1
			}
		}
		v, _ := rate(func() error { net.Forward(w, b, nil, 0); return nil }, b, per)
		if b == 64 {
			r.Forward64 = v
		} else {
			r.Forward1 = v
		}
	}
	return r, nil
}

// rate runs f three times to warm up, then at least once and for about d,
// and returns per·runs / seconds.
func rate(f func() error, per int, d time.Duration) (float64, error) {
	for range 3 {
		if err := f(); err != nil {
			return 0, err
		}
	}
	start, n := time.Now(), 0
	for n == 0 || time.Since(start) < d {
		if err := f(); err != nil {
			return 0, err
		}
		n++
	}
	return float64(n*per) / time.Since(start).Seconds(), nil
}

// torchLine is a figures line of torch_learner.py's output.
var torchLine = regexp.MustCompile(`^threads\s+(\d+):\s+train\s+([0-9.]+)\s+samples/s\s+forward b=64\s+([0-9.]+)\s+obs/s\s+forward b=1\s+([0-9.]+)\s+obs/s\s*$`)

// ParseTorchLearner reads the output of torch_learner.py (saved to a file):
// its header line (returned as is) and one LearnerRates per "threads N:"
// line. Other lines are ignored; no figures line at all is an error.
func ParseTorchLearner(r io.Reader) (header string, rates []LearnerRates, err error) {
	sc := bufio.NewScanner(r)
	line := 0
	for sc.Scan() {
		line++
		s := sc.Text()
		if header == "" && len(s) > 6 && s[:6] == "torch " {
			header = s
			continue
		}
		m := torchLine.FindStringSubmatch(s)
		if m == nil {
			continue
		}
		var lr LearnerRates
		if lr.Cores, err = strconv.Atoi(m[1]); err != nil || lr.Cores < 1 {
			return "", nil, fmt.Errorf("line %d: thread count %q", line, m[1])
		}
		for i, p := range []*float64{&lr.Train, &lr.Forward64, &lr.Forward1} {
			if *p, err = strconv.ParseFloat(m[2+i], 64); err != nil {
				return "", nil, fmt.Errorf("line %d: %w", line, err)
			}
		}
		rates = append(rates, lr)
	}
	if err := sc.Err(); err != nil {
		return "", nil, err
	}
	if len(rates) == 0 {
		return "", nil, fmt.Errorf("no \"threads N: train ... samples/s\" line (is this torch_learner.py's output?)")
	}
	return header, rates, nil
}
