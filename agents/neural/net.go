package neural

import (
	"bytes"
	"fmt"
	"math"
	"runtime"
	"unsafe"

	"github.com/gridgym/gridgym/internal/sgemm"
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
	n, err := unfilled(arch)
	if err != nil {
		return nil, err
	}
	for i, p := range n.Params {
		n.Values[i] = make([]float32, p.Size())
	}
	return n, nil
}

// unfilled is a network of arch whose Values are nil slices, for the caller
// to set (Decode hands over the tensors it read instead of copying them).
func unfilled(arch Arch) (*Net, error) {
	if err := arch.Validate(); err != nil {
		return nil, fmt.Errorf("network: %w", err)
	}
	n := &Net{Arch: arch, Params: arch.Params()}
	n.Values = make([][]float32, len(n.Params))
	return n, nil
}

// NewInit is New with Init's random weights drawn from rng: a network to
// start training from, or the stand-in network of tests and benchmarks.
func NewInit(arch Arch, rng *rules.RNG) (*Net, error) {
	n, err := New(arch)
	if err != nil {
		return nil, err
	}
	n.Init(rng)
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
// goroutine; Forward splits a large batch over the cores itself.
type Workspace struct {
	Batch  int
	Input  []float32 // [Batch][Cin][H][W], filled by the caller (FillInput)
	Logits []float32 // [Batch][Heads][Actions], masked entries −Inf after Forward
	Value  []float32 // [Batch]

	pin   []float32    // the input, padded NHWC [B][sgemm.PadCells(H, W)][Cin] (conv3 says why)
	pad   [2][]float32 // the trunk's layers, padded NHWC [B][sgemm.PadCells(H, W)][Filters]
	trunk []float32    // the last layer without padding [B·H·W][Filters] (NHWC), for the heads
	wp    [][]float32  // each layer's filter packed for sgemm.GemmSegs
	// packedFor[l] is a copy of the weights wp[l] was packed from (nil:
	// none yet), so that Forward packs again only when they change.
	packedFor [][]float32
	w1, b1    []float32  // the heads' 1×1 convolutions as one: [Heads·APlanes+2][Filters] and its bias (heads1x1)
	global    []float32  // [B][2][H][W]
	hid       []float32  // [B][Hidden]
	extra     []float32  // [B][Heads·Extras]
	parts     []*scratch // per part of a split batch (forwardParts), sized by fit
	cores     int        // the cores parts is sized for (fit)
	job       forwardJob
}

// scratch is one core's buffers in a Forward.
type scratch struct {
	nhwc    []float32 // a 1×1 convolution's output before its transpose
	wv, wm  []float32 // a Winograd convolution's transformed tiles and products (conv3)
	unit    []float32 // [Filters] features at one unit's cells
	workers int       // for the products: 1 in a part of a split batch, else 0 (all cores)
}

// NewWorkspace allocates buffers for batches of up to batch observations,
// split over GOMAXPROCS cores (Forward refits them if that changes).
func NewWorkspace(a Arch, batch int) *Workspace {
	return newWorkspace(a, batch, runtime.GOMAXPROCS(0))
}

// newWorkspace is NewWorkspace with its parts fitted to cores cores.
func newWorkspace(a Arch, batch, cores int) *Workspace {
	hw := a.Cells()
	maxC := max(a.Cin(), a.Filters)
	w := &Workspace{Batch: batch}
	w.Input = make([]float32, batch*a.InputSize())
	w.Logits = make([]float32, batch*a.Logits())
	w.Value = make([]float32, batch)
	php := sgemm.PadCells(a.Height, a.Width)
	w.pin = make([]float32, batch*php*a.Cin())
	w.pad[0] = make([]float32, batch*php*a.Filters)
	w.pad[1] = make([]float32, batch*php*a.Filters)
	w.trunk = make([]float32, batch*a.Filters*hw)
	for l := 0; l < a.Layers; l++ {
		w.wp = append(w.wp, make([]float32, max(sgemm.PackedLen(9*maxC, a.Filters), sgemm.WinoPackedLen(maxC, a.Filters))))
	}
	w.packedFor = make([][]float32, a.Layers)
	w.w1 = make([]float32, (a.Heads*a.APlanes+2)*a.Filters)
	w.b1 = make([]float32, a.Heads*a.APlanes+2)
	w.global = make([]float32, batch*2*hw)
	w.hid = make([]float32, batch*a.Hidden)
	w.extra = make([]float32, batch*a.Heads*a.Extras)
	w.fit(a, cores)
	return w
}

// fit sizes w's per-part scratch for every batch of up to w.Batch
// observations split over cores (forwardParts, partImages: the split
// Forward makes), growing the parts that are too small or missing, and
// records cores. NewWorkspace fits the workspace to GOMAXPROCS, and Forward
// again when GOMAXPROCS has changed since (a container's CPU limit, a
// test, or the runtime following a changed limit): then, and only then, it
// may allocate. A part's results do not depend on how the batch is split,
// so a refit changes no output bit.
func (w *Workspace) fit(a Arch, cores int) {
	hw := a.Cells()
	for i := 0; i < forwardParts(cores, w.Batch); i++ {
		images := w.Batch // part 0 runs a batch alone when it is not split
		if i > 0 {
			images = 0
			for b := 1; b <= w.Batch; b++ {
				if parts := forwardParts(cores, b); i < parts {
					i0, i1 := partImages(i, parts, b)
					images = max(images, i1-i0)
				}
			}
		}
		if i == len(w.parts) {
			w.parts = append(w.parts, &scratch{unit: make([]float32, a.Filters)})
		}
		s := w.parts[i]
		if n := images * hw * max(a.Filters, a.Heads*a.APlanes+2); len(s.nhwc) < n {
			s.nhwc = make([]float32, n)
		}
		if g := winoGroup(a); g > 0 {
			rows := sgemm.WinoRows(min(g, images), a.Height, a.Width)
			if n := sgemm.WinoLen(rows, max(a.Cin(), a.Filters)); len(s.wv) < n {
				s.wv = make([]float32, n)
			}
			if n := sgemm.WinoLen(rows, a.Filters); len(s.wm) < n {
				s.wm = make([]float32, n)
			}
		}
	}
	w.cores = cores
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
	// The 3×3 filters packed for the products, shared by the parts: again
	// only where a layer's weights are not those packed last (a playing
	// agent's batches of one would pay a Winograd transform of every
	// filter on every call, more than the convolutions themselves).
	for l := 0; l < a.Layers; l++ {
		cin := a.Filters
		if l == 0 {
			cin = a.Cin()
		}
		wt := n.Values[2*l]
		if w.packedFor[l] != nil && sameBits(w.packedFor[l], wt) {
			continue
		}
		if winoLayer(a, cin) {
			sgemm.WinoFilter(w.wp[l], wt, a.Filters, cin, false)
		} else {
			sgemm.PackConv3(w.wp[l], wt, a.Filters, cin)
		}
		if len(w.packedFor[l]) != len(wt) {
			w.packedFor[l] = make([]float32, len(wt))
		}
		copy(w.packedFor[l], wt)
	}
	// The heads' 1×1 convolutions side by side (heads1x1).
	pi, np := 2*a.Layers, a.Heads*a.APlanes
	if np > 0 {
		copy(w.w1, n.Values[pi][:np*a.Filters])
		copy(w.b1, n.Values[pi+1][:np])
		pi += 2
	}
	copy(w.w1[np*a.Filters:], n.Values[pi][:2*a.Filters])
	copy(w.b1[np:], n.Values[pi+1][:2])
	// The batch is split over the cores in whole chunks of images. Every
	// image's result is computed the same way whichever part takes it (the
	// convolutions go image by image; the other products' rows do not
	// depend on how they are split), so it does not depend on the cores.
	// The scratch is refit when GOMAXPROCS is not what it was sized for.
	cores := runtime.GOMAXPROCS(0)
	if cores != w.cores {
		w.fit(a, cores)
	}
	parts := forwardParts(cores, b)
	for _, s := range w.parts {
		s.workers = 1 // a part's products stay on its core
	}
	if parts <= 1 {
		w.parts[0].workers = 0 // one part: its products use every core
		n.forward(w, w.parts[0], 0, b, masks, maskWords)
		return
	}
	w.job = forwardJob{n: n, w: w, b: b, masks: masks, maskWords: maskWords}
	sgemm.Parallel(parts, &w.job)
	w.job = forwardJob{}
}

// chunkImages is the unit of a batch's split over cores: a batch is split
// when every part gets at least one chunk.
const chunkImages = 4

// forwardParts is how many parts Forward splits a batch of b observations
// into on cores cores (GOMAXPROCS): one per core, as long as every part
// gets at least one chunk of images; at least one. A part of 4 images
// costs no more per image than one of 64 (one core, the shipped networks,
// reports/learner: issue 55), so a batch of 64 uses 16 cores, where two
// chunks a part had held it to 8. With partImages it is the one rule for
// both the split (Forward, forwardJob) and the scratch each part needs
// (Workspace.fit), so the two cannot disagree.
func forwardParts(cores, b int) int { return max(1, min(cores, b/chunkImages)) }

// partImages returns the observations i0..i1 of part i of parts of a batch
// of b: whole chunks, the last one partial.
func partImages(i, parts, b int) (i0, i1 int) {
	chunks := (b + chunkImages - 1) / chunkImages
	return chunks * i / parts * chunkImages, min(chunks*(i+1)/parts*chunkImages, b)
}

// forwardJob is a Forward split over cores by images (sgemm.Parallel).
type forwardJob struct {
	n         *Net
	w         *Workspace
	b         int
	masks     []uint64
	maskWords int
}

// RunPart implements sgemm.Runner: the images of part i of parts, in whole
// chunks.
func (j *forwardJob) RunPart(i, parts int) {
	i0, i1 := partImages(i, parts, j.b)
	j.n.forward(j.w, j.w.parts[i], i0, i1, j.masks, j.maskWords)
}

// forward runs the network on observations i0..i1 of w with scratch s.
func (n *Net) forward(w *Workspace, s *scratch, i0, i1 int, masks []uint64, maskWords int) {
	a := n.Arch
	hw := a.Cells()
	b := i1 - i0
	in := w.Input[i0*a.InputSize() : i1*a.InputSize()]
	cin := a.Cin()
	// The trunk keeps its activations in NHWC with a border of zeros
	// (conv3), the last layer also without it ([b·H·W][Filters]) for the
	// heads.
	H, W, F := a.Height, a.Width, a.Filters
	pw, php := sgemm.PadPitch(W), sgemm.PadCells(H, W)
	pin := w.pin[i0*php*cin : i1*php*cin]
	for i := 0; i < b; i++ {
		sgemm.PadImage(pin[i*php*cin:(i+1)*php*cin], in[i*cin*hw:(i+1)*cin*hw], cin, H, W, true)
	}
	src := pin
	for l := 0; l < a.Layers; l++ {
		out := w.pad[l&1][i0*php*F : i1*php*F]
		conv3(a, src, cin, out, w.wp[l], n.Values[2*l+1], b, s)
		src, cin = out, F
	}
	cur := w.trunk[i0*hw*F : i1*hw*F]
	for i := 0; i < b; i++ {
		sgemm.InnerCells(cur[i*hw*F:(i+1)*hw*F], src[(i*php+pw+1)*F:], F, H, W)
	}
	pi := 2 * a.Layers
	logits := w.Logits[i0*a.Logits() : i1*a.Logits()]
	// The policy's spatial logits and the global branch's 1×1
	// convolution to 2 channels with ReLU, in one product.
	g := w.global[i0*2*hw : i1*2*hw]
	heads1x1(a, cur, w.w1, w.b1, logits, g, b, s)
	if a.APlanes > 0 {
		pi += 2
	}
	// Global branch: flatten, dense, ReLU.
	hid := w.hid[i0*a.Hidden : i1*a.Hidden]
	dense(g, b, 2*hw, n.Values[pi+2], n.Values[pi+3], a.Hidden, hid, true, s.workers)
	vw, vb := n.Values[pi+4], n.Values[pi+5]
	for i := 0; i < b; i++ {
		s := vb[0]
		for j, x := range hid[i*a.Hidden : (i+1)*a.Hidden] {
			s += x * vw[j]
		}
		w.Value[i0+i] = float32(math.Tanh(float64(s)))
	}
	if a.Extras > 0 {
		ne := a.Heads * a.Extras
		ex := w.extra[i0*ne : i1*ne]
		dense(hid, b, a.Hidden, n.Values[pi+6], n.Values[pi+7], ne, ex, false, s.workers)
		for i := 0; i < b; i++ {
			for h := 0; h < a.Heads; h++ {
				copy(logits[(i*a.Heads+h)*a.Actions+a.APlanes*hw:(i*a.Heads+h+1)*a.Actions], ex[i*ne+h*a.Extras:i*ne+(h+1)*a.Extras])
			}
		}
		if a.Units > 0 {
			n.unitLogits(s, b, in, cur, logits, n.Values[pi+8])
		}
	}
	if masks != nil {
		neg := float32(math.Inf(-1))
		for i := 0; i < b; i++ {
			m := masks[(i0+i)*maskWords : (i0+i+1)*maskWords]
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
// (trunk, NHWC) summed over the cells its unit plane marks in the input,
// times uw [Filters][Extras].
func (n *Net) unitLogits(s *scratch, b int, in, trunk, logits, uw []float32) {
	a := n.Arch
	hw, F, cin := a.Cells(), a.Filters, a.Cin()
	feat := s.unit[:F]
	for i := 0; i < b; i++ {
		tr := trunk[i*hw*F : (i+1)*hw*F]
		for h := 0; h < a.Heads; h++ {
			clear(feat)
			mark := in[(i*cin+a.Units+h)*hw : (i*cin+a.Units+h+1)*hw]
			for p, m := range mark {
				if m == 0 {
					continue
				}
				for f, v := range tr[p*F : (p+1)*F] {
					feat[f] += m * v
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

// conv3 computes a 3×3 convolution (stride 1, zero padding 1) of b images
// of cin channels into out (F = a.Filters channels), adding bias and
// clamping at zero. Images are NHWC with a border of zero cells, in and out
// alike ([b][sgemm.PadCells(H, W)][channels], sgemm.PadImage): each image's
// convolution is one segmented product (sgemm.GemmSegs, pad.go there) with
// no patch gather. The product's rows that are not cells of the image (the
// zero cells between its rows, and those below it that sgemm.Conv3Span's
// whole tiles reach) are cleared after, so the border stays zero for the
// next layer (the cells before the first inner one are never written:
// zero since NewWorkspace).
func conv3(a Arch, in []float32, cin int, out []float32, wp, bias []float32, b int, s *scratch) {
	H, W, F := a.Height, a.Width, a.Filters
	pw, php := sgemm.PadPitch(W), sgemm.PadCells(H, W)
	if winoLayer(a, cin) {
		conv3Wino(a, in, cin, out, wp, bias, b, s)
		return
	}
	q0, rows, span := pw+1, sgemm.Conv3Rows(H, W), sgemm.Conv3Span(H, W)
	segs := sgemm.Conv3Segs(cin, W)
	for i := 0; i < b; i++ {
		c := out[(i*php+q0)*F : (i*php+q0+span)*F]
		clear(c)
		sgemm.GemmSegs(span, F, in[i*php*cin:(i+1)*php*cin], cin, segs[:], wp, c, F)
		sgemm.BiasReLU(c[:rows*F], bias[:F])
		for y := 0; y < H-1; y++ {
			// The zero cells between rows y and y+1.
			clear(c[(y*pw+W)*F : (y+1)*pw*F])
		}
		clear(c[rows*F:]) // the zero cells below the image
	}
}

// heads1x1 computes the heads' two 1×1 convolutions of the trunk (in:
// [b·H·W][Filters]) as one product by wt ([np+2][Filters], bias b1, np =
// Heads·APlanes): the policy's channels, head h's APlanes planes, as the
// first logits of each head (logits [b][Heads][Actions], a plane's cells
// in order), and the global branch's 2 channels, clamped at zero, into g
// (NCHW, [b][2][H][W]). The two share the product's columns (np+2 fits
// one panel of 16 in all but Slime's 26), so the trunk is read once.
func heads1x1(a Arch, in, wt, b1, logits, g []float32, b int, s *scratch) {
	hw, F := a.Cells(), a.Filters
	np := a.Heads * a.APlanes
	cout := np + 2
	rows := b * hw
	res := s.nhwc[:rows*cout]
	sgemm.GemmWorkers(s.workers, false, true, rows, cout, F, in[:rows*F], F, wt[:cout*F], F, 0, res, cout)
	for i := 0; i < b; i++ {
		r := res[i*hw*cout : (i+1)*hw*cout]
		for c := 0; c < np; c++ {
			h, k := c/a.APlanes, c%a.APlanes
			o := (i*a.Heads+h)*a.Actions + k*hw
			dst, bc := logits[o:o+hw], b1[c]
			for p := range dst {
				dst[p] = r[p*cout+c] + bc
			}
		}
		for c := 0; c < 2; c++ {
			dst, bc := g[(i*2+c)*hw:(i*2+c+1)*hw], b1[np+c]
			for p := range dst {
				dst[p] = max(r[p*cout+np+c]+bc, 0)
			}
		}
	}
}

// dense computes out[b][nout] = in[b][nin]·W[nin][nout] + bias, optionally ReLU.
func dense(in []float32, b, nin int, wt, bias []float32, nout int, out []float32, relu bool, workers int) {
	for i := 0; i < b; i++ {
		copy(out[i*nout:(i+1)*nout], bias)
	}
	sgemm.GemmWorkers(workers, false, false, b, nout, nin, in[:b*nin], nin, wt[:nin*nout], nout, 1, out[:b*nout], nout)
	if relu {
		for i, v := range out[:b*nout] {
			if v < 0 {
				out[i] = 0
			}
		}
	}
}

// winoLayer reports whether the trunk's 3×3 convolution from cin channels
// runs by Winograd (sgemm.WinoWorth; its filter then packed by
// sgemm.WinoFilter).
func winoLayer(a Arch, cin int) bool { return sgemm.WinoWorth(cin, a.Filters, a.Height, a.Width) }

// winoGroup is the images of a Winograd product (sgemm.WinoGroup) for a's
// trunk, the same for every layer, 0 when no layer of it runs by Winograd.
func winoGroup(a Arch) int {
	if !winoLayer(a, a.Filters) && !winoLayer(a, a.Cin()) {
		return 0
	}
	return sgemm.WinoGroup(max(a.Cin(), a.Filters), a.Filters, a.Height, a.Width)
}

// conv3Wino is conv3 by Winograd (internal/sgemm/winograd.go) in groups
// of winoGroup images: it writes the inner cells alone (the border, zero
// since NewWorkspace, stays so). Each image's result is the same bits
// whatever group it falls in.
func conv3Wino(a Arch, in []float32, cin int, out []float32, up, bias []float32, b int, s *scratch) {
	H, W, F := a.Height, a.Width, a.Filters
	pw, php, tiles := sgemm.PadPitch(W), sgemm.PadCells(H, W), sgemm.WinoTiles(H, W)
	g := winoGroup(a)
	for i0 := 0; i0 < b; i0 += g {
		n := min(g, b-i0)
		rows := sgemm.WinoRows(n, H, W)
		for i := 0; i < n; i++ {
			sgemm.WinoInput(s.wv, rows, i*tiles, in[(i0+i)*php*cin:(i0+i+1)*php*cin], cin, H, W)
		}
		sgemm.WinoProduct(s.wm, s.wv, rows, cin, F, up)
		for i := 0; i < n; i++ {
			o := out[(i0+i)*php*F : (i0+i+1)*php*F]
			sgemm.WinoOutput(o, (pw+1)*F, pw, s.wm, rows, i*tiles, F, H, W)
			for y := 1; y <= H; y++ {
				sgemm.BiasReLU(o[(y*pw+1)*F:(y*pw+1+W)*F], bias[:F])
			}
		}
	}
}

// sameBits reports whether a and b hold the same float32 bits (a
// vectorised memory compare: a few microseconds for a 64-filter layer).
func sameBits(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	if len(a) == 0 {
		return true
	}
	return bytes.Equal(unsafe.Slice((*byte)(unsafe.Pointer(&a[0])), 4*len(a)), unsafe.Slice((*byte)(unsafe.Pointer(&b[0])), 4*len(b)))
}

// WithPlanes returns a copy of n shaped for arch, which must be n.Arch with
// more observation planes and nothing else changed: a game parameter that
// adds planes after the game's own (Bovine Borders' frontier_planes). The
// first layer's weights from the new planes start at zero, so the copy
// computes exactly what n computes until training moves them: a network
// fine-tuned from n with the new planes starts where n stands.
func (n *Net) WithPlanes(arch Arch) (*Net, error) {
	old := n.Arch
	grown := old
	grown.Planes = arch.Planes
	if arch != grown || arch.Planes <= old.Planes {
		return nil, fmt.Errorf("network of %d planes: it grows only by planes, not to %+v", old.Planes, arch)
	}
	w, err := New(arch)
	if err != nil {
		return nil, err
	}
	add := arch.Planes - old.Planes
	oldIn, newIn := old.Cin(), arch.Cin()
	for i, p := range w.Params {
		src := n.Values[i]
		if p.Name != "trunk0.w" {
			copy(w.Values[i], src)
			continue
		}
		// [Filters, Cin, 3, 3]: input channel c of n is channel c (a plane)
		// or c + add (a scalar or coordinate channel) of the copy.
		for f := 0; f < arch.Filters; f++ {
			for c := 0; c < oldIn; c++ {
				to := c
				if c >= old.Planes {
					to += add
				}
				copy(w.Values[i][(f*newIn+to)*9:(f*newIn+to+1)*9], src[(f*oldIn+c)*9:(f*oldIn+c+1)*9])
			}
		}
	}
	return w, nil
}
