package sgemm

// A 3×3 convolution with many channels by Winograd's minimal filtering
// F(2×2, 3×3) (Lavin and Gray, 2015): each 2×2 block of outputs (a tile)
// is read from the 4×4 cells around it, transformed (V = Bᵀ·d·B), multiplied
// element by element with the transformed filter (U = G·g·Gᵀ) summed over
// the channels, and transformed back (Y = Aᵀ·M·A). The sum over channels is
// sixteen matrix products, one per element of the 4×4 tile: M[e] = V[e]·U[e]
// with the tiles as rows, the input channels as depth and the filters as
// columns, 16·c·f multiply-adds per tile where the direct product takes
// 4·9·c·f (2.25× as many) and, on a padded image (pad.go), also computes the
// zero cells between its rows (12% more on an 8×8 board). The transforms
// add and subtract only (G's halves are exact), so the results differ from
// the direct product's by float rounding alone; they are the same bits
// whatever the grouping of images into products, the number of workers or
// the micro-kernel (each element of M is one GemmSegs chain, and the
// transforms' assembly does the same operations in the same order as their
// Go form). The transforms cost about as much per tile as 2·c + 1.5·f
// multiply-adds, so the products pay for them with tens of channels and
// filters (WinoWorth), not with a handful.
//
// Tiles need an image of even height and width (WinoOK): tile (ty, tx)
// reads padded rows 2ty..2ty+3 and padded columns 2tx..2tx+3 (PadImage's
// layout: padded column w+1 of a row is the next row's zero cell).

// winoE is the elements of a transformed tile (4×4).
const winoE = 16

// WinoOK reports whether an h×w image splits into 2×2 tiles (Winograd).
func WinoOK(h, w int) bool { return h > 0 && w > 0 && h%2 == 0 && w%2 == 0 }

// WinoWorth reports whether a 3×3 convolution of c channels to n filters
// on an h×w image is faster by Winograd than by GemmSegs: on the 2-core AMD
// EPYC measured, 1.7× for 64 to 64 channels on 8×8 boards (with the
// transforms), 1.3× for 16 to 16 on 20×20; the channel counts multiples of
// 8 (the transforms' assembly takes those; their Go form would cost more
// than the products save).
func WinoWorth(c, n, h, w int) bool {
	return WinoOK(h, w) && c >= 16 && n >= 16 && c%8 == 0 && n%8 == 0
}

// WinoTiles is the tiles of an h×w image (WinoOK).
func WinoTiles(h, w int) int { return h / 2 * (w / 2) }

// WinoRows is the rows of the products of a group of images, their tiles
// rounded up to whole micro-tiles (the rows past the tiles are garbage).
func WinoRows(images, h, w int) int {
	return (images*WinoTiles(h, w) + maxMR - 1) / maxMR * maxMR
}

// WinoGroup is how many images to transform into one WinoProduct for c
// channels and n filters on an h×w image: enough for about a hundred rows
// (each micro-kernel call then runs many tiles), few enough that the
// transformed tiles and products (16·rows·c and 16·rows·n floats) stay in
// a core's L2 cache.
func WinoGroup(c, n, h, w int) int { return max(1, 6144/max(c, n, 1)/WinoTiles(h, w)) }

// winoStride is the floats from one element's matrix of transformed tiles
// or products to the next, for rows rows of c: a cache line more than the
// matrix, so that the sixteen rows a tile's transform reads or writes do
// not all fall in one set of the L1 cache (with rows·c a multiple of 1024
// floats they did, and the input transform took twice as long).
func winoStride(rows, c int) int { return rows*c + 16 }

// WinoLen is the length of the sixteen matrices of rows rows of c
// (WinoInput's v, WinoProduct's m).
func WinoLen(rows, c int) int { return winoE * winoStride(rows, c) }

// WinoPackedLen is the length of a filter transformed by WinoFilter for c
// input channels and n filters: sixteen packed c×n matrices.
func WinoPackedLen(c, n int) int { return winoE * PackedLen(c, n) }

