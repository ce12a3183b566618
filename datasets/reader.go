package datasets

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/apache/arrow/go/v14/arrow"
	"github.com/apache/arrow/go/v14/arrow/array"
	"github.com/apache/arrow/go/v14/arrow/ipc"

	"github.com/gridgym/gridgym/internal/inputfile"
	"github.com/gridgym/gridgym/rules"
)

// Reader reads one shard. Its Meta and row counts come from the footer and
// the message headers; Batch, EachBatch and Each stream the record batches
// one at a time. A Reader is not safe for concurrent use.
type Reader struct {
	path    string
	f       *os.File
	size    int64
	fr      *ipc.FileReader
	mem     *boundedAllocator
	layout  *layout
	sums    *checksums // nil: written before shards carried checksums
	crcBuf  []byte
	meta    Meta
	batches []int64 // rows per record batch
	rows    int64
}

// Open opens the shard at path and checks it: an Arrow IPC file, complete,
// with gridgym metadata of a version this code reads and exactly the
// columns that metadata describes. Errors name the file and what is wrong.
//
// Anything but a regular file is refused before it is opened (a named pipe
// would block the read forever): a folder with an error pointing to Files,
// a pipe, socket or device with an *inputfile.Error.
func Open(path string) (*Reader, error) {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return nil, fmt.Errorf("datasets: %s: is a directory (Open reads one shard; see Files)", path)
	}
	f, err := inputfile.Open(path)
	if err != nil {
		return nil, fmt.Errorf("datasets: %w", err)
	}
	r, err := open(path, f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("datasets: %s: %w", path, err)
	}
	return r, nil
}

// ErrCorrupt is matched (errors.Is) by the errors of Open, Batch, EachBatch,
// Each and EachRow that report a shard as unreadable: not an Arrow IPC
// file, truncated, a length or offset outside the file, a checksum
// mismatch, columns that do not match their metadata. Errors reading the
// file system (a missing file, a directory) do not match it. A learner
// skips such a shard and goes on (see EachRowSkipping).
var ErrCorrupt = errors.New("corrupt shard")

// corruptError marks err as ErrCorrupt, keeping its message.
type corruptError struct{ err error }

func (e corruptError) Error() string        { return e.err.Error() }
func (e corruptError) Unwrap() error        { return e.err }
func (e corruptError) Is(target error) bool { return target == ErrCorrupt }

func corrupt(err error) error {
	if err == nil || errors.Is(err, ErrCorrupt) {
		return err
	}
	return corruptError{err}
}

func open(path string, f *os.File) (*Reader, error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if fi.IsDir() {
		return nil, errors.New("is a directory (Open reads one shard; see Files)")
	}
	r, err := openChecked(path, f, fi.Size())
	return r, corrupt(err)
}

func openChecked(path string, f *os.File, size int64) (*Reader, error) {
	if err := checkFraming(f, size); err != nil {
		return nil, err
	}
	lay, err := scanLayout(f, size)
	if err != nil {
		return nil, fmt.Errorf("corrupt Arrow IPC file: %w", err)
	}
	sums, err := parseChecksums(lay.custom, lay)
	if err != nil {
		return nil, fmt.Errorf("corrupt Arrow IPC file: %w", err)
	}
	if sums != nil {
		if err := sums.checkFooterAndDicts(f, lay); err != nil {
			return nil, err
		}
	}
	mem := newBoundedAllocator(readLimit(size))
	fr, err := newFileReader(f, mem)
	if err != nil {
		return nil, fmt.Errorf("unreadable Arrow IPC file: %w", err)
	}
	r := &Reader{path: path, f: f, size: size, fr: fr, mem: mem, layout: lay, sums: sums}
	if r.meta, err = MetaFromSchema(fr.Schema()); err != nil {
		fr.Close()
		if fr.Schema().Metadata().FindKey(KeySchemaVersion) < 0 {
			var cols []string
			for _, f := range fr.Schema().Fields() {
				cols = append(cols, f.Name)
			}
			err = fmt.Errorf("%w (an Arrow file with columns %s)", err, strings.Join(cols, ", "))
		}
		return nil, err
	}
	if err := CheckSchema(fr.Schema(), r.meta); err != nil {
		fr.Close()
		return nil, fmt.Errorf("columns do not match its gridgym metadata: %w", err)
	}
	for _, b := range lay.batches {
		r.batches = append(r.batches, b.rows)
	}
	if len(r.batches) != fr.NumRecords() {
		fr.Close()
		return nil, fmt.Errorf("corrupt Arrow IPC file: footer lists %d record batches, the IPC reader %d", len(r.batches), fr.NumRecords())
	}
	for _, n := range r.batches {
		r.rows += n
	}
	return r, nil
}

