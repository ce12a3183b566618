package train

import (
	"strings"
	"testing"
)

func TestParseTorchLearner(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		header   string
		want     []LearnerRates
		err      string
	}{
		{name: "two thread counts", in: "torch 1.13.0a0  rising-tide  filters 16 layers 3\n" +
			"threads 1:  train      3113 samples/s   forward b=64     13028 obs/s   forward b=1      790 obs/s\n" +
			"threads 2:  train      4159 samples/s   forward b=64     22060 obs/s   forward b=1      749 obs/s\n",
			header: "torch 1.13.0a0  rising-tide  filters 16 layers 3",
			want:   []LearnerRates{{1, 3113, 13028, 790}, {2, 4159, 22060, 749}}},
		{name: "no header, stray lines", in: "warning: something\nthreads 4:  train 10.5 samples/s   forward b=64 20 obs/s   forward b=1 3 obs/s\n",
			want: []LearnerRates{{4, 10.5, 20, 3}}},
		{name: "empty", in: "", err: "no \"threads N"},
		{name: "other output", in: "usage: torch_learner.py WEIGHTS\n", err: "no \"threads N"},
		{name: "zero threads", in: "threads 0:  train 1 samples/s   forward b=64 1 obs/s   forward b=1 1 obs/s\n", err: "line 1: thread count"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, got, err := ParseTorchLearner(strings.NewReader(tc.in))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one containing %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if h != tc.header {
				t.Errorf("header %q, want %q", h, tc.header)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("%d rates, want %d: %+v", len(got), len(tc.want), got)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("rates %d: %+v, want %+v", i, got[i], tc.want[i])
				}
			}
		})
	}
}

func FuzzParseTorchLearner(f *testing.F) {
	f.Add("threads 1:  train 3113 samples/s   forward b=64 13028 obs/s   forward b=1 790 obs/s\n")
	f.Add("torch x\nthreads 99999999999999999999:  train 1 samples/s   forward b=64 1 obs/s   forward b=1 1 obs/s")
	f.Fuzz(func(t *testing.T, in string) {
		_, rates, err := ParseTorchLearner(strings.NewReader(in))
		if err == nil && len(rates) == 0 {
			t.Fatal("no error and no rates")
		}
		for _, r := range rates {
			if r.Cores < 1 {
				t.Fatalf("cores %d accepted", r.Cores)
			}
		}
	})
}

// MeasureLearner runs the step and both forward passes and reports positive
// rates (a smoke test: a broken graph or a zero rate fails it).
func TestMeasureLearner(t *testing.T) {
	net := testNet(t, "slime", nil, false)
	r, err := MeasureLearner(net, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	if r.Cores != 1 || !(r.Train > 0) || !(r.Forward64 > 0) || !(r.Forward1 > 0) {
		t.Fatalf("rates %+v", r)
	}
}
