package neural

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"

	"github.com/gridgym/gridgym/rules"
)

// Net is a network's parameters: one float32 slice per Arch.Params entry, in
// that order, in gorgonia's layouts.
type Net struct {
	Arch   Arch
	Params []Param
	Values [][]float32
}

// New allocates a network of arch with zero parameters.
func New(arch Arch) (*Net, error) {
	if err := arch.Validate(); err != nil {
		return nil, fmt.Errorf("network: %w", err)
	}
	n := &Net{Arch: arch, Params: arch.Params()}
	n.Values = make([][]float32, len(n.Params))
	for i, p := range n.Params {
		n.Values[i] = make([]float32, p.Size())
	}
	return n, nil
}

// Init draws the weights (He-normal, std √(2/fan-in)) from rng and zeroes
// the biases; the value and extra heads start small so the first policy is
// near uniform.
func (n *Net) Init(rng *rules.RNG) {
	for i, p := range n.Params {
		v := n.Values[i]
		if len(p.Shape) == 1 {
			clear(v)
			continue
		}
		std := math.Sqrt(2 / float64(p.FanIn))
		if p.Name == "policy.w" || p.Name == "extra.w" || p.Name == "unit.w" || p.Name == "value.w" {
			std *= 0.1
		}
		for j := range v {
			v[j] = float32(normal(rng) * std)
		}
	}
}

// normal is a standard normal draw (Box–Muller) from rng.
func normal(rng *rules.RNG) float64 {
	u := (float64(rng.Uint64()>>11) + 0.5) / (1 << 53)
	w := float64(rng.Uint64()>>11) / (1 << 53)
	return math.Sqrt(-2*math.Log(u)) * math.Cos(2*math.Pi*w)
}

// Param returns the values of the named parameter (nil if there is none).
func (n *Net) Param(name string) []float32 {
	for i, p := range n.Params {
		if p.Name == name {
			return n.Values[i]
		}
	}
	return nil
}

// Clone returns a deep copy.
func (n *Net) Clone() *Net {
	c := &Net{Arch: n.Arch, Params: n.Params, Values: make([][]float32, len(n.Values))}
	for i, v := range n.Values {
		c.Values[i] = append([]float32(nil), v...)
	}
	return c
}

// CopyFrom overwrites n's values with src's (same architecture).
func (n *Net) CopyFrom(src *Net) {
	for i := range n.Values {
		copy(n.Values[i], src.Values[i])
	}
}

// Workspace holds the buffers of forward passes of up to Batch observations,
// so inference allocates nothing after NewWorkspace. One workspace serves one
// goroutine.
type Workspace struct {
	Batch  int
	Input  []float32 // [Batch][Cin][H][W], filled by the caller (FillInput)
	Logits []float32 // [Batch][Heads][Actions], masked entries −Inf after Forward
	Value  []float32 // [Batch]

	col     []float32 // im2col buffer [B·H·W][maxCin·9]
	act     [2][]float32
	nhwc    []float32 // [B·H·W][Filters] conv output before transpose
	global  []float32 // [B][2][H][W]
	hid     []float32 // [B][Hidden]
	extra   []float32 // [B][Heads·Extras]
	spatial []float32 // [B][Heads·APlanes][H][W]
	unit    []float32 // [Filters] features at one unit's cells
}

// NewWorkspace allocates buffers for batches of up to batch observations.
func NewWorkspace(a Arch, batch int) *Workspace {
	hw := a.Cells()
	maxC := max(a.Cin(), a.Filters)
	w := &Workspace{Batch: batch}
	w.Input = make([]float32, batch*a.InputSize())
	w.Logits = make([]float32, batch*a.Logits())
	w.Value = make([]float32, batch)
	w.col = make([]float32, batch*hw*maxC*9)
	w.act[0] = make([]float32, batch*a.Filters*hw)
	w.act[1] = make([]float32, batch*a.Filters*hw)
	w.nhwc = make([]float32, batch*hw*max(a.Filters, a.Heads*a.APlanes, 2))
	w.global = make([]float32, batch*2*hw)
	w.hid = make([]float32, batch*a.Hidden)
	w.extra = make([]float32, batch*a.Heads*a.Extras)
	w.spatial = make([]float32, batch*a.Heads*a.APlanes*hw)
	w.unit = make([]float32, a.Filters)
	return w
}