// readLimit is the most a Reader of a size-byte shard holds allocated at
// once: every buffer decompressed (scanLayout bounds their sum by
// maxDecoded) plus the compressed bodies.
func readLimit(size int64) int64 { return maxDecoded(size) + 2*size + 1<<20 }

// newFileReader opens the IPC reader on the allocator mem, turning the
// panics the flatbuffer decoding raises on corrupt metadata into errors.
func newFileReader(f *os.File, mem *boundedAllocator) (fr *ipc.FileReader, err error) {
	defer func() {
		if p := recover(); p != nil {
			fr, err = nil, fmt.Errorf("corrupt metadata (%v)", p)
		}
	}()
	return ipc.NewFileReader(f, ipc.WithAllocator(mem))
}

// Close releases the shard.
func (r *Reader) Close() error {
	r.fr.Close()
	if err := r.f.Close(); err != nil {
		return fmt.Errorf("datasets: close %s: %w", r.path, err)
	}
	return nil
}

// Path returns the shard's path.
func (r *Reader) Path() string { return r.path }

// Size returns the shard's size in bytes.
func (r *Reader) Size() int64 { return r.size }

// Checked reports whether the shard carries checksums (every shard this
// package writes does): its footer and dictionaries were checked by Open
// and each record batch is checked before it is decoded. A shard written
// before checksums reads as before, unchecked.
func (r *Reader) Checked() bool { return r.sums != nil }

// Verify checks every record batch's checksum without decoding any (a read
// of the file at disk speed): nil for a shard whose every byte is as
// written, an error matching ErrCorrupt naming the first damaged batch. A
// shard without checksums (Checked false) verifies as nil.
func (r *Reader) Verify() error {
	if r.sums == nil {
		return nil
	}
	for i, b := range r.layout.batches {
		var crc uint32
		var err error
		if crc, r.crcBuf, err = blockCRC(r.f, b, r.crcBuf); err != nil {
			return corrupt(fmt.Errorf("datasets: %s: record batch %d: %w", r.path, i, err))
		}
		if crc != r.sums.batches[i] {
			return corrupt(fmt.Errorf("datasets: %s: record batch %d at offset %d: checksum mismatch (crc32c %08x, stored %08x): the data is corrupt",
				r.path, i, b.off, crc, r.sums.batches[i]))
		}
	}
	return nil
}

// Meta returns the shard's metadata.
func (r *Reader) Meta() Meta { return r.meta }

// Schema returns the shard's Arrow schema (with its metadata).
func (r *Reader) Schema() *arrow.Schema { return r.fr.Schema() }

// NumRows returns the number of rows in the shard.
func (r *Reader) NumRows() int64 { return r.rows }

// NumBatches returns the number of record batches in the shard.
func (r *Reader) NumBatches() int { return len(r.batches) }

// Batch reads record batch i; the caller must Release it.
func (r *Reader) Batch(i int) (rec arrow.Record, err error) {
	defer func() {
		if p := recover(); p != nil {
			rec, err = nil, fmt.Errorf("datasets: %s: record batch %d: corrupt (%v)", r.path, i, p)
		}
		err = corrupt(err)
	}()
	if i < 0 || i >= len(r.batches) {
		return nil, fmt.Errorf("datasets: %s: record batch %d of %d", r.path, i, len(r.batches))
	}
	if r.sums != nil {
		var crc uint32
		b := r.layout.batches[i]
		if crc, r.crcBuf, err = blockCRC(r.f, b, r.crcBuf); err != nil {
			return nil, fmt.Errorf("datasets: %s: record batch %d: %w", r.path, i, err)
		}
		if crc != r.sums.batches[i] {
			return nil, fmt.Errorf("datasets: %s: record batch %d at offset %d: checksum mismatch (crc32c %08x, stored %08x): the data is corrupt",
				r.path, i, b.off, crc, r.sums.batches[i])
		}
	}
	rec, err = r.fr.Record(i)
	if err != nil {
		return nil, fmt.Errorf("datasets: %s: record batch %d: %w", r.path, i, err)
	}
	if rec.NumRows() != r.batches[i] {
		return nil, fmt.Errorf("datasets: %s: record batch %d: %d rows, its header says %d", r.path, i, rec.NumRows(), r.batches[i])
	}
	if err := checkColumns(rec); err != nil {
		return nil, fmt.Errorf("datasets: %s: record batch %d: corrupt: %w", r.path, i, err)
	}
	// FileReader.Record keeps the record for its next call; hand out our own.
	rec.Retain()
	return rec, nil
}

