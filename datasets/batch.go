package datasets

import (
	"github.com/apache/arrow/go/v14/arrow"
	"github.com/apache/arrow/go/v14/arrow/array"
	"github.com/apache/arrow/go/v14/arrow/bitutil"
	"github.com/apache/arrow/go/v14/arrow/memory"
)

// batch is the record batch a Writer is filling: one pool buffer per column,
// written in place row by row. Arrow's builders are not used because their
// per-value validity bookkeeping cost as much as the copying itself (a
// fixed-size list's child builder sets a validity bit for every word);
// these columns have no nulls except the policy pair, whose validity bitmap
// is kept here directly.
type batch struct {
	meta Meta
	mem  memory.Allocator
	rows int // capacity in rows
	n    int // rows filled

	bufs [colBuffers]*memory.Buffer // owned until record hands them over

	episode []uint64
	step    []int32
	seat    []uint8
	state   []uint64 // rows × StateWords
	action  []int32
	heads   []int32 // rows × Heads; nil when Heads == 1
	move    []int16 // rows × MoveWidth
	legal   []uint64
	reward  []float32
	done    []byte // bitmaps
	trunc   []byte
	policy  []byte // validity of logp and value
	logp    []float32
	value   []float32
	agent   []int32 // agent dictionary indices
	nulls   int     // rows without policy
}

// The buffers of a batch, in bufs.
const (
	bufEpisode = iota
	bufStep
	bufSeat
	bufState
	bufAction
	bufHeads
	bufMove
	bufLegal
	bufReward
	bufDone
	bufTrunc
	bufPolicy
	bufLogp
	bufValue
	bufAgent
	colBuffers
)

func newBatch(meta Meta, mem memory.Allocator, rows int) *batch {
	b := &batch{meta: meta, mem: mem, rows: rows}
	b.reset()
	return b
}

// size returns the bytes buffer i takes for n rows (bitmaps: a bit a row).
func (b *batch) size(i, n int) int {
	m := b.meta
	switch i {
	case bufEpisode:
		return 8 * n
	case bufSeat:
		return n
	case bufState:
		return 8 * n * m.StateWords
	case bufHeads:
		return 4 * n * m.Heads
	case bufMove:
		return 2 * n * MoveWidth
	case bufLegal:
		return 8 * n * m.MaskWords
	case bufDone, bufTrunc, bufPolicy:
		return int(bitutil.BytesForBits(int64(n)))
	}
	return 4 * n // the int32 and float32 columns
}

// reset takes fresh (zeroed) buffers for the next batch; the previous ones
// belong to the record made from them.
func (b *batch) reset() {
	alloc := func(i int) []byte {
		buf := memory.NewResizableBuffer(b.mem)
		buf.Resize(b.size(i, b.rows))
		b.bufs[i] = buf
		return buf.Bytes()
	}
	b.episode = arrow.Uint64Traits.CastFromBytes(alloc(bufEpisode))
	b.step = arrow.Int32Traits.CastFromBytes(alloc(bufStep))
	b.seat = alloc(bufSeat)
	b.state = arrow.Uint64Traits.CastFromBytes(alloc(bufState))
	b.action = arrow.Int32Traits.CastFromBytes(alloc(bufAction))
	b.heads = nil
	if b.meta.Heads > 1 {
		b.heads = arrow.Int32Traits.CastFromBytes(alloc(bufHeads))
	}
	b.move = arrow.Int16Traits.CastFromBytes(alloc(bufMove))
	b.legal = arrow.Uint64Traits.CastFromBytes(alloc(bufLegal))
	b.reward = arrow.Float32Traits.CastFromBytes(alloc(bufReward))
	b.done = alloc(bufDone)
	b.trunc = alloc(bufTrunc)
	b.policy = alloc(bufPolicy)
	b.logp = arrow.Float32Traits.CastFromBytes(alloc(bufLogp))
	b.value = arrow.Float32Traits.CastFromBytes(alloc(bufValue))
	b.agent = arrow.Int32Traits.CastFromBytes(alloc(bufAgent))
	b.n, b.nulls = 0, 0
}

// full reports whether the batch has no room left.
func (b *batch) full() bool { return b.n == b.rows }