// WinoFilter transforms a 3×3 filter w ([f][c][3][3], PyTorch's layout)
// into dst (WinoPackedLen): element e's matrix packed as PackB packs it. For
// the forward convolution (grad false) it maps c channels to f filters
// (U[e][ch][fi] = (G·w[fi][ch]·Gᵀ)[e]); for the gradient with respect to
// the input (grad true) it maps f channels to c: the filter flipped and
// transposed, U[e][fi][ch] = (G·w̃·Gᵀ)[e] where w̃ is w[fi][ch] with its
// nine taps in reverse order (conv3GradInput's wf in train/graph).
func WinoFilter(dst, w []float32, f, c int, grad bool) {
	k, n := c, f
	if grad {
		k, n = f, c
	}
	plen := PackedLen(k, n)
	dst = dst[:winoE*plen]
	var g [9]float32
	var u [winoE]float32
	var tile [winoE][nr]float32 // the transforms of 16 columns, element by element
	// Row p of panel j0/16 of every element's matrix at once: sixteen
	// whole cache lines written (tile by tile, each of the sixteen stores
	// fell in one L1 set, the matrices being a multiple of 4 KiB apart).
	for p := 0; p < k; p++ {
		for j0 := 0; j0 < n; j0 += nr {
			tile = [winoE][nr]float32{} // the columns past n stay zero
			for jj := range min(nr, n-j0) {
				fi, ch := j0+jj, p // filter and channel of column j0+jj
				if grad {
					fi, ch = p, j0+jj
				}
				src := (*[9]float32)(w[(fi*c+ch)*9 : (fi*c+ch)*9+9])
				if grad {
					for t := range g {
						g[t] = src[8-t]
					}
				} else {
					g = *src
				}
				winoFilterTile(&u, &g)
				for e, v := range u {
					tile[e][jj] = v
				}
			}
			at := (j0/nr)*k*nr + p*nr
			for e := range tile {
				*(*[nr]float32)(dst[e*plen+at : e*plen+at+nr]) = tile[e]
			}
		}
	}
}

// winoFilterTile is U = G·g·Gᵀ for one 3×3 filter g (row-major), G =
// [1 0 0; ½ ½ ½; ½ −½ ½; 0 0 1].
func winoFilterTile(u *[winoE]float32, g *[9]float32) {
	var t [12]float32 // G·g, 4×3
	for x := 0; x < 3; x++ {
		a, b, c := g[x], g[3+x], g[6+x]
		t[x], t[3+x], t[6+x], t[9+x] = a, (a+b+c)*0.5, (a-b+c)*0.5, c
	}
	for r := 0; r < 4; r++ {
		a, b, c := t[3*r], t[3*r+1], t[3*r+2]
		u[4*r], u[4*r+1], u[4*r+2], u[4*r+3] = a, (a+b+c)*0.5, (a-b+c)*0.5, c
	}
}

// WinoInput transforms the tiles of one padded h×w image of c channels
// (pad, PadImage's layout) into rows row0.. of the sixteen matrices of v
// (WinoLen(rows, c) floats: element e's matrix at v[e·winoStride(rows, c):],
// one row of c per tile, tiles in row order).
func WinoInput(v []float32, rows, row0 int, pad []float32, c, h, w int) {
	pw := PadPitch(w)
	es := winoStride(rows, c)
	_ = v[(winoE-1)*es+(row0+WinoTiles(h, w))*c-1]
	_ = pad[((h+1)*pw+w+2)*c-1]
	r := row0
	for ty := 0; ty < h/2; ty++ {
		for tx := 0; tx < w/2; tx++ {
			d := pad[(2*ty*pw+2*tx)*c:]
			if winoInAsm != nil && c%8 == 0 {
				winoInAsm(c, d, pw*c, v[r*c:], es)
			} else {
				winoInGo(c, d, pw*c, v[r*c:], es)
			}
			r++
		}
	}
}

// winoInGo is one tile's input transform, V = Bᵀ·d·B with Bᵀ = [1 0 −1 0;
// 0 1 1 0; 0 −1 1 0; 0 1 0 −1], channel by channel: d's cell (y, x) at
// d[y·rs + x·c], V's element e at v[e·es]. The assembly form does the same
// operations in the same order.
func winoInGo(c int, d []float32, rs int, v []float32, es int) {
	for ch := 0; ch < c; ch++ {
		var x [winoE]float32 // Bᵀ·d, row by row
		for col := 0; col < 4; col++ {
			d0, d1 := d[col*c+ch], d[rs+col*c+ch]
			d2, d3 := d[2*rs+col*c+ch], d[3*rs+col*c+ch]
			x[col], x[4+col], x[8+col], x[12+col] = d0-d2, d1+d2, d2-d1, d1-d3
		}
		for row := 0; row < 4; row++ {
			x0, x1, x2, x3 := x[4*row], x[4*row+1], x[4*row+2], x[4*row+3]
			o := 4 * row * es
			v[o+ch], v[o+es+ch], v[o+2*es+ch], v[o+3*es+ch] = x0-x2, x1+x2, x2-x1, x1-x3
		}
	}
}

