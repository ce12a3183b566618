package datasets

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/apache/arrow/go/v14/arrow"
	"github.com/apache/arrow/go/v14/arrow/array"
	"github.com/apache/arrow/go/v14/arrow/ipc"
	"github.com/apache/arrow/go/v14/arrow/memory"
)

// WriterOptions tunes a Writer; zero fields take their defaults.
type WriterOptions struct {
	// RowsPerShard rolls over to a new shard before an episode that would
	// take the open shard past this many rows (default 1<<20). Episodes are
	// never split: an episode longer than RowsPerShard gets a shard of its own.
	RowsPerShard int
	// BatchRows is the length of the record batches. The default fills
	// about BatchBytes of uncompressed columns (between 4096 and 262144
	// rows): Arrow's IPC writer builds a fresh zstd encoder for every batch,
	// with a 16 MiB history it zeroes, so short batches pay that per few rows
	// (BenchmarkWrite: Slime rows cost 3× less at 65536 rows than at 16384).
	BatchRows int
	// BatchBytes is the uncompressed size the default BatchRows aims at
	// (default 48 MiB); the writer holds about one batch in memory.
	BatchBytes int
	// Prefix names the shards <Prefix>-NNNNNN.arrow (default "shard").
	Prefix string
	// CompressWorkers compresses a batch's columns on this many goroutines
	// (default 1: self-play keeps the other cores busy).
	CompressWorkers int
	// Compression is the IPC body codec: "zstd" (default; 2–3× smaller) or
	// "lz4" (about 2× faster to write for the fastest games).
	Compression string
}

func (o WriterOptions) withDefaults(meta Meta) WriterOptions {
	if o.RowsPerShard <= 0 {
		o.RowsPerShard = 1 << 20
	}
	if o.BatchBytes <= 0 {
		o.BatchBytes = 48 << 20
	}
	if o.BatchRows <= 0 {
		o.BatchRows = min(max(o.BatchBytes/rowBytes(meta), 4096), 1<<18)
	}
	if o.Prefix == "" {
		o.Prefix = "shard"
	}
	if o.CompressWorkers <= 0 {
		o.CompressWorkers = 1
	}
	if o.Compression == "" {
		o.Compression = "zstd"
	}
	return o
}

// WriterStats counts what a Writer has written.
type WriterStats struct {
	Rows     int64 // rows accepted (in finished shards and the open one)
	Episodes int64 // episodes accepted
	Shards   int   // shards finished (renamed to their final name)
	Bytes    int64 // bytes of the finished shards on disk
}

// Writer writes trajectory shards into a directory: zstd-compressed Arrow IPC
// files named <prefix>-NNNNNN.arrow, numbered on from the highest shard
// already there. A shard is written under the temporary name
// .<prefix>-NNNNNN.arrow.tmp and renamed only once complete and synced, so a
// final name never holds a torn file. A Writer is not safe for concurrent use.
type Writer struct {
	dir    string
	meta   Meta
	opts   WriterOptions
	schema *arrow.Schema
	mem    memory.Allocator

	// Column builders, reused batch after batch.
	episode   *array.Uint64Builder
	step      *array.Int32Builder
	seat      *array.Uint8Builder
	state     *array.FixedSizeListBuilder
	stateV    *array.Uint64Builder
	action    *array.Int32Builder
	heads     *array.FixedSizeListBuilder // nil when Heads == 1
	headsV    *array.Int32Builder
	move      *array.FixedSizeListBuilder
	moveV     *array.Int16Builder
	legal     *array.FixedSizeListBuilder
	legalV    *array.Uint64Builder
	reward    *array.Float32Builder
	done      *array.BooleanBuilder
	truncated *array.BooleanBuilder
	logp      *array.Float32Builder
	value     *array.Float32Builder
	agentIdx  *array.Int32Builder
	pending   int // rows in the builders

	// The fixed dictionaries (file-format IPC allows one dictionary per
	// column per file) and the all-zero indices of the one-value columns.
	gameDict, runDict, agentDict arrow.Array
	zeros                        *array.Int32
	agents                       map[string]int32
	moveBuf                      [MoveWidth]int16

	// The open shard.
	index int // number of the next shard to open
	f     *os.File
	buf   *bufio.Writer
	cw    *countWriter
	fw    *ipc.FileWriter
	tmp   string
	final string
	rows  int // rows in the open shard

	stats  WriterStats
	err    error // sticky: the first write error
	closed bool  // Close or Abort called
}

