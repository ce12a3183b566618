package neural

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
)

// Average returns the network whose every parameter is the weighted mean
// of the nets' (coef[i] / Σ coef), in float64 and rounded once: checkpoint
// averaging ("model soups", stochastic weight averaging), for networks
// fine-tuned from one start (issue 54: in Slime the mean of three
// fine-tuning stages was harder to exploit than each); nets of different
// architectures have no mean and are refused. coef nil weighs
// them equally; a weight must be finite and ≥ 0, and their sum > 0.
func Average(nets []*Net, coef []float64) (*Net, error) {
	if len(nets) == 0 {
		return nil, fmt.Errorf("average: no networks")
	}
	if coef == nil {
		coef = make([]float64, len(nets))
		for i := range coef {
			coef[i] = 1
		}
	}
	if len(coef) != len(nets) {
		return nil, fmt.Errorf("average: %d weights for %d networks", len(coef), len(nets))
	}
	sum := 0.0
	for i, c := range coef {
		if !(c >= 0) || math.IsInf(c, 1) {
			return nil, fmt.Errorf("average: weight %d is %g: want a finite number ≥ 0", i+1, c)
		}
		sum += c
	}
	if !(sum > 0) {
		return nil, fmt.Errorf("average: the weights add up to 0")
	}
	for i, n := range nets[1:] {
		if !reflect.DeepEqual(n.Arch, nets[0].Arch) {
			a, _ := json.Marshal(n.Arch)
			b, _ := json.Marshal(nets[0].Arch)
			return nil, fmt.Errorf("average: network %d's architecture %s is not network 1's %s", i+2, a, b)
		}
	}
	out := nets[0].Clone()
	for p, v := range out.Values {
		acc := make([]float64, len(v))
		for i, n := range nets {
			w := coef[i] / sum
			for j, x := range n.Values[p] {
				acc[j] += w * float64(x)
			}
		}
		for j := range v {
			v[j] = float32(acc[j])
		}
	}
	return out, nil
}
