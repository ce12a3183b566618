package datasets

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow/go/v14/arrow/array"
	"github.com/apache/arrow/go/v14/arrow/ipc"
	"github.com/apache/arrow/go/v14/arrow/memory"

	"github.com/gridgym/gridgym/rules"
)

// synthMeta describes shards of a made-up game (no rules needed): the
// batch code only looks at the widths.
func synthMeta(heads int) Meta {
	return Meta{
		SchemaVersion: SchemaVersion, RunID: "synth", Game: "synth", Params: "{}", Seed: 1,
		Agents: []string{"a", "b", "c"}, CodeVersion: "test",
		StateWords: 3, MaskWords: 2, Heads: heads, Reward: "rank",
		Created: time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC),
	}
}

// synthRow is row i of a synthetic episode: every field depends on i, and
// policy, done and truncated are set on some rows only, so that bitmaps
// with set and unset bits and a partly-null policy pair are exercised.
func synthRow(m Meta, i int) Row {
	r := Row{
		EpisodeID: uint64(7 + i/10), Step: int32(i % 10), Seat: uint8(i % 4),
		State:  []uint64{uint64(i), uint64(i) << 40, ^uint64(i)},
		Legal:  []uint64{uint64(i) * 3, 1 << uint(i%64)},
		Reward: float32(i) / 4, Done: i%10 == 9, Truncated: i%7 == 3,
		Agent: m.Agents[i%len(m.Agents)],
		Move:  rules.Move{Kind: rules.MoveKind(i % 3), N: uint8(i % 5), Arg: [8]int16{int16(i), -int16(i), 3}},
	}
	for h := 0; h < m.Heads; h++ {
		r.Action = append(r.Action, int32(i*10+h))
	}
	if i%3 == 1 {
		r.HasPolicy, r.LogP, r.Value = true, -float32(i)/8, float32(i%5)/5
	}
	return r
}

// A batch's record holds exactly the rows added, for one head and several,
// with and without nulls in the policy pair, and hands every buffer back to
// the allocator once the record is released.
func TestBatchRecord(t *testing.T) {
	for _, tc := range []struct {
		heads, rows, capacity int
		policy                bool // some rows carry a policy
	}{
		{1, 37, 64, true}, {4, 64, 64, true}, {2, 5, 8, false}, {1, 1, 1, true},
	} {
		t.Run(fmt.Sprintf("heads=%d rows=%d", tc.heads, tc.rows), func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			m := synthMeta(tc.heads)
			schema, err := Schema(m)
			if err != nil {
				t.Fatal(err)
			}
			game, run, agents := stringArray(mem, m.Game), stringArray(mem, m.RunID), stringArray(mem, m.Agents...)
			zb := array.NewInt32Builder(mem)
			zb.AppendValues(make([]int32, tc.capacity), nil)
			zeros := zb.NewInt32Array()
			zb.Release()

			b := newBatch(m, mem, tc.capacity)
			var want []Row
			for i := 0; i < tc.rows; i++ {
				r := synthRow(m, i)
				if !tc.policy {
					r.HasPolicy, r.LogP, r.Value = false, 0, 0
				}
				want = append(want, r)
				b.add(&r, int32(i%len(m.Agents)))
			}
			if b.full() != (tc.rows == tc.capacity) {
				t.Fatalf("full() = %v with %d of %d rows", b.full(), tc.rows, tc.capacity)
			}
			rec := b.record(schema, zeros, game, run, agents)
			if b.n != 0 {
				t.Fatalf("after record the batch holds %d rows, want 0", b.n)
			}
			if err := CheckSchema(rec.Schema(), m); err != nil {
				t.Fatal(err)
			}
			if int(rec.NumRows()) != tc.rows {
				t.Fatalf("record has %d rows, want %d", rec.NumRows(), tc.rows)
			}
			var dec rowDecoder
			if err := dec.bind(rec, m); err != nil {
				t.Fatal(err)
			}
			for i, w := range want {
				got := dec.row(i)
				if !reflect.DeepEqual(got.Clone(), w) {
					t.Fatalf("row %d:\n got %+v\nwant %+v", i, got, w)
				}
			}
			rec.Release()
			b.releaseBufs()
			for _, a := range []interface{ Release() }{game, run, agents, zeros} {
				a.Release()
			}
			mem.AssertSize(t, 0)
		})
	}
}