// FillInput writes observation i of the batch from an encoder's planes and
// scalars (bytes as float32, each scalar broadcast over a plane, then the
// coordinate channels where a.Coords is set).
func FillInput(a Arch, dst []float32, planes []uint8, scalars []float32) {
	hw := a.Cells()
	dst = dst[:a.InputSize()]
	for i, b := range planes[:a.Planes*hw] {
		dst[i] = float32(b)
	}
	for s := 0; s < a.Scalars; s++ {
		p := dst[(a.Planes+s)*hw : (a.Planes+s+1)*hw]
		for i := range p {
			p[i] = scalars[s]
		}
	}
	if a.Coords {
		rows := dst[(a.Planes+a.Scalars)*hw : (a.Planes+a.Scalars+1)*hw]
		cols := dst[(a.Planes+a.Scalars+1)*hw : (a.Planes+a.Scalars+2)*hw]
		for c := 0; c < a.Width; c++ {
			cols[c] = coord(c, a.Width)
		}
		for r := 0; r < a.Height; r++ {
			y := coord(r, a.Height)
			row := rows[r*a.Width : (r+1)*a.Width]
			for c := range row {
				row[c] = y
			}
			if r > 0 {
				copy(cols[r*a.Width:(r+1)*a.Width], cols[:a.Width])
			}
		}
	}
}

// coord is position i of n as a fraction of the side, i/(n−1) (0 if n = 1).
func coord(i, n int) float32 {
	if n < 2 {
		return 0
	}
	return float32(i) / float32(n-1)
}

// Forward runs the network on the first b observations of w.Input, writing
// w.Logits and w.Value. masks (optional, [b][Heads] bitsets of MaskWords(h)
// words per observation, bit h·Actions+a) sets illegal logits to −Inf.
func (n *Net) Forward(w *Workspace, b int, masks []uint64, maskWords int) {
	a := n.Arch
	hw := a.Cells()
	in := w.Input[:b*a.InputSize()]
	cin := a.Cin()
	cur := in
	for l := 0; l < a.Layers; l++ {
		out := w.act[l&1][:b*a.Filters*hw]
		conv(a, cur, cin, out, a.Filters, 3, n.Values[2*l], n.Values[2*l+1], b, w, true)
		cur, cin = out, a.Filters
	}
	pi := 2 * a.Layers
	logits := w.Logits[:b*a.Logits()]
	if a.APlanes > 0 {
		// The spatial logits of head h are its APlanes channels, in NCHW order.
		np := a.Heads * a.APlanes
		sp := w.spatial[:b*np*hw]
		conv(a, cur, cin, sp, np, 1, n.Values[pi], n.Values[pi+1], b, w, false)
		pi += 2
		for i := 0; i < b; i++ {
			for h := 0; h < a.Heads; h++ {
				dst := logits[(i*a.Heads+h)*a.Actions:]
				copy(dst[:a.APlanes*hw], sp[(i*np+h*a.APlanes)*hw:(i*np+(h+1)*a.APlanes)*hw])
			}
		}
	}
	// Global branch: 1×1 conv to 2 channels, flatten, dense, ReLU.
	g := w.global[:b*2*hw]
	conv(a, cur, cin, g, 2, 1, n.Values[pi], n.Values[pi+1], b, w, true)
	hid := w.hid[:b*a.Hidden]
	dense(g, b, 2*hw, n.Values[pi+2], n.Values[pi+3], a.Hidden, hid, true)
	vw, vb := n.Values[pi+4], n.Values[pi+5]
	for i := 0; i < b; i++ {
		s := vb[0]
		for j, x := range hid[i*a.Hidden : (i+1)*a.Hidden] {
			s += x * vw[j]
		}
		w.Value[i] = float32(math.Tanh(float64(s)))
	}
	if a.Extras > 0 {
		ne := a.Heads * a.Extras
		ex := w.extra[:b*ne]
		dense(hid, b, a.Hidden, n.Values[pi+6], n.Values[pi+7], ne, ex, false)
		for i := 0; i < b; i++ {
			for h := 0; h < a.Heads; h++ {
				copy(logits[(i*a.Heads+h)*a.Actions+a.APlanes*hw:(i*a.Heads+h+1)*a.Actions], ex[i*ne+h*a.Extras:i*ne+(h+1)*a.Extras])
			}
		}
		if a.Units > 0 {
			n.unitLogits(w, b, in, cur, logits, n.Values[pi+8])
		}
	}
	if masks != nil {
		neg := float32(math.Inf(-1))
		for i := 0; i < b; i++ {
			m := masks[i*maskWords : (i+1)*maskWords]
			l := logits[i*a.Logits() : (i+1)*a.Logits()]
			for j := range l {
				if m[j>>6]>>(j&63)&1 == 0 {
					l[j] = neg
				}
			}
		}
	}
}

// unitLogits adds to each head's non-spatial logits the trunk features
// (trunk, NCHW) summed over the cells its unit plane marks in the input,
// times uw [Filters][Extras].
func (n *Net) unitLogits(w *Workspace, b int, in, trunk, logits, uw []float32) {
	a := n.Arch
	hw, F, cin := a.Cells(), a.Filters, a.Cin()
	feat := w.unit[:F]
	for i := 0; i < b; i++ {
		tr := trunk[i*F*hw : (i+1)*F*hw]
		for h := 0; h < a.Heads; h++ {
			clear(feat)
			mark := in[(i*cin+a.Units+h)*hw : (i*cin+a.Units+h+1)*hw]
			for p, m := range mark {
				if m == 0 {
					continue
				}
				for f := range feat {
					feat[f] += m * tr[f*hw+p]
				}
			}
			dst := logits[(i*a.Heads+h)*a.Actions+a.APlanes*hw : (i*a.Heads+h+1)*a.Actions]
			for e := range dst {
				var s float32
				for f, x := range feat {
					s += x * uw[f*a.Extras+e]
				}
				dst[e] += s
			}
		}
	}
}