// NewWriter prepares a writer of shards described by meta into dir (created
// if missing). A zero meta.SchemaVersion means SchemaVersion. Nothing is
// created in dir until the first episode.
func NewWriter(dir string, meta Meta, opts WriterOptions) (*Writer, error) {
	if c := opts.Compression; c != "" && c != "zstd" && c != "lz4" {
		return nil, fmt.Errorf("datasets: compression %q: want zstd or lz4", c)
	}
	if meta.SchemaVersion == 0 {
		meta.SchemaVersion = SchemaVersion
	}
	schema, err := Schema(meta)
	if err != nil {
		return nil, err
	}
	opts = opts.withDefaults(meta)
	if strings.ContainsAny(opts.Prefix, `/\`) || strings.HasPrefix(opts.Prefix, ".") {
		return nil, fmt.Errorf("datasets: shard prefix %q: want a plain file name that does not start with '.'", opts.Prefix)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("datasets: %w", err)
	}
	next, err := nextShardIndex(dir, opts.Prefix)
	if err != nil {
		return nil, err
	}
	mem := newPoolAllocator(256 << 20)
	w := &Writer{dir: dir, meta: meta, opts: opts, schema: schema, mem: mem, index: next}
	w.episode = array.NewUint64Builder(mem)
	w.step = array.NewInt32Builder(mem)
	w.seat = array.NewUint8Builder(mem)
	w.state = array.NewFixedSizeListBuilder(mem, int32(meta.StateWords), arrow.PrimitiveTypes.Uint64)
	w.stateV = w.state.ValueBuilder().(*array.Uint64Builder)
	w.action = array.NewInt32Builder(mem)
	if meta.Heads > 1 {
		w.heads = array.NewFixedSizeListBuilder(mem, int32(meta.Heads), arrow.PrimitiveTypes.Int32)
		w.headsV = w.heads.ValueBuilder().(*array.Int32Builder)
	}
	w.move = array.NewFixedSizeListBuilder(mem, MoveWidth, arrow.PrimitiveTypes.Int16)
	w.moveV = w.move.ValueBuilder().(*array.Int16Builder)
	w.legal = array.NewFixedSizeListBuilder(mem, int32(meta.MaskWords), arrow.PrimitiveTypes.Uint64)
	w.legalV = w.legal.ValueBuilder().(*array.Uint64Builder)
	w.reward = array.NewFloat32Builder(mem)
	w.done = array.NewBooleanBuilder(mem)
	w.truncated = array.NewBooleanBuilder(mem)
	w.logp = array.NewFloat32Builder(mem)
	w.value = array.NewFloat32Builder(mem)
	w.agentIdx = array.NewInt32Builder(mem)

	w.gameDict = stringArray(mem, meta.Game)
	w.runDict = stringArray(mem, meta.RunID)
	w.agentDict = stringArray(mem, meta.Agents...)
	w.agents = make(map[string]int32, len(meta.Agents))
	for i, a := range meta.Agents {
		w.agents[a] = int32(i)
	}
	zb := array.NewInt32Builder(mem)
	zb.AppendValues(make([]int32, opts.BatchRows), nil)
	w.zeros = zb.NewInt32Array()
	zb.Release()
	w.reserve()
	return w, nil
}

// rowBytes is the uncompressed size of one row in the Arrow columns of
// meta's shards (validity bitmaps and dictionaries left out).
func rowBytes(meta Meta) int {
	n := 8 + 4 + 1 + 8*meta.StateWords + 4 + 2*MoveWidth + 8*meta.MaskWords + 4 + 4 + 4 + 4 + 4 + 4 + 1
	if meta.Heads > 1 {
		n += 4 * meta.Heads
	}
	return n
}

func stringArray(mem memory.Allocator, vals ...string) arrow.Array {
	b := array.NewStringBuilder(mem)
	defer b.Release()
	b.AppendValues(vals, nil)
	return b.NewArray()
}

// shardName matches finished and temporary shard names; group 1 is the
// temporary marker, 2 the prefix, 3 the number.
var shardName = regexp.MustCompile(`^(\.?)(.+)-([0-9]{6,})\.arrow(?:\.tmp)?$`)

// nextShardIndex returns one past the highest shard number of prefix in dir,
// finished or temporary, so a new writer never reuses a name.
func nextShardIndex(dir, prefix string) (int, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return 0, fmt.Errorf("datasets: %w", err)
	}
	next := 0
	for _, e := range ents {
		m := shardName.FindStringSubmatch(e.Name())
		if m == nil || m[2] != prefix {
			continue
		}
		if n, err := strconv.Atoi(m[3]); err == nil && n+1 > next {
			next = n + 1
		}
	}
	return next, nil
}

// reserve sizes the builders for one batch.
func (w *Writer) reserve() {
	n := w.opts.BatchRows
	w.episode.Reserve(n)
	w.step.Reserve(n)
	w.seat.Reserve(n)
	w.state.Reserve(n)
	w.stateV.Reserve(n * w.meta.StateWords)
	w.action.Reserve(n)
	if w.heads != nil {
		w.heads.Reserve(n)
		w.headsV.Reserve(n * w.meta.Heads)
	}
	w.move.Reserve(n)
	w.moveV.Reserve(n * MoveWidth)
	w.legal.Reserve(n)
	w.legalV.Reserve(n * w.meta.MaskWords)
	w.reward.Reserve(n)
	w.done.Reserve(n)
	w.truncated.Reserve(n)
	w.logp.Reserve(n)
	w.value.Reserve(n)
	w.agentIdx.Reserve(n)
}

// Meta returns the metadata the writer writes into every shard.
func (w *Writer) Meta() Meta { return w.meta }

// Dir returns the output directory.
func (w *Writer) Dir() string { return w.dir }

// Stats reports what has been written so far.
func (w *Writer) Stats() WriterStats { return w.stats }

// WriteEpisode appends one whole episode: every row of it, every seat, in
// the order they should be stored (all rows share one EpisodeID). The
// episode goes into the open shard, or into a new one if the open shard
// would pass RowsPerShard; a shard that reaches RowsPerShard is finished at
// once. Rows are copied: the caller may reuse them afterwards.
//
// An episode whose rows do not fit the Meta (widths, an agent missing from
// Meta.Agents, mixed episode IDs) is refused with an error and the writer
// stays usable. After a write error the writer is unusable: Abort it (Close
// also discards the open shard and returns that error).
func (w *Writer) WriteEpisode(rows []Row) error {
	if w.err != nil {
		return w.err
	}
	if w.closed {
		return errors.New("datasets: WriteEpisode after Close or Abort")
	}
	if len(rows) == 0 {
		return nil
	}
	if err := w.checkRows(rows); err != nil {
		return err // the episode is refused; the writer stays usable
	}
	if w.fw != nil && w.rows > 0 && w.rows+len(rows) > w.opts.RowsPerShard {
		if err := w.finishShard(); err != nil {
			return w.fail(err)
		}
	}
	if w.fw == nil {
		if err := w.openShard(); err != nil {
			return w.fail(err)
		}
	}
	for i := range rows {
		w.appendRow(&rows[i])
		if w.pending == w.opts.BatchRows {
			if err := w.flush(); err != nil {
				return w.fail(err)
			}
		}
	}
	w.rows += len(rows)
	w.stats.Rows += int64(len(rows))
	w.stats.Episodes++
	if w.rows >= w.opts.RowsPerShard {
		if err := w.finishShard(); err != nil {
			return w.fail(err)
		}
	}
	return nil
}

// checkRows checks an episode's rows against the metadata before any is
// written, so a bad episode leaves the shard as it was.
func (w *Writer) checkRows(rows []Row) error {
	ep := rows[0].EpisodeID
	for i := range rows {
		r := &rows[i]
		var err error
		switch {
		case r.EpisodeID != ep:
			err = fmt.Errorf("episode ID %d, the episode's first row has %d", r.EpisodeID, ep)
		case len(r.State) != w.meta.StateWords:
			err = fmt.Errorf("%d state words, meta says %d", len(r.State), w.meta.StateWords)
		case len(r.Legal) != w.meta.MaskWords:
			err = fmt.Errorf("%d mask words, meta says %d", len(r.Legal), w.meta.MaskWords)
		case len(r.Action) != w.meta.Heads:
			err = fmt.Errorf("%d action heads, meta says %d", len(r.Action), w.meta.Heads)
		default:
			if _, ok := w.agents[r.Agent]; !ok {
				err = fmt.Errorf("agent %q is not in Meta.Agents %q", r.Agent, w.meta.Agents)
			}
		}
		if err != nil {
			return fmt.Errorf("datasets: episode %d row %d (step %d, seat %d): %w", ep, i, r.Step, r.Seat, err)
		}
	}
	return nil
}

func (w *Writer) appendRow(r *Row) {
	w.episode.UnsafeAppend(r.EpisodeID)
	w.step.UnsafeAppend(r.Step)
	w.seat.UnsafeAppend(r.Seat)
	w.state.Append(true)
	w.stateV.AppendValues(r.State, nil)
	w.action.UnsafeAppend(r.Action[0])
	if w.heads != nil {
		w.heads.Append(true)
		w.headsV.AppendValues(r.Action, nil)
	}
	mb := &w.moveBuf
	mb[0], mb[1] = int16(r.Move.Kind), int16(r.Move.N)
	copy(mb[2:], r.Move.Arg[:])
	w.move.Append(true)
	w.moveV.AppendValues(mb[:], nil)
	w.legal.Append(true)
	w.legalV.AppendValues(r.Legal, nil)
	w.reward.UnsafeAppend(r.Reward)
	w.done.UnsafeAppend(r.Done)
	w.truncated.UnsafeAppend(r.Truncated)
	if r.HasPolicy {
		w.logp.UnsafeAppend(r.LogP)
		w.value.UnsafeAppend(r.Value)
	} else {
		w.logp.UnsafeAppendBoolToBitmap(false)
		w.value.UnsafeAppendBoolToBitmap(false)
	}
	w.agentIdx.UnsafeAppend(w.agents[r.Agent])
	w.pending++
}

// flush writes the builders' rows as one record batch.
func (w *Writer) flush() error {
	n := w.pending
	if n == 0 {
		return nil
	}
	zeros := array.NewSlice(w.zeros, 0, int64(n))
	defer zeros.Release()
	agentIdx := w.agentIdx.NewArray()
	defer agentIdx.Release()
	cols := []arrow.Array{
		array.NewDictionaryArray(dictString, zeros, w.gameDict),
		array.NewDictionaryArray(dictString, zeros, w.runDict),
		w.episode.NewArray(),
		w.step.NewArray(),
		w.seat.NewArray(),
		retype(w.state.NewArray(), w.schema.Field(5).Type),
		w.action.NewArray(),
	}
	if w.heads != nil {
		cols = append(cols, retype(w.heads.NewArray(), w.schema.Field(7).Type))
	}
	cols = append(cols,
		retype(w.move.NewArray(), w.schema.Field(len(cols)).Type),
		retype(w.legal.NewArray(), w.schema.Field(len(cols)+1).Type),
		w.reward.NewArray(),
		w.done.NewArray(),
		w.truncated.NewArray(),
		w.logp.NewArray(),
		w.value.NewArray(),
		array.NewDictionaryArray(dictString, agentIdx, w.agentDict),
	)
	rec := array.NewRecord(w.schema, cols, int64(n))
	for _, c := range cols {
		c.Release()
	}
	err := w.fw.Write(rec)
	rec.Release()
	w.pending = 0
	w.reserve()
	if err != nil {
		return fmt.Errorf("datasets: write %s: %w", w.tmp, err)
	}
	return nil
}

// retype returns a's data under type dt (the builders make fixed-size lists
// of nullable items; the schema says the items are never null), releasing a.
func retype(a arrow.Array, dt arrow.DataType) arrow.Array {
	d := a.Data()
	nd := array.NewData(dt, d.Len(), d.Buffers(), d.Children(), d.NullN(), d.Offset())
	a.Release()
	defer nd.Release()
	return array.MakeFromData(nd)
}

// countWriter is the io.WriteSeeker the IPC writer needs over a buffered
// file: it only ever asks for the current position.
type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

func (c *countWriter) Seek(offset int64, whence int) (int64, error) {
	if offset == 0 && whence == io.SeekCurrent {
		return c.n, nil
	}
	return 0, errors.New("datasets: seek on a shard being written")
}

func (w *Writer) openShard() error {
	name := fmt.Sprintf("%s-%06d.arrow", w.opts.Prefix, w.index)
	w.index++
	w.final = filepath.Join(w.dir, name)
	w.tmp = filepath.Join(w.dir, "."+name+".tmp")
	if _, err := os.Lstat(w.final); err == nil {
		return fmt.Errorf("datasets: shard %s already exists", w.final)
	}
	f, err := os.OpenFile(w.tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return fmt.Errorf("datasets: %w", err)
	}
	w.f = f
	w.buf = bufio.NewWriterSize(f, 1<<20)
	w.cw = &countWriter{w: w.buf}
	codec := ipc.WithZstd()
	if w.opts.Compression == "lz4" {
		codec = ipc.WithLZ4()
	}
	fw, err := ipc.NewFileWriter(w.cw, ipc.WithSchema(w.schema), ipc.WithAllocator(w.mem),
		codec, ipc.WithCompressConcurrency(w.opts.CompressWorkers))
	if err != nil {
		w.removeTemp()
		return fmt.Errorf("datasets: create %s: %w", w.tmp, err)
	}
	w.fw = fw
	w.rows = 0
	return nil
}

// finishShard flushes the open shard, writes its footer, syncs it, renames it
// to its final name and syncs the directory.
func (w *Writer) finishShard() error {
	if err := w.flush(); err != nil {
		return err
	}
	if err := w.fw.Close(); err != nil {
		return fmt.Errorf("datasets: finish %s: %w", w.tmp, err)
	}
	if err := w.buf.Flush(); err != nil {
		return fmt.Errorf("datasets: write %s: %w", w.tmp, err)
	}
	if err := w.f.Sync(); err != nil {
		return fmt.Errorf("datasets: sync %s: %w", w.tmp, err)
	}
	if err := w.f.Close(); err != nil {
		w.f = nil
		return fmt.Errorf("datasets: close %s: %w", w.tmp, err)
	}
	w.f = nil
	if err := os.Rename(w.tmp, w.final); err != nil {
		return fmt.Errorf("datasets: %w", err)
	}
	if err := syncDir(w.dir); err != nil {
		return fmt.Errorf("datasets: sync directory %s: %w", w.dir, err)
	}
	w.stats.Shards++
	w.stats.Bytes += w.cw.n
	w.fw, w.buf, w.cw, w.tmp = nil, nil, nil, ""
	w.rows = 0
	return nil
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}

func (w *Writer) fail(err error) error {
	w.err = err
	return err
}

// removeTemp closes and deletes the open shard's temporary file.
func (w *Writer) removeTemp() {
	if w.f != nil {
		w.f.Close()
		w.f = nil
	}
	if w.tmp != "" {
		os.Remove(w.tmp)
	}
	w.fw, w.buf, w.cw, w.tmp = nil, nil, nil, ""
}

// Close finishes the open shard (flush, footer, fsync, rename) and releases
// the writer. After a write error it discards the open shard and returns
// that error. Finished shards are never touched.
func (w *Writer) Close() error {
	if w.closed {
		return w.err
	}
	w.closed = true
	defer w.release()
	if w.err != nil {
		w.removeTemp()
		return w.err
	}
	if w.fw != nil {
		if err := w.finishShard(); err != nil {
			w.removeTemp()
			w.err = err
			return err
		}
	}
	return nil
}

// Abort discards the open shard (its temporary file is removed; its rows are
// lost) and releases the writer. Finished shards are kept.
func (w *Writer) Abort() {
	if w.closed {
		return
	}
	w.closed = true
	w.removeTemp()
	w.release()
}

func (w *Writer) release() {
	for _, b := range []array.Builder{w.episode, w.step, w.seat, w.state, w.action, w.move, w.legal,
		w.reward, w.done, w.truncated, w.logp, w.value, w.agentIdx} {
		b.Release()
	}
	if w.heads != nil {
		w.heads.Release()
	}
	w.gameDict.Release()
	w.runDict.Release()
	w.agentDict.Release()
	w.zeros.Release()
}
