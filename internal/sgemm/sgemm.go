// Package sgemm is gridgym's float32 matrix product: the one kernel behind
// the trainer's convolutions and dense layers (through gorgonia) and the
// plain-Go inference path. gonum's float32 BLAS is pure Go without SIMD, and
// the float32 SIMD libraries on the Go proxy (gorgonia.org/vecf32,
// github.com/viterin/vek) offer element-wise and dot-product kernels, not a
// blocked product, so this package holds a small one: B packed into
// 16-column panels, a register-tiled micro-kernel (AVX2 + FMA 6×16 and
// AVX-512F 12×16 assembly on amd64 CPUs that have them, found at run time
// with golang.org/x/sys/cpu, the faster on this CPU timed at start-up;
// portable Go elsewhere), and the rows of C split over
// a pool of worker goroutines (one per part of the largest split asked of
// it, less the caller's: startPool). Every element of C is summed in the
// same order whatever the number of workers, so results do not depend on
// GOMAXPROCS, and a product allocates nothing once its buffers have grown.
// 3×3 convolutions run as segmented products on padded images (pad.go) or,
// with 16 channels and more on boards of even sides, by Winograd's minimal
// filtering F(2×2, 3×3) (winograd.go): 2.25× fewer multiply-adds.
package sgemm

import (
	"math"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

const (
	maxMR = 12  // most rows of a micro-tile
	nr    = 16  // columns of a micro-tile (one packed panel of B)
	kc    = 256 // depth of a block of the product (B's panel stays in L1)
)

// mr is the rows of the selected micro-kernel's tile.
var mr = 6

// tile is the micro-kernel in use: the best one this CPU has.
var tile = tileGo

// kernelName says which micro-kernel tile is.
var kernelName = "go 6x16"

// kernel is a micro-kernel: its name, its tile's rows and the function,
// and optionally its two-panel form (32 columns of C at once, B's second
// panel bs floats after the first), which must give each element of C the
// same bits as two calls of tile.
type kernel struct {
	name  string
	mr    int
	tile  func(k int, a []float32, rs, ks int, b, c []float32, ldc int)
	tile2 func(k int, a []float32, rs, ks int, b []float32, bs int, c []float32, ldc int)
	tile6 func(k int, a []float32, rs, ks int, b, c []float32, ldc int) // six rows, the same chains, for GemmSegs' last rows
	// tile62 is tile6 for two panels at once (as tile2 is tile's).
	tile62 func(k int, a []float32, rs, ks int, b []float32, bs int, c []float32, ldc int)
}

// kernels are the micro-kernels this CPU can run, the preferred one last:
// the portable ones, then those the architecture's init adds by CPU
// feature.
var kernels = []kernel{{name: "go 6x16", mr: 6, tile: tileGo}, {name: "go 12x16", mr: 12, tile: tileGo}}

// fastest returns the kernel of ks that multiplies a conv-shaped block
// (rows of depth 144 by one 16-column panel, in L1) in the least time per
// row: the best of five timings of each, about half a millisecond in all.
// The kernels must give the same bits (the choice may differ from run to
// run on a loaded machine; the results may not).
func fastest(ks []kernel) kernel {
	const depth, calls = 144, 64
	a := make([]float32, maxMR*depth)
	b := make([]float32, depth*nr)
	c := make([]float32, maxMR*nr)
	for i := range a {
		a[i] = float32(i%7) - 3
	}
	for i := range b {
		b[i] = float32(i%5) - 2
	}
	best, bestT := ks[0], time.Duration(math.MaxInt64)
	for _, k := range ks {
		t := time.Duration(math.MaxInt64)
		for rep := 0; rep < 6; rep++ { // the first is a warm-up
			start := time.Now()
			for range calls {
				k.tile(depth, a, depth, 1, b, c, nr)
			}
			if d := time.Since(start); rep > 0 && d < t {
				t = d
			}
		}
		if perRow := t / time.Duration(k.mr); perRow < bestT {
			best, bestT = k, perRow
		}
	}
	return best
}

// use selects a micro-kernel (tests select each in turn).
func use(k kernel) {
	tile, tile2, tile6, tile62, mr, kernelName = k.tile, k.tile2, k.tile6, k.tile62, k.mr, k.name
}

// tile62 is the selected kernel's six-row two-panel companion, or nil.
var tile62 func(k int, a []float32, rs, ks int, b []float32, bs int, c []float32, ldc int)

// tile6 is the selected kernel's six-row companion (kernel.tile6), or nil.
var tile6 func(k int, a []float32, rs, ks int, b, c []float32, ldc int)

// tile2 is the selected kernel's two-panel form, or nil.
var tile2 func(k int, a []float32, rs, ks int, b []float32, bs int, c []float32, ldc int)

// Kernel names the micro-kernel selected for this CPU.
func Kernel() string { return kernelName }

// tileGo is the portable micro-kernel: c[i·ldc+j] += Σ_p a[i·rs+p·ks]·
// b[p·16+j] for i < mr, j < 16.
func tileGo(k int, a []float32, rs, ks int, b, c []float32, ldc int) {
	var acc [maxMR][nr]float32
	mr := mr
	for p := 0; p < k; p++ {
		bp := (*[nr]float32)(b[p*nr : p*nr+nr])
		for i := 0; i < mr; i++ {
			ai := a[i*rs+p*ks]
			r := &acc[i]
			for j := range r {
				r[j] += ai * bp[j]
			}
		}
	}
	for i := 0; i < mr; i++ {
		row := c[i*ldc : i*ldc+nr]
		for j := range row {
			row[j] += acc[i][j]
		}
	}
}

// Gemm computes C = op(A)·op(B) + beta·C for row-major matrices: op(A) is
// m×k (A is m×k with row stride lda, or k×m when transA), op(B) is k×n (B is
// k×n with row stride ldb, or n×k when transB), C is m×n with row stride
// ldc. Large products run on up to GOMAXPROCS goroutines; the result is the
// same bit for bit whatever that number is.
func Gemm(transA, transB bool, m, n, k int, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	GemmWorkers(0, transA, transB, m, n, k, a, lda, b, ldb, beta, c, ldc)
}

// GemmWorkers is Gemm on at most workers goroutines (0: GOMAXPROCS).
func GemmWorkers(workers int, transA, transB bool, m, n, k int, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	if m <= 0 || n <= 0 {
		return
	}
	// C = beta·C first; the blocks below add into C.
	for i := 0; i < m; i++ {
		row := c[i*ldc : i*ldc+n]
		switch beta {
		case 0:
			clear(row)
		case 1:
		default:
			for j := range row {
				row[j] *= beta
			}
		}
	}
	if k <= 0 {
		return
	}
	// A's element (i, p) is a[i·rs + p·ks].
	rs, ks := lda, 1
	if transA {
		rs, ks = 1, lda
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
		if Serial() {
			workers = 1
		}
	}
	// Split only products worth the hand-off and the second core's cold
	// caches (about 30 µs of work on one core).
	if m*n*k < 1<<21 || m < 2*mr {
		workers = 1
	}
	workers = min(workers, (m+mr-1)/mr, maxWorkers)
	npan := (n + nr - 1) / nr
	pk := getPacked(min(k, kc) * npan * nr)
	defer putPacked(pk)
	jb := &pk.job
	for p0 := 0; p0 < k; p0 += kc {
		kb := min(kc, k-p0)
		bp := pk.buf[:kb*npan*nr]
		if !transB && n == nr && ldb == nr {
			// B is one whole panel already (16 columns, rows side by
			// side): a 16-filter convolution's gradient, for one.
			bp = b[p0*nr : (p0+kb)*nr]
		} else {
			packB(bp, transB, b, ldb, p0, kb, n)
		}
		*jb = job{a: a, rs: rs, ks: ks, p0: p0, kb: kb, bp: bp, n: n, c: c, ldc: ldc}
		if workers == 1 {
			jb.rows(0, m, &pk.sc)
			continue
		}
		// Row ranges in whole micro-tiles, the same tiles for any split.
		tiles := (m + mr - 1) / mr
		startPool(workers)
		pk.wg.add(workers - 1)
		for w := 1; w < workers; w++ {
			t0, t1 := tiles*w/workers, tiles*(w+1)/workers
			queue <- task{jb: jb, i0: t0 * mr, i1: min(t1*mr, m), wg: &pk.wg}
		}
		jb.rows(0, min(tiles/workers*mr, m), &pk.sc)
		pk.wg.wait()
	}
	*jb = job{}
}

// maxWorkers bounds the goroutines of one product.
const maxWorkers = 64

// task is a share of a product's rows for a pool worker.
type task struct {
	jb     *job
	r      Runner // a Parallel share instead of rows of a product, when set
	i0, i1 int
	wg     *group
}

// Runner is work split in parts for Parallel: RunPart(i, n) does part i of
// n. A part runs on a pool worker and must not call Parallel or a Gemm
// that splits (GemmWorkers with workers 1 is fine). Implementations are long-lived values (a pointer to a workspace), so
// handing one to Parallel allocates nothing.
type Runner interface{ RunPart(i, n int) }

// Parallel runs r.RunPart(i, n) for i < n, part 0 on the calling goroutine
// and the others on the package's workers, and returns when all are done.
// While a Split is in progress it runs the parts one after another on the
// caller instead (the cores are busy with the Split's parts).
func Parallel(n int, r Runner) {
	if n <= 1 {
		r.RunPart(0, 1)
		return
	}
	if Serial() {
		for i := 0; i < n; i++ {
			r.RunPart(i, n)
		}
		return
	}
	dispatch(n, r)
}

// splits counts the Splits in progress.
var splits atomic.Int32

// Serial reports whether a Split is in progress: then Gemm and Parallel
// keep to their calling goroutine, and so should other code that splits its
// work over the cores (the cores are busy with the Split's parts, and a
// second level of goroutines would only make them fight). Results do not
// change: Gemm and Parallel give the same bits on any number of workers.
func Serial() bool { return splits.Load() > 0 }

// Split is Parallel for coarse parts that each do a whole job of their own
// (the trainer's minibatch shards): the n parts run at once, part 0 on the
// calling goroutine, and until they all return every Gemm and Parallel,
// in them or elsewhere, runs on its caller alone (Serial).
func Split(n int, r Runner) {
	splits.Add(1)
	defer splits.Add(-1)
	if n <= 1 {
		r.RunPart(0, 1)
		return
	}
	dispatch(n, r)
}

// dispatch runs r's n parts, part 0 on the caller and the others on the
// pool's workers, and returns when all are done.
func dispatch(n int, r Runner) {
	startPool(n)
	pk := getPacked(0)
	pk.wg.add(n - 1)
	for i := 1; i < n; i++ {
		queue <- task{r: r, i0: i, i1: n, wg: &pk.wg}
	}
	r.RunPart(0, n)
	pk.wg.wait()
	putPacked(pk)
}

var (
	queue    = make(chan task, maxWorkers)
	poolMu   sync.Mutex   // held while the pool grows
	poolSize atomic.Int32 // the worker goroutines started
)

// startPool makes sure the pool has a worker for every part but the
// caller's of a split into parts (a product's or a Parallel's caller runs
// a share itself): the pool is sized by the splits asked of it, which
// follow GOMAXPROCS or the caller's fixed part count, not by the CPU count,
// so a split into more parts than there are CPUs (GOMAXPROCS above
// runtime.NumCPU, a convolution's slots) still runs its parts at once, and
// a process held to fewer cores than the machine has (a container's CPU
// limit) starts no more workers than it uses. Workers are never stopped:
// idle, they spin for a while, then sleep on the queue (next). Once grown,
// a call costs one atomic load.
func startPool(parts int) {
	if int(poolSize.Load()) >= parts-1 {
		return
	}
	poolMu.Lock()
	defer poolMu.Unlock()
	for int(poolSize.Load()) < parts-1 {
		go work()
		poolSize.Add(1)
	}
}

// work is a pool worker: it runs the queue's tasks, forever.
func work() {
	sc := new(scratch)
	for {
		t := next()
		if t.r != nil {
			t.r.RunPart(t.i0, t.i1)
		} else {
			t.jb.rows(t.i0, t.i1, sc)
		}
		t.wg.done()
	}
}

// spinFor is how long an idle worker, or a caller waiting for its workers,
// spins before it sleeps. Waking a sleeping goroutine on the other core
// took 88 µs on average on the 2-core virtual machine measured (a
// sleeping core is woken by the hypervisor): a batch-64 forward pass's
// second half started that late, and two cores ran it 1.62× as fast as
// one, where two processes side by side ran 1.93×. PyTorch's OpenMP
// threads spin for the same reason.
const spinFor = 100 * time.Microsecond

// next returns the next task of the queue, polling it for spinFor before
// it sleeps on it (on more than one core: on one, a worker that spins only
// keeps the goroutine that would send it work off the core). The poll does
// not yield the core: a runtime.Gosched there made the runtime allocate
// (TestTrainStepAllocsNothing).
func next() task {
	if runtime.GOMAXPROCS(0) > 1 {
		start := time.Now()
		for spins := 0; spins&63 != 63 || time.Since(start) < spinFor; spins++ {
			select {
			case t := <-queue:
				return t
			default:
			}
		}
	}
	return <-queue
}

// group counts the tasks of a product or a Parallel that its caller waits
// for: as a WaitGroup, but the caller spins for spinFor (next says why)
// before it sleeps.
type group struct {
	pending atomic.Int32
	wg      sync.WaitGroup
}

func (g *group) add(n int) {
	g.pending.Add(int32(n))
	g.wg.Add(n)
}

func (g *group) done() {
	g.pending.Add(-1)
	g.wg.Done()
}

func (g *group) wait() {
	if runtime.GOMAXPROCS(0) > 1 {
		start := time.Now()
		for spins := 0; g.pending.Load() != 0 && (spins&63 != 63 || time.Since(start) < spinFor); spins++ {
		}
	}
	g.wg.Wait()
}

// packB copies rows p0..p0+kb of op(B) into panels of 16 columns, panel by
// panel (each kb×16, zero-padded past column n).
func packB(dst []float32, transB bool, b []float32, ldb, p0, kb, n int) {
	for j0, q := 0, 0; j0 < n; j0 += nr {
		w := min(nr, n-j0)
		for p := 0; p < kb; p++ {
			d := dst[q : q+nr]
			q += nr
			if transB {
				for j := 0; j < w; j++ {
					d[j] = b[(j0+j)*ldb+p0+p]
				}
			} else {
				copy(d[:w], b[(p0+p)*ldb+j0:(p0+p)*ldb+j0+w])
			}
			clear(d[w:])
		}
	}
}

// job is one depth block of a product: A from depth p0 on, kb deep, times
// the packed panels bp, added into C.
type job struct {
	a      []float32
	rs, ks int
	p0, kb int
	bp     []float32
	n      int
	c      []float32
	ldc    int
}

// scratch is a worker's scratch for rows (a local would escape to the heap
// through the kernel's function value).
type scratch struct {
	edge [maxMR * nr]float32 // a tile of C for a narrow panel or the last rows
	apad [maxMR * kc]float32 // the last rows of A, zero-padded to a whole tile
}

// rows adds the block's product into rows i0..i1 of C.
func (jb *job) rows(i0, i1 int, s *scratch) {
	kb := jb.kb
	edge := s.edge[:]
	for i := i0; i < i1; i += mr {
		h := min(mr, i1-i)
		a, rs, ks := jb.a[i*jb.rs+jb.p0*jb.ks:], jb.rs, jb.ks
		six := h == 6 && tile6 != nil && jb.n%nr == 0 // the half-height kernel below
		if h < mr && !six {
			// The last h < mr rows (the micro-kernel would read past A's
			// end): copied into a tile padded with zero rows, so that the
			// micro-kernel computes them as it does whole tiles. Every
			// element of C is then the same chain of fused multiply-adds
			// whatever the tile's height: the assembly kernels give the same
			// bits (TestKernelsSameBits), so the fastest can be chosen.
			a, rs, ks = padRows(s.apad[:mr*kb], a, rs, ks, h, mr, kb), kb, 1
		}
		for j0, pan, step := 0, 0, 1; j0 < jb.n; j0, pan = j0+step*nr, pan+step {
			w := min(nr, jb.n-j0)
			bpan := jb.bp[pan*kb*nr:]
			step = 1
			if h == mr && tile2 != nil && j0+2*nr <= jb.n {
				tile2(kb, a, rs, ks, bpan, kb*nr, jb.c[i*jb.ldc+j0:], jb.ldc)
				step = 2
				continue
			}
			if h == mr && w == nr {
				tile(kb, a, rs, ks, bpan, jb.c[i*jb.ldc+j0:], jb.ldc)
				continue
			}
			if six {
				// Six last rows on the half-height kernel (the same
				// chains), in place: no padded copy, no scratch tile.
				tile6(kb, a, rs, ks, bpan, jb.c[i*jb.ldc+j0:], jb.ldc)
				continue
			}
			// A narrow panel or the last rows: into a scratch tile.
			clear(edge)
			tile(kb, a, rs, ks, bpan, edge, nr)
			addEdge(jb.c[i*jb.ldc+j0:], jb.ldc, edge, h, w)
		}
	}
}

// packed is a product's reusable state: B's panels, the block in progress
// and the wait for its workers.
type packed struct {
	buf []float32
	job job
	sc  scratch
	wg  group
}

// free holds the states of finished products for the next ones (a plain
// list, not a sync.Pool: a pool is emptied by every garbage collection,
// and a product after it would allocate again).
var free struct {
	sync.Mutex
	list []*packed
}

func getPacked(n int) *packed {
	free.Lock()
	var p *packed
	if k := len(free.list); k > 0 {
		p = free.list[k-1]
		free.list = free.list[:k-1]
	}
	free.Unlock()
	if p == nil {
		p = new(packed)
	}
	if cap(p.buf) < n {
		p.buf = make([]float32, n)
	}
	p.buf = p.buf[:n]
	return p
}

func putPacked(p *packed) {
	free.Lock()
	free.list = append(free.list, p)
	free.Unlock()
}

// Seg is a run of a segmented left operand's depth (GemmSegs): Len depth
// steps read side by side from offset Off of each row.
type Seg struct{ Off, Len int }

// PackB packs the k×n row-major matrix b (row stride ldb) for GemmSegs:
// panels of 16 columns, each k×16, zero-padded past column n. dst holds
// PackedLen(k, n) floats.
func PackB(dst, b []float32, ldb, k, n int) { packB(dst[:PackedLen(k, n)], false, b, ldb, 0, k, n) }

// PackedLen is the length of a k×n matrix packed by PackB.
func PackedLen(k, n int) int { return k * ((n + nr - 1) / nr) * nr }

// GemmSegs adds A·B into C (m×n, row stride ldc) for a segmented A: the
// depth of A's row i is the concatenation of its segments, segment s being
// a[i·rs + segs[s].Off …] for segs[s].Len steps, and bp is B (k×n, k the
// segments' total length) packed by PackB. A 3×3 convolution on a padded
// NHWC image is such a product with three segments, one per row of the
// neighbourhood (its three cells' channels lie side by side), and needs no
// patch gather. Each segment's product is one micro-kernel chain added into
// C (segments longer than 256 in pieces of 256), so the result is the same
// bits on every assembly kernel; the product runs on the calling goroutine.
func GemmSegs(m, n int, a []float32, rs int, segs []Seg, bp []float32, c []float32, ldc int) {
	k := 0
	for _, s := range segs {
		k += s.Len
	}
	pk := getPacked(0)
	defer putPacked(pk)
	sc := &pk.sc
	edge := sc.edge[:]
	for i := 0; i < m; i += mr {
		h := min(mr, m-i)
		for j0, pan, step := 0, 0, 1; j0 < n; j0, pan = j0+step*nr, pan+step {
			w := min(nr, n-j0)
			bpan := bp[pan*k*nr:]
			step = 1
			if t2 := tile2; (h == mr && t2 != nil || h == 6 && tile62 != nil) && j0+2*nr <= n {
				// Two whole panels at once (kernel.tile2, tile62: the same bits).
				if h != mr {
					t2 = tile62
				}
				for s, p0 := 0, 0; s < len(segs); p0, s = p0+segs[s].Len, s+1 {
					for done := 0; done < segs[s].Len; done += kc {
						d := min(kc, segs[s].Len-done)
						t2(d, a[i*rs+segs[s].Off+done:], rs, 1, bpan[(p0+done)*nr:], k*nr, c[i*ldc+j0:], ldc)
					}
				}
				step = 2
				continue
			}
			// Each segment, in pieces of at most kc steps, is one chain
			// added into C: in place for a whole tile; else into a scratch
			// tile, the last rows first copied into a tile padded with zero
			// rows (the micro-kernel would read past A's end).
			for s, p0 := 0, 0; s < len(segs); p0, s = p0+segs[s].Len, s+1 {
				for done := 0; done < segs[s].Len; done += kc {
					d := min(kc, segs[s].Len-done)
					ta, trs := a[i*rs+segs[s].Off+done:], rs
					bb := bpan[(p0+done)*nr:]
					if h == mr && w == nr {
						tile(d, ta, trs, 1, bb, c[i*ldc+j0:], ldc)
						continue
					}
					// The last rows on the half-height kernel where there is
					// one and they fit (the same chain per element: a 20×20
					// board's product ends with 6 rows, which then waste
					// nothing).
					kt, kr := tile, mr
					if tile6 != nil && h <= 6 {
						kt, kr = tile6, 6
						if h == 6 && w == nr {
							kt(d, ta, trs, 1, bb, c[i*ldc+j0:], ldc)
							continue
						}
					}
					if h < kr {
						ta, trs = padRows(sc.apad[:kr*d], ta, rs, 1, h, kr, d), d
					}
					clear(edge)
					kt(d, ta, trs, 1, bb, edge, nr)
					addEdge(c[i*ldc+j0:], ldc, edge, h, w)
				}
			}
		}
	}
}

// padRows copies h rows of A (element (r, p) at a[r·rs + p·ks], p < d)
// into ap as a tile of kr rows of d (row stride d), the rows past h zero,
// and returns it.
func padRows(ap, a []float32, rs, ks, h, kr, d int) []float32 {
	for r := 0; r < kr; r++ {
		row := ap[r*d : (r+1)*d]
		switch {
		case r >= h:
			clear(row)
		case ks == 1:
			copy(row, a[r*rs:][:d])
		default:
			for p := range row {
				row[p] = a[r*rs+p*ks]
			}
		}
	}
	return ap
}

// addEdge adds the first h rows and w columns of the scratch tile e (row
// stride 16) into c (row stride ldc).
func addEdge(c []float32, ldc int, e []float32, h, w int) {
	for r := 0; r < h; r++ {
		crow := c[r*ldc : r*ldc+w]
		for j := range crow {
			crow[j] += e[r*nr+j]
		}
	}
}

// BiasReLU adds bias to every row of c ([rows][len(bias)]) and keeps each
// sum where it is greater than zero, else +0 (so −0 and NaN become +0; the
// x86 max instruction's rule, which the assembly loops use): a
// convolution's epilogue. c's length must be a multiple of len(bias).
func BiasReLU(c, bias []float32) {
	f := len(bias)
	if f == 0 || len(c) < f {
		return
	}
	rows := len(c) / f
	if biasReLUAsm != nil && biasReLUAsm(c, bias, rows) {
		return
	}
	for r := 0; r < rows; r++ {
		row := c[r*f : (r+1)*f]
		for j, v := range row {
			// Branchless (a mispredicted branch per negative sum costs as
			// much as the product): keep v's bits where they are those of a
			// number > 0, that is a positive sign and 0 < bits ≤ +Inf.
			b := math.Float32bits(v + bias[j])
			row[j] = math.Float32frombits(b &^ notPositive(b))
		}
	}
}

// notPositive is all ones where b is not the bits of a number > 0 (a
// negative sign, ±0 or a NaN), else 0: the branchless test of BiasReLU's
// and ReLUGrad's Go loops.
func notPositive(b uint32) uint32 {
	return uint32((int64(int32(b))-1)>>63 | (0x7f800000-int64(b))>>63)
}

// biasReLUAsm is BiasReLU's assembly loop where the CPU has one; it
// returns false for a row length it does not take.
var biasReLUAsm func(c, bias []float32, rows int) bool

// ReLUGrad passes a gradient back through a ReLU: dst[i] = g[i] where the
// ReLU's output y[i] > 0, else +0 (a NaN y gives +0), for i < len(dst);
// y and g are at least as long. dst may be g.
func ReLUGrad(dst, y, g []float32) {
	n := len(dst)
	y, g = y[:n], g[:n]
	i := 0
	if reluGradAsm != nil && n >= 8 {
		i = n &^ 7
		reluGradAsm(dst, y, g, i)
	}
	for ; i < n; i++ {
		// Branchless (BiasReLU says why): drop g unless y's bits are those
		// of a number > 0.
		dst[i] = math.Float32frombits(math.Float32bits(g[i]) &^ notPositive(math.Float32bits(y[i])))
	}
}

// reluGradAsm is ReLUGrad's assembly loop for the first n elements (a
// multiple of 8) where the CPU has one.
var reluGradAsm func(dst, y, g []float32, n int)