// failAfter is an io.Writer that fails once n bytes have been written.
type failAfter struct{ n int }

var errDiskFull = errors.New("disk full")

func (f *failAfter) Write(p []byte) (int, error) {
	if len(p) > f.n {
		return 0, errDiskFull
	}
	f.n -= len(p)
	return len(p), nil
}

// A write that fails in the background comes back, naming the file, from
// the next batch handed over or from wait, and every batch queued after it
// is released unwritten (the batches' allocator ends empty; the IPC writer
// and the dictionaries use their own: Arrow keeps those after a failed
// write).
func TestBatchWriterError(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	m := synthMeta(1)
	schema, err := Schema(m)
	if err != nil {
		t.Fatal(err)
	}
	// The dictionaries stay with the IPC writer too.
	dm := memory.DefaultAllocator
	game, run, agents := stringArray(dm, m.Game), stringArray(dm, m.RunID), stringArray(dm, m.Agents...)
	zb := array.NewInt32Builder(dm)
	zb.AppendValues(make([]int32, 256), nil)
	zeros := zb.NewInt32Array()
	zb.Release()
	fw, err := ipc.NewFileWriter(&countWriter{w: &failAfter{n: 4096}}, ipc.WithSchema(schema), ipc.WithZstd())
	if err != nil {
		t.Fatal(err)
	}
	bw := newBatchWriter(fw, "shard-000001.arrow.tmp")
	b := newBatch(m, mem, 256)
	var werr error
	for k := 0; k < 20 && werr == nil; k++ {
		for i := 0; i < 256; i++ {
			r := synthRow(m, k*256+i)
			b.add(&r, 0)
		}
		werr = bw.write(b.record(schema, zeros, game, run, agents))
	}
	if werr == nil {
		werr = bw.wait()
	}
	if !errors.Is(werr, errDiskFull) || !strings.Contains(werr.Error(), "shard-000001.arrow.tmp") {
		t.Fatalf("error %v: want the disk-full error naming the file", werr)
	}
	if err := bw.wait(); !errors.Is(err, errDiskFull) {
		t.Fatalf("wait again: %v", err)
	}
	b.releaseBufs()
	for _, a := range []interface{ Release() }{game, run, agents, zeros} {
		a.Release()
	}
	mem.AssertSize(t, 0)
}

// A batch on a Writer's pool fills buffers that earlier batches used: the
// rows of a later batch must read back exactly, with no byte of the earlier
// rows showing through (null policy slots and unset bits included).
func TestBatchReusesPoolBuffers(t *testing.T) {
	m := synthMeta(2)
	schema, err := Schema(m)
	if err != nil {
		t.Fatal(err)
	}
	pool := newPoolAllocator(1 << 20)
	game, run, agents := stringArray(pool, m.Game), stringArray(pool, m.RunID), stringArray(pool, m.Agents...)
	zb := array.NewInt32Builder(pool)
	zb.AppendValues(make([]int32, 50), nil)
	zeros := zb.NewInt32Array()
	zb.Release()
	b := newBatch(m, pool, 50)
	// Two full batches: the buffers of the first are back in the pool when
	// the second is recorded, and the third batch is filled in them.
	for k := 0; k < 2; k++ {
		for i := 0; i < 50; i++ {
			r := synthRow(m, i)
			r.Done, r.Truncated, r.HasPolicy, r.LogP, r.Value = true, true, true, 9, 9
			b.add(&r, 2)
		}
		b.record(schema, zeros, game, run, agents).Release()
	}
	var want []Row
	for i := 0; i < 30; i++ {
		r := synthRow(m, 1000+i)
		want = append(want, r)
		b.add(&r, int32((1000+i)%len(m.Agents)))
	}
	rec := b.record(schema, zeros, game, run, agents)
	defer rec.Release()
	var dec rowDecoder
	if err := dec.bind(rec, m); err != nil {
		t.Fatal(err)
	}
	logp := rec.Column(rec.Schema().FieldIndices(ColPolicyLogP)[0]).(*array.Float32).Float32Values()
	for i, w := range want {
		if got := dec.row(i).Clone(); !reflect.DeepEqual(got, w) {
			t.Fatalf("row %d:\n got %+v\nwant %+v", i, got, w)
		}
		if !w.HasPolicy && logp[i] != 0 {
			t.Fatalf("row %d: null policy slot holds %v, want 0", i, logp[i])
		}
	}
}
