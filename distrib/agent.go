package distrib

import (
	"fmt"
	"strings"
	"sync"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/agents/neural"
	"github.com/gridgym/gridgym/rules"
)

// SamplePrefix makes a bot spec of a weights file that samples from its
// policy and reports log-probabilities and values to self-play
// (selfplay.PolicyReporter): "sample:runs/x/weights.safetensors". Actors play
// with it so that the learner can correct for their lag.
const SamplePrefix = "sample:"

func init() { agents.RegisterResolver(resolveSample) }

var netCache sync.Map // path → *loaded

type loaded struct {
	net *neural.Net
	cfg rules.Config
}

func resolveSample(game, spec string) (agents.Entry, bool, error) {
	path, ok := strings.CutPrefix(spec, SamplePrefix)
	if !ok {
		return agents.Entry{}, false, nil
	}
	var l *loaded
	if v, ok := netCache.Load(game + "\x00" + path); ok {
		l = v.(*loaded)
	} else {
		net, cfg, err := neural.LoadFor(game, path)
		if err != nil {
			return agents.Entry{}, true, err
		}
		l = &loaded{net, cfg}
		netCache.Store(game+"\x00"+path, l)
	}
	return agents.Entry{
		Game: game, Name: spec, Doc: "trained network, sampling, reporting log-probabilities",
		New:    func() agents.Agent { return newSampler(l.net, l.cfg) },
		Params: l.cfg.CarriedParams(),
	}, true, nil
}

// sampler is a neural agent that samples and remembers its last decision's
// log-probability and value.
type sampler struct {
	net     *neural.Net
	enc     rules.Encoder
	seat    int
	rng     *rules.RNG
	w       *neural.Workspace
	planes  []uint8
	scalars []float32
	mask    []uint64
	actions []int32
	logp    float32
	value   float32
	ok      bool
}

func newSampler(net *neural.Net, cfg rules.Config) *sampler {
	enc := cfg.Game().Encoder(cfg)
	sp := enc.Space()
	return &sampler{net: net, enc: enc, w: neural.NewWorkspace(net.Arch, 1), planes: make([]uint8, sp.ObsSize()),
		scalars: make([]float32, sp.Scalars), mask: make([]uint64, sp.MaskWords()), actions: make([]int32, sp.Heads)}
}

func (s *sampler) Reset(_ rules.State, seat int, rng *rules.RNG) { s.seat, s.rng = seat, rng }

func (s *sampler) Act(st rules.State) rules.Move {
	s.enc.Observe(st, s.seat, s.planes, s.scalars)
	s.enc.Mask(st, s.seat, s.mask)
	neural.FillInput(s.net.Arch, s.w.Input, s.planes, s.scalars)
	s.net.Forward(s.w, 1, s.mask, len(s.mask))
	a := s.net.Arch
	lp := 0.0
	for h := 0; h < a.Heads; h++ {
		l := s.w.Logits[h*a.Actions : (h+1)*a.Actions]
		s.actions[h] = int32(neural.SampleLogits(l, s.rng))
		lp += neural.LogProb(l, int(s.actions[h]))
	}
	s.logp, s.value, s.ok = float32(lp), s.w.Value[0], true
	return s.enc.Decode(st, s.seat, s.actions)
}

// LastPolicy implements selfplay.PolicyReporter.
func (s *sampler) LastPolicy() (float32, float32, bool) {
	ok := s.ok
	s.ok = false
	return s.logp, s.value, ok
}

// String is for messages.
func (s *sampler) String() string { return fmt.Sprintf("sampler(%s)", s.net.Arch.Game) }