// WinoProduct computes the sixteen products M[e] = V[e]·U[e] (rows rows, k
// deep, n columns; v from WinoInput, up from WinoFilter) into m (element
// e's matrix at m[e·winoStride(rows, n):]), on the calling goroutine.
func WinoProduct(m, v []float32, rows, k, n int, up []float32) {
	plen := PackedLen(k, n)
	segs := [1]Seg{{Off: 0, Len: k}}
	vs, ms := winoStride(rows, k), winoStride(rows, n)
	for e := 0; e < winoE; e++ {
		me := m[e*ms : e*ms+rows*n]
		clear(me)
		GemmSegs(rows, n, v[e*vs:e*vs+rows*k], k, segs[:], up[e*plen:(e+1)*plen], me, n)
	}
}

// WinoOutput transforms rows row0.. of the products m (WinoProduct, n
// columns) back into one h×w image's cells: cell (y, x) at dst[base +
// (y·pitch + x)·n], n floats (pitch w for plain rows, PadPitch(w) for a
// padded image with base its first inner cell's offset).
func WinoOutput(dst []float32, base, pitch int, m []float32, rows, row0, n, h, w int) {
	es := winoStride(rows, n)
	_ = m[(winoE-1)*es+(row0+WinoTiles(h, w))*n-1]
	_ = dst[base+((h-1)*pitch+w)*n-1]
	r := row0
	for ty := 0; ty < h/2; ty++ {
		for tx := 0; tx < w/2; tx++ {
			y := dst[base+(2*ty*pitch+2*tx)*n:]
			if winoOutAsm != nil && n%8 == 0 {
				winoOutAsm(n, m[r*n:], es, y, pitch*n)
			} else {
				winoOutGo(n, m[r*n:], es, y, pitch*n)
			}
			r++
		}
	}
}

// winoOutGo is one tile's output transform, Y = Aᵀ·M·A with Aᵀ = [1 1 1 0;
// 0 1 −1 −1], column by column: M's element e at m[e·es], Y's cell (y, x)
// at dst[y·rs + x·n]. The assembly form does the same operations in the
// same order.
func winoOutGo(n int, m []float32, es int, dst []float32, rs int) {
	for j := 0; j < n; j++ {
		var z [8]float32 // Aᵀ·M, 2×4
		for col := 0; col < 4; col++ {
			m0, m1, m2, m3 := m[col*es+j], m[(4+col)*es+j], m[(8+col)*es+j], m[(12+col)*es+j]
			z[col], z[4+col] = m0+m1+m2, m1-m2-m3
		}
		for row := 0; row < 2; row++ {
			z0, z1, z2, z3 := z[4*row], z[4*row+1], z[4*row+2], z[4*row+3]
			dst[row*rs+j], dst[row*rs+n+j] = z0+z1+z2, z1-z2-z3
		}
	}
}

// winoInAsm and winoOutAsm are winoInGo and winoOutGo for c, n multiples
// of 8, where the CPU has an assembly form.
var (
	winoInAsm      func(c int, d []float32, rs int, v []float32, es int)
	winoOutAsm     func(n int, m []float32, es int, dst []float32, rs int)
	winoGradOutAsm func(n int, g []float32, rs int, dm []float32, es int) // winoGradOutGo's
)

// The filter gradient of a Winograd convolution is the forward's products
// turned round: with dM = A·dY·Aᵀ the output gradient of each tile taken
// back through the output transform, the transformed filter's gradient is
// dU[e] = Σ over tiles V[e]ᵀ·dM[e] (c×n products, the tiles as depth), and
// the filter's is Gᵀ·dU·G. WinoGradOutput writes dM with its last row and
// column negated (A's last row is −1; the sign is folded into
// WinoGradFilter, exactly), so that the transform only adds and subtracts.