// add copies r into the next row; agent is r.Agent's dictionary index. The
// row's widths have been checked against the Meta.
func (b *batch) add(r *Row, agent int32) {
	i, sw, mw := b.n, b.meta.StateWords, b.meta.MaskWords
	b.episode[i] = r.EpisodeID
	b.step[i] = r.Step
	b.seat[i] = r.Seat
	copy(b.state[i*sw:(i+1)*sw], r.State)
	b.action[i] = r.Action[0]
	if h := b.meta.Heads; h > 1 {
		copy(b.heads[i*h:(i+1)*h], r.Action)
	}
	mv := b.move[i*MoveWidth : (i+1)*MoveWidth]
	mv[0], mv[1] = int16(r.Move.Kind), int16(r.Move.N)
	copy(mv[2:], r.Move.Arg[:])
	copy(b.legal[i*mw:(i+1)*mw], r.Legal)
	b.reward[i] = r.Reward
	if r.Done {
		bitutil.SetBit(b.done, i)
	}
	if r.Truncated {
		bitutil.SetBit(b.trunc, i)
	}
	if r.HasPolicy {
		bitutil.SetBit(b.policy, i)
		b.logp[i], b.value[i] = r.LogP, r.Value
	} else {
		b.nulls++
	}
	b.agent[i] = agent
	b.n++
}

// record hands the filled rows over as a record batch of schema (whose
// dictionary columns take the indices zeros, game, run and agents) and
// resets the batch for the next rows.
func (b *batch) record(schema *arrow.Schema, zeros *array.Int32, game, run, agents arrow.Array) arrow.Record {
	n, m := b.n, b.meta
	// buf trims buffer i to the n rows (its capacity is kept).
	buf := func(i int) *memory.Buffer {
		b.bufs[i].ResizeNoShrink(b.size(i, n))
		return b.bufs[i]
	}
	prim := func(dt arrow.DataType, i int) arrow.Array {
		d := array.NewData(dt, n, []*memory.Buffer{nil, buf(i)}, nil, 0, 0)
		defer d.Release()
		return array.MakeFromData(d)
	}
	list := func(i, width int, elem arrow.DataType) arrow.Array {
		child := array.NewData(elem, n*width, []*memory.Buffer{nil, buf(i)}, nil, 0, 0)
		defer child.Release()
		d := array.NewData(fixedList(width, elem), n, []*memory.Buffer{nil}, []arrow.ArrayData{child}, 0, 0)
		defer d.Release()
		return array.MakeFromData(d)
	}
	var policy *memory.Buffer
	if b.nulls > 0 {
		policy = buf(bufPolicy)
	}
	nullable := func(dt arrow.DataType, i int) arrow.Array {
		d := array.NewData(dt, n, []*memory.Buffer{policy, buf(i)}, nil, b.nulls, 0)
		defer d.Release()
		return array.MakeFromData(d)
	}
	dict := func(idx, values arrow.Array) arrow.Array {
		defer idx.Release()
		return array.NewDictionaryArray(dictString, idx, values)
	}
	zs := array.NewSlice(zeros, 0, int64(n))
	zs.Retain() // dict releases one reference per column
	cols := []arrow.Array{
		dict(zs, game),
		dict(zs, run),
		prim(arrow.PrimitiveTypes.Uint64, bufEpisode),
		prim(arrow.PrimitiveTypes.Int32, bufStep),
		prim(arrow.PrimitiveTypes.Uint8, bufSeat),
		list(bufState, m.StateWords, arrow.PrimitiveTypes.Uint64),
		prim(arrow.PrimitiveTypes.Int32, bufAction),
	}
	if m.Heads > 1 {
		cols = append(cols, list(bufHeads, m.Heads, arrow.PrimitiveTypes.Int32))
	}
	cols = append(cols,
		list(bufMove, MoveWidth, arrow.PrimitiveTypes.Int16),
		list(bufLegal, m.MaskWords, arrow.PrimitiveTypes.Uint64),
		prim(arrow.PrimitiveTypes.Float32, bufReward),
		prim(arrow.FixedWidthTypes.Boolean, bufDone),
		prim(arrow.FixedWidthTypes.Boolean, bufTrunc),
		nullable(arrow.PrimitiveTypes.Float32, bufLogp),
		nullable(arrow.PrimitiveTypes.Float32, bufValue),
		dict(prim(arrow.PrimitiveTypes.Int32, bufAgent), agents),
	)
	rec := array.NewRecord(schema, cols, int64(n))
	for _, c := range cols {
		c.Release()
	}
	b.releaseBufs()
	b.reset()
	return rec
}

// releaseBufs drops the batch's references to its buffers (the arrays made
// from them hold their own).
func (b *batch) releaseBufs() {
	for i, buf := range b.bufs {
		if buf != nil {
			buf.Release()
			b.bufs[i] = nil
		}
	}
}