// EachBatch calls fn with every record batch in order; the record is
// released when fn returns (Retain it to keep it). An error from fn stops
// the iteration and is returned.
func (r *Reader) EachBatch(fn func(rec arrow.Record) error) error {
	for i := range r.batches {
		rec, err := r.Batch(i)
		if err != nil {
			return err
		}
		err = fn(rec)
		rec.Release()
		if err != nil {
			return err
		}
	}
	return nil
}

// Each calls fn with every row in order. The Row's slices (State, Action,
// Legal) point into the record batch being read and are valid only until fn
// returns: use Row.Clone to keep a row. An error from fn stops the iteration
// and is returned.
func (r *Reader) Each(fn func(Row) error) error {
	var cur rowDecoder
	return r.EachBatch(func(rec arrow.Record) error {
		if err := cur.bind(rec, r.meta); err != nil {
			return corrupt(fmt.Errorf("datasets: %s: %w", r.path, err))
		}
		for i := 0; i < int(rec.NumRows()); i++ {
			if err := fn(cur.row(i)); err != nil {
				return err
			}
		}
		return nil
	})
}

// rowDecoder decodes Rows from one record batch without copying.
type rowDecoder struct {
	meta      Meta
	episode   []uint64
	step      []int32
	seat      []uint8
	state     []uint64
	action    []int32
	heads     []int32
	move      []int16
	legal     []uint64
	reward    []float32
	done      *array.Boolean
	truncated *array.Boolean
	logp      *array.Float32
	value     *array.Float32
	agentIdx  *array.Dictionary
	agents    []string // the agent dictionary
}

// listValues returns a fixed-size-list column's flat values of type T,
// starting at the column's first list.
func listValues[T any](col arrow.Array, values func(arrow.Array) []T) ([]T, error) {
	l, ok := col.(*array.FixedSizeList)
	if !ok {
		return nil, fmt.Errorf("column type %s, want a fixed-size list", col.DataType())
	}
	n := int(l.DataType().(*arrow.FixedSizeListType).Len())
	v := values(l.ListValues())
	return v[l.Offset()*n:], nil
}

func (b *rowDecoder) bind(rec arrow.Record, meta Meta) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("corrupt record batch (%v)", p)
		}
	}()
	b.meta = meta
	col := func(name string) arrow.Array {
		idx := rec.Schema().FieldIndices(name)
		if len(idx) == 0 {
			return nil
		}
		return rec.Column(idx[0])
	}
	b.episode = col(ColEpisodeID).(*array.Uint64).Uint64Values()
	b.step = col(ColStep).(*array.Int32).Int32Values()
	b.seat = col(ColSeat).(*array.Uint8).Uint8Values()
	b.action = col(ColAction).(*array.Int32).Int32Values()
	u64 := func(a arrow.Array) []uint64 { return a.(*array.Uint64).Uint64Values() }
	if b.state, err = listValues(col(ColState), u64); err != nil {
		return err
	}
	if b.legal, err = listValues(col(ColLegal), u64); err != nil {
		return err
	}
	if b.move, err = listValues(col(ColMove), func(a arrow.Array) []int16 { return a.(*array.Int16).Int16Values() }); err != nil {
		return err
	}
	b.heads = nil
	if meta.Heads > 1 {
		if b.heads, err = listValues(col(ColActionHeads), func(a arrow.Array) []int32 { return a.(*array.Int32).Int32Values() }); err != nil {
			return err
		}
	}
	b.reward = col(ColReward).(*array.Float32).Float32Values()
	b.done = col(ColDone).(*array.Boolean)
	b.truncated = col(ColTruncated).(*array.Boolean)
	b.logp = col(ColPolicyLogP).(*array.Float32)
	b.value = col(ColValue).(*array.Float32)
	b.agentIdx = col(ColAgent).(*array.Dictionary)
	dict := b.agentIdx.Dictionary().(*array.String)
	b.agents = b.agents[:0]
	for i := 0; i < dict.Len(); i++ {
		b.agents = append(b.agents, strings.Clone(dict.Value(i)))
	}
	// Every slice row() indexes holds a value for every row.
	n := int(rec.NumRows())
	if len(b.episode) < n || len(b.step) < n || len(b.seat) < n || len(b.action) < n || len(b.reward) < n ||
		len(b.state) < n*meta.StateWords || len(b.legal) < n*meta.MaskWords || len(b.move) < n*MoveWidth ||
		(meta.Heads > 1 && len(b.heads) < n*meta.Heads) {
		return errors.New("corrupt record batch: a column holds fewer values than the batch has rows")
	}
	for i := 0; i < n; i++ {
		if k := b.agentIdx.GetValueIndex(i); k < 0 || k >= len(b.agents) {
			return fmt.Errorf("corrupt record batch: row %d: agent index %d, the dictionary has %d", i, k, len(b.agents))
		}
	}
	return nil
}