// WinoGradOutput transforms one image's output gradient g ([h·w][n], plain
// rows) into rows row0.. of the sixteen matrices of dm (element e's matrix
// at dm[e·winoStride(rows, n):], one row per tile; WinoLen(rows, n) floats): dM′ = A′·dY·A′ᵀ with A′ = [1 0; 1 1;
// 1 −1; 0 1] (A with its last row negated).
func WinoGradOutput(dm []float32, rows, row0 int, g []float32, n, h, w int) {
	es := winoStride(rows, n)
	_ = dm[(winoE-1)*es+(row0+WinoTiles(h, w))*n-1]
	_ = g[h*w*n-1]
	r := row0
	for ty := 0; ty < h/2; ty++ {
		for tx := 0; tx < w/2; tx++ {
			y := g[(2*ty*w+2*tx)*n:]
			if winoGradOutAsm != nil && n%8 == 0 {
				winoGradOutAsm(n, y, w*n, dm[r*n:], es)
			} else {
				winoGradOutGo(n, y, w*n, dm[r*n:], es)
			}
			r++
		}
	}
}

// winoGradOutGo is one tile's dM′ = A′·dY·A′ᵀ: dY's cell (y, x) at
// g[y·rs + x·n], dM′'s element e at dm[e·es]. The assembly form does the
// same operations in the same order.
func winoGradOutGo(n int, g []float32, rs int, dm []float32, es int) {
	for j := 0; j < n; j++ {
		y00, y01, y10, y11 := g[j], g[n+j], g[rs+j], g[rs+n+j]
		// A′·dY, 4×2: rows y0, y0 + y1, y0 − y1, y1.
		z := [8]float32{y00, y01, y00 + y10, y01 + y11, y00 - y10, y01 - y11, y10, y11}
		for row := 0; row < 4; row++ {
			z0, z1 := z[2*row], z[2*row+1]
			o := 4 * row * es
			dm[o+j], dm[o+es+j], dm[o+2*es+j], dm[o+3*es+j] = z0, z0+z1, z0-z1, z1
		}
	}
}

// WinoGradProduct adds (or, when first, writes) the sixteen products
// dU[e] += V[e]ᵀ·dM′[e] (c×n, over the first tiles rows of v and dm, laid
// out by WinoInput and WinoGradOutput with rows rows) into du ([16][c][n]),
// on the calling goroutine.
func WinoGradProduct(du, v, dm []float32, rows, tiles, c, n int, first bool) {
	beta := float32(1)
	if first {
		beta = 0
	}
	vs, ms := winoStride(rows, c), winoStride(rows, n)
	for e := 0; e < winoE; e++ {
		GemmWorkers(1, true, false, c, n, tiles, v[e*vs:], c, dm[e*ms:], n, beta, du[e*c*n:(e+1)*c*n], n)
	}
}

// WinoGradFilter writes the filter gradient dw ([f][c][3][3], PyTorch's
// layout) from the sum of WinoGradProduct's products du ([16][c][f]):
// Gᵀ·dU·G per channel and filter, dU's last row and column negated back.
func WinoGradFilter(dw, du []float32, f, c int) {
	var x [winoE]float32
	var t [12]float32 // Gᵀ·dU, 3×4
	for ch := 0; ch < c; ch++ {
		for fi := 0; fi < f; fi++ {
			for e := range x {
				x[e] = du[(e*c+ch)*f+fi]
				if (e/4 == 3) != (e%4 == 3) {
					x[e] = -x[e]
				}
			}
			// Gᵀ = [1 ½ ½ 0; 0 ½ −½ 0; 0 ½ ½ 1], on the columns then the rows.
			for b := 0; b < 4; b++ {
				x0, x1, x2, x3 := x[b], x[4+b], x[8+b], x[12+b]
				t[b], t[4+b], t[8+b] = x0+(x1+x2)*0.5, (x1-x2)*0.5, (x1+x2)*0.5+x3
			}
			o := dw[(fi*c+ch)*9 : (fi*c+ch)*9+9]
			for ky := 0; ky < 3; ky++ {
				x0, x1, x2, x3 := t[4*ky], t[4*ky+1], t[4*ky+2], t[4*ky+3]
				o[3*ky], o[3*ky+1], o[3*ky+2] = x0+(x1+x2)*0.5, (x1-x2)*0.5, (x1+x2)*0.5+x3
			}
		}
	}
}