// conv computes a k×k convolution (k = 1 or 3, stride 1, zero padding k/2)
// of b NCHW images of cin channels into cout channels (out is NCHW), adding
// bias and, if relu, clamping at zero: im2col, one SGEMM, a transpose.
func conv(a Arch, in []float32, cin int, out []float32, cout, k int, wt, bias []float32, b int, w *Workspace, relu bool) {
	H, W := a.Height, a.Width
	hw := H * W
	kk := cin * k * k
	rows := b * hw
	col := w.col[:rows*kk]
	if k == 1 {
		// col[(i·hw+p)][c] = in[i][c][p]
		for i := 0; i < b; i++ {
			img := in[i*cin*hw : (i+1)*cin*hw]
			for c := 0; c < cin; c++ {
				src := img[c*hw : (c+1)*hw]
				for p, v := range src {
					col[(i*hw+p)*kk+c] = v
				}
			}
		}
	} else {
		pad := k / 2
		for i := 0; i < b; i++ {
			img := in[i*cin*hw : (i+1)*cin*hw]
			for y := 0; y < H; y++ {
				for x := 0; x < W; x++ {
					row := col[((i*hw)+y*W+x)*kk : ((i*hw)+y*W+x+1)*kk]
					j := 0
					for c := 0; c < cin; c++ {
						ch := img[c*hw : (c+1)*hw]
						for dy := 0; dy < k; dy++ {
							yy := y + dy - pad
							for dx := 0; dx < k; dx++ {
								xx := x + dx - pad
								if yy < 0 || yy >= H || xx < 0 || xx >= W {
									row[j] = 0
								} else {
									row[j] = ch[yy*W+xx]
								}
								j++
							}
						}
					}
				}
			}
		}
	}
	res := w.nhwc[:rows*cout]
	gemm(blas.Trans, rows, kk, cout, col, wt[:cout*kk], 0, res)
	for i := 0; i < b; i++ {
		for c := 0; c < cout; c++ {
			dst := out[(i*cout+c)*hw : (i*cout+c+1)*hw]
			bc := bias[c]
			for p := range dst {
				v := res[(i*hw+p)*cout+c] + bc
				if relu && v < 0 {
					v = 0
				}
				dst[p] = v
			}
		}
	}
}

// dense computes out[b][nout] = in[b][nin]·W[nin][nout] + bias, optionally ReLU.
func dense(in []float32, b, nin int, wt, bias []float32, nout int, out []float32, relu bool) {
	for i := 0; i < b; i++ {
		copy(out[i*nout:(i+1)*nout], bias)
	}
	gemm(blas.NoTrans, b, nin, nout, in[:b*nin], wt[:nin*nout], 1, out[:b*nout])
	if relu {
		for i, v := range out[:b*nout] {
			if v < 0 {
				out[i] = 0
			}
		}
	}
}

// gemmTile bounds the pieces gemm hands to gonum: gonum's SGEMM runs a
// product of fewer than four 64×64 output blocks serially and larger ones on
// fresh goroutines (allocating), so gemm cuts the product into pieces of at
// most 192×64 outputs. Inference then allocates nothing; callers parallelise
// over the batch themselves.
const gemmTile = 64

// gemm computes c[m][n] = a[m][k]·op(b) + beta·c, op(b) = b[k][n] (NoTrans)
// or b[n][k]ᵀ (Trans), all row-major and dense.
func gemm(tb blas.Transpose, m, k, n int, a, b []float32, beta float32, c []float32) {
	for j := 0; j < n; j += gemmTile {
		nj := min(gemmTile, n-j)
		var bs blas32.General
		if tb == blas.Trans {
			bs = blas32.General{Rows: nj, Cols: k, Stride: k, Data: b[j*k : (j+nj)*k]}
		} else {
			bs = blas32.General{Rows: k, Cols: nj, Stride: n, Data: b[j : (k-1)*n+j+nj]}
		}
		for i := 0; i < m; i += 3 * gemmTile {
			mi := min(3*gemmTile, m-i)
			blas32.Gemm(blas.NoTrans, tb, 1,
				blas32.General{Rows: mi, Cols: k, Stride: k, Data: a[i*k : (i+mi)*k]},
				bs, beta, blas32.General{Rows: mi, Cols: nj, Stride: n, Data: c[i*n+j : (i+mi-1)*n+j+nj]})
		}
	}
}