// checkColumns checks that every column of rec (children and
// dictionaries included) has as many values as it claims, and every
// bitmap and offset buffer is long enough for them, so that reading any
// value of any row stays within its buffers.
func checkColumns(rec arrow.Record) error {
	for i, col := range rec.Columns() {
		if col.Len() != int(rec.NumRows()) {
			return fmt.Errorf("column %d has %d values, the batch %d rows", i, col.Len(), rec.NumRows())
		}
		if err := checkData(col.Data(), 0); err != nil {
			return fmt.Errorf("column %s: %w", rec.ColumnName(i), err)
		}
	}
	return nil
}

func checkData(d arrow.ArrayData, depth int) error {
	if depth > 8 {
		return errors.New("nested too deep")
	}
	n, off := d.Len(), d.Offset()
	if n < 0 || off < 0 {
		return errors.New("negative length or offset")
	}
	bufs := d.Buffers()
	bitsOK := func(k int) bool {
		return k < len(bufs) && bufs[k] != nil && int64(bufs[k].Len())*8 >= int64(off)+int64(n)
	}
	if d.NullN() != 0 && !bitsOK(0) {
		return errors.New("validity bitmap shorter than its values")
	}
	switch dt := d.DataType().(type) {
	case *arrow.BooleanType:
		if !bitsOK(1) {
			return errors.New("boolean values shorter than the column")
		}
	case *arrow.StringType:
		if len(bufs) < 3 || bufs[1] == nil || bufs[1].Len() < 4*(off+n+1) {
			return errors.New("string offsets shorter than the column")
		}
		offs := arrow.Int32Traits.CastFromBytes(bufs[1].Bytes())[off : off+n+1]
		data := 0
		if bufs[2] != nil {
			data = bufs[2].Len()
		}
		for k := 1; k < len(offs); k++ {
			if offs[k-1] < 0 || offs[k] < offs[k-1] || int(offs[k]) > data {
				return errors.New("string offsets out of order or past the data")
			}
		}
	case *arrow.FixedSizeListType:
		c := d.Children()
		if len(c) != 1 || int64(c[0].Len()) < (int64(off)+int64(n))*int64(dt.Len()) {
			return errors.New("list values fewer than the lists need")
		}
		return checkData(c[0], depth+1)
	case *arrow.DictionaryType:
		w := dt.IndexType.(arrow.FixedWidthDataType).BitWidth()
		if len(bufs) < 2 || bufs[1] == nil || int64(bufs[1].Len())*8 < (int64(off)+int64(n))*int64(w) {
			return errors.New("dictionary indices shorter than the column")
		}
		if dict := d.Dictionary(); dict != nil {
			return checkData(dict, depth+1)
		}
		return errors.New("dictionary missing")
	case arrow.FixedWidthDataType:
		w := dt.BitWidth()
		if w >= 8 && (len(bufs) < 2 || bufs[1] == nil || int64(bufs[1].Len())*8 < (int64(off)+int64(n))*int64(w)) {
			return errors.New("values shorter than the column")
		}
	}
	return nil
}

