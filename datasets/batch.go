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

// reset takes fresh (zeroed) buffers for the next batch; the previous ones
// belong to the record made from them.
func (b *batch) reset() {
	m, n := b.meta, b.rows
	bits := int(bitutil.BytesForBits(int64(n)))
	alloc := func(i, size int) []byte {
		buf := memory.NewResizableBuffer(b.mem)
		buf.Resize(size)
		b.bufs[i] = buf
		return buf.Bytes()
	}
	b.episode = arrow.Uint64Traits.CastFromBytes(alloc(bufEpisode, 8*n))
	b.step = arrow.Int32Traits.CastFromBytes(alloc(bufStep, 4*n))
	b.seat = alloc(bufSeat, n)
	b.state = arrow.Uint64Traits.CastFromBytes(alloc(bufState, 8*n*m.StateWords))
	b.action = arrow.Int32Traits.CastFromBytes(alloc(bufAction, 4*n))
	b.heads = nil
	if m.Heads > 1 {
		b.heads = arrow.Int32Traits.CastFromBytes(alloc(bufHeads, 4*n*m.Heads))
	}
	b.move = arrow.Int16Traits.CastFromBytes(alloc(bufMove, 2*n*MoveWidth))
	b.legal = arrow.Uint64Traits.CastFromBytes(alloc(bufLegal, 8*n*m.MaskWords))
	b.reward = arrow.Float32Traits.CastFromBytes(alloc(bufReward, 4*n))
	b.done = alloc(bufDone, bits)
	b.trunc = alloc(bufTrunc, bits)
	b.policy = alloc(bufPolicy, bits)
	b.logp = arrow.Float32Traits.CastFromBytes(alloc(bufLogp, 4*n))
	b.value = arrow.Float32Traits.CastFromBytes(alloc(bufValue, 4*n))
	b.agent = arrow.Int32Traits.CastFromBytes(alloc(bufAgent, 4*n))
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
	bits := int(bitutil.BytesForBits(int64(n)))
	// buf trims buffer i to the n rows (its capacity is kept).
	buf := func(i, size int) *memory.Buffer {
		b.bufs[i].ResizeNoShrink(size)
		return b.bufs[i]
	}
	prim := func(dt arrow.DataType, i, size int) arrow.ArrayData {
		return array.NewData(dt, n, []*memory.Buffer{nil, buf(i, size)}, nil, 0, 0)
	}
	list := func(i, width int, elem arrow.DataType, size int) arrow.ArrayData {
		child := array.NewData(elem, n*width, []*memory.Buffer{nil, buf(i, n*width*size)}, nil, 0, 0)
		defer child.Release()
		return array.NewData(fixedList(width, elem), n, []*memory.Buffer{nil}, []arrow.ArrayData{child}, 0, 0)
	}
	var policy *memory.Buffer
	if b.nulls > 0 {
		policy = buf(bufPolicy, bits)
	}
	nullable := func(dt arrow.DataType, i int) arrow.ArrayData {
		return array.NewData(dt, n, []*memory.Buffer{policy, buf(i, 4*n)}, nil, b.nulls, 0)
	}
	zs := array.NewSlice(zeros, 0, int64(n))
	defer zs.Release()
	data := []arrow.ArrayData{
		prim(arrow.PrimitiveTypes.Uint64, bufEpisode, 8*n),
		prim(arrow.PrimitiveTypes.Int32, bufStep, 4*n),
		prim(arrow.PrimitiveTypes.Uint8, bufSeat, n),
		list(bufState, m.StateWords, arrow.PrimitiveTypes.Uint64, 8),
		prim(arrow.PrimitiveTypes.Int32, bufAction, 4*n),
	}
	if m.Heads > 1 {
		data = append(data, list(bufHeads, m.Heads, arrow.PrimitiveTypes.Int32, 4))
	}
	data = append(data,
		list(bufMove, MoveWidth, arrow.PrimitiveTypes.Int16, 2),
		list(bufLegal, m.MaskWords, arrow.PrimitiveTypes.Uint64, 8),
		prim(arrow.PrimitiveTypes.Float32, bufReward, 4*n),
		prim(arrow.FixedWidthTypes.Boolean, bufDone, bits),
		prim(arrow.FixedWidthTypes.Boolean, bufTrunc, bits),
		nullable(arrow.PrimitiveTypes.Float32, bufLogp),
		nullable(arrow.PrimitiveTypes.Float32, bufValue),
		prim(arrow.PrimitiveTypes.Int32, bufAgent, 4*n),
	)
	cols := make([]arrow.Array, 0, len(data)+2)
	cols = append(cols, array.NewDictionaryArray(dictString, zs, game), array.NewDictionaryArray(dictString, zs, run))
	for _, d := range data[:len(data)-1] {
		cols = append(cols, array.MakeFromData(d))
		d.Release()
	}
	idx := array.MakeFromData(data[len(data)-1])
	data[len(data)-1].Release()
	cols = append(cols, array.NewDictionaryArray(dictString, idx, agents))
	idx.Release()
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