func (b *rowDecoder) row(i int) Row {
	sw, mw, h := b.meta.StateWords, b.meta.MaskWords, b.meta.Heads
	r := Row{
		EpisodeID: b.episode[i],
		Step:      b.step[i],
		Seat:      b.seat[i],
		State:     b.state[i*sw : (i+1)*sw : (i+1)*sw],
		Legal:     b.legal[i*mw : (i+1)*mw : (i+1)*mw],
		Reward:    b.reward[i],
		Done:      b.done.Value(i),
		Truncated: b.truncated.Value(i),
		Agent:     b.agents[b.agentIdx.GetValueIndex(i)],
	}
	if h > 1 {
		r.Action = b.heads[i*h : (i+1)*h : (i+1)*h]
	} else {
		r.Action = b.action[i : i+1 : i+1]
	}
	mv := b.move[i*MoveWidth : (i+1)*MoveWidth]
	r.Move.Kind, r.Move.N = rules.MoveKind(mv[0]), uint8(mv[1])
	copy(r.Move.Arg[:], mv[2:])
	if b.logp.IsValid(i) {
		r.HasPolicy = true
		r.LogP = b.logp.Value(i)
		r.Value = b.value.Value(i)
	}
	return r
}

// Clone returns a copy of r that owns its slices.
func (r Row) Clone() Row {
	r.State = append([]uint64(nil), r.State...)
	r.Action = append([]int32(nil), r.Action...)
	r.Legal = append([]uint64(nil), r.Legal...)
	return r
}

// Files lists the finished shards under path: path itself if it is a file,
// else the directory's *.arrow files in name order (temporary files of
// writers in progress, hidden names, are left out). A path or a listed
// shard that is not a regular file (a named pipe, a socket, a device) is
// refused with an *inputfile.Error, before anything opens it.
func Files(path string) ([]string, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("datasets: %w", err)
	}
	if !fi.IsDir() {
		if _, err := inputfile.Check(path); err != nil {
			return nil, fmt.Errorf("datasets: %w", err)
		}
		return []string{path}, nil
	}
	ents, err := os.ReadDir(path)
	if err != nil {
		return nil, fmt.Errorf("datasets: %w", err)
	}
	var out []string
	for _, e := range ents {
		n := e.Name()
		if e.IsDir() || strings.HasPrefix(n, ".") || !strings.HasSuffix(n, ".arrow") {
			continue
		}
		p := filepath.Join(path, n)
		if _, err := inputfile.Check(p); err != nil {
			return nil, fmt.Errorf("datasets: %w", err)
		}
		out = append(out, p)
	}
	sort.Strings(out)
	return out, nil
}

// staleTemps lists writers' temporary files under dir (a writer that is
// still running, or one that was killed).
func staleTemps(path string) []string {
	fi, err := os.Stat(path)
	if err != nil || !fi.IsDir() {
		return nil
	}
	ents, _ := os.ReadDir(path)
	var out []string
	for _, e := range ents {
		n := e.Name()
		if strings.HasPrefix(n, ".") && strings.HasSuffix(n, ".arrow.tmp") {
			out = append(out, filepath.Join(path, n))
		}
	}
	return out
}

// EachRow calls fn with every row of every shard under path (a shard or a
// directory of shards, in Files order) and that shard's Meta. Rows are valid
// only until fn returns, as with Reader.Each.
func EachRow(path string, fn func(Meta, Row) error) error {
	files, err := Files(path)
	if err != nil {
		return err
	}
	for _, file := range files {
		r, err := Open(file)
		if err != nil {
			return err
		}
		meta := r.Meta()
		err = r.Each(func(row Row) error { return fn(meta, row) })
		r.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

// EachRowSkipping is EachRow that skips corrupt shards (errors matching
// ErrCorrupt) instead of stopping: skip is called with the shard and the
// error, and the walk goes on with the next shard. Each shard's checksums
// are verified (Reader.Verify) before any of its rows is passed to fn, so a
// damaged shard gives no rows; only in a shard written before checksums can
// damage be found part way, after the rows before it were passed to fn.
// Other errors, and fn's, stop the walk as in EachRow.
func EachRowSkipping(path string, skip func(file string, err error), fn func(Meta, Row) error) error {
	files, err := Files(path)
	if err != nil {
		return err
	}
	for _, file := range files {
		r, err := Open(file)
		if err == nil {
			err = r.Verify()
		}
		if err == nil {
			meta := r.Meta()
			var fnErr error
			err = r.Each(func(row Row) error {
				fnErr = fn(meta, row)
				return fnErr
			})
			if fnErr != nil {
				r.Close()
				return fnErr
			}
		}
		if r != nil {
			r.Close()
		}
		if errors.Is(err, ErrCorrupt) {
			skip(file, err)
			continue
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// Observer rebuilds observations from stored rows: it restores a row's
// compact state into a game state of the shard's configuration and runs the
// game's encoder on it. Not safe for concurrent use (one per goroutine).
type Observer struct {
	cfg   rules.Config
	enc   rules.Encoder
	st    rules.State
	space rules.Space
}

// NewObserver prepares an Observer for shards described by meta. The game
// must be registered in this program (import package games).
func NewObserver(meta Meta) (*Observer, error) {
	cfg, err := meta.Config()
	if err != nil {
		return nil, fmt.Errorf("datasets: %w", err)
	}
	g := cfg.Game()
	if g.Encoder == nil {
		return nil, fmt.Errorf("datasets: game %s has no encoder", g.Name)
	}
	o := &Observer{cfg: cfg, enc: g.Encoder(cfg), st: g.New(cfg)}
	o.space = o.enc.Space()
	if n := len(o.st.AppendWords(nil)); n != meta.StateWords {
		return nil, fmt.Errorf("datasets: game %s (%s) has %d state words, the shard %d", g.Name, meta.Params, n, meta.StateWords)
	}
	if o.space.MaskWords() != meta.MaskWords || o.space.Heads != meta.Heads {
		return nil, fmt.Errorf("datasets: game %s (%s) has %d mask words and %d heads, the shard %d and %d",
			g.Name, meta.Params, o.space.MaskWords(), o.space.Heads, meta.MaskWords, meta.Heads)
	}
	return o, nil
}

// NewObserverAs is NewObserver encoding with cfg instead of the shards'
// own config: the same game, with parameters that differ from the shards'
// only where they are observation-only (rules.Param.Observation), such as
// the input planes a network was given after the shards were played.
func NewObserverAs(meta Meta, cfg rules.Config) (*Observer, error) {
	own, err := meta.Config()
	if err != nil {
		return nil, fmt.Errorf("datasets: %w", err)
	}
	if own.Game() != cfg.Game() {
		return nil, fmt.Errorf("datasets: shards of %s, encoding for %s", own.Game().Name, cfg.Game().Name)
	}
	for _, p := range cfg.Game().Params {
		if own.Get(p.Name) != cfg.Get(p.Name) && !p.Observation {
			return nil, fmt.Errorf("datasets: the shards were played with %s=%s, not %s: only observation parameters may differ", p.Name, own.Get(p.Name), cfg.Get(p.Name))
		}
	}
	meta.Params = cfg.String()
	return NewObserver(meta)
}

// Observer returns an Observer for the shard's game.
func (r *Reader) Observer() (*Observer, error) { return NewObserver(r.meta) }

// Config returns the game configuration.
func (o *Observer) Config() rules.Config { return o.cfg }

// Encoder returns the game's encoder.
func (o *Observer) Encoder() rules.Encoder { return o.enc }

// Space returns the encoder's observation and action spaces.
func (o *Observer) Space() rules.Space { return o.space }

// State restores row's state and returns it. The state belongs to the
// Observer and is overwritten by its next call: Clone it to keep it.
func (o *Observer) State(row Row) (rules.State, error) {
	if err := o.st.SetWords(row.State); err != nil {
		return nil, fmt.Errorf("datasets: episode %d step %d: state words: %w", row.EpisodeID, row.Step, err)
	}
	return o.st, nil
}

// Observe writes the observation of row's seat in row's state, as the env
// produced it at the time: planes has Space().ObsSize() bytes, scalars
// Space().Scalars entries.
func (o *Observer) Observe(row Row, planes []uint8, scalars []float32) error {
	if len(planes) != o.space.ObsSize() || len(scalars) != o.space.Scalars {
		return fmt.Errorf("datasets: Observe got %d plane bytes and %d scalars, want %d and %d",
			len(planes), len(scalars), o.space.ObsSize(), o.space.Scalars)
	}
	st, err := o.State(row)
	if err != nil {
		return err
	}
	o.enc.Observe(st, int(row.Seat), planes, scalars)
	return nil
}

// Mask writes the legal-action mask of row's seat in row's state as the
// encoder computes it (MaskWords words).
func (o *Observer) Mask(row Row, mask []uint64) error {
	st, err := o.State(row)
	if err != nil {
		return err
	}
	o.enc.Mask(st, int(row.Seat), mask)
	return nil
}
