package datasets

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"

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
	// (default 48 MiB); the writer holds up to three batches in memory (one
	// filling, one waiting, one being compressed).
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
// final name never holds a torn file. Its footer carries a CRC-32C of every
// message (KeyChecksum…), so readers find any flipped bit. Rows are copied into a record batch
// in place; full batches are compressed and written on a goroutine of the
// writer's own while the next one fills. A Writer is not safe for
// concurrent use.
type Writer struct {
	dir    string
	meta   Meta
	opts   WriterOptions
	schema *arrow.Schema
	mem    memory.Allocator

	cur *batch // the rows not yet handed to the shard

	// The fixed dictionaries (file-format IPC allows one dictionary per
	// column per file) and the all-zero indices of the one-value columns.
	gameDict, runDict, agentDict arrow.Array
	zeros                        *array.Int32
	agents                       map[string]int32
	agentOf                      []int32 // the agent index of each row of the episode being written

	// The open shard.
	index int // number of the next shard to open
	f     *os.File
	buf   *bufio.Writer
	cw    *countWriter
	fw    *ipc.FileWriter
	bg    *batchWriter // writes fw's record batches in the background
	tmp   string
	final string
	rows  int   // rows in the open shard
	size  int64 // bytes of the shard just finished

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
	w.cur = newBatch(meta, mem, opts.BatchRows)
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
		w.cur.add(&rows[i], w.agentOf[i])
		if w.cur.full() {
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
// It also records each row's agent index in agentOf, for the batch.
func (w *Writer) checkRows(rows []Row) error {
	ep := rows[0].EpisodeID
	w.agentOf = w.agentOf[:0]
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
			idx, ok := w.agents[r.Agent]
			if !ok {
				err = fmt.Errorf("agent %q is not in Meta.Agents %q", r.Agent, w.meta.Agents)
			}
			w.agentOf = append(w.agentOf, idx)
		}
		if err != nil {
			return fmt.Errorf("datasets: episode %d row %d (step %d, seat %d): %w", ep, i, r.Step, r.Seat, err)
		}
	}
	return nil
}

// flush hands the batch's rows to the shard as one record batch.
func (w *Writer) flush() error {
	if w.cur.n == 0 {
		return nil
	}
	return w.bg.write(w.cur.record(w.schema, w.zeros, w.gameDict, w.runDict, w.agentDict))
}

// batchWriter compresses and writes one shard's record batches on its own
// goroutine, so that the rows of the next batch are taken while the last
// one is compressed: a writer that compressed in line would stall the
// self-play workers feeding it for as long as a batch takes (for Slime a
// third of the run). At most one batch waits while another is written,
// so the writer holds about three batches of memory.
type batchWriter struct {
	fw     *ipc.FileWriter
	name   string
	in     chan arrow.Record
	done   chan struct{} // closed when the goroutine has ended; err is set then
	err    error         // the first write error
	failed atomic.Bool   // a write has failed: refuse further batches
	abort  atomic.Bool   // drop the batches not yet written
	closed bool          // in has been closed
}

func newBatchWriter(fw *ipc.FileWriter, name string) *batchWriter {
	b := &batchWriter{fw: fw, name: name, in: make(chan arrow.Record, 1), done: make(chan struct{})}
	go b.run()
	return b
}

func (b *batchWriter) run() {
	defer close(b.done)
	for rec := range b.in {
		if b.err == nil && !b.abort.Load() {
			if err := b.fw.Write(rec); err != nil {
				b.err = fmt.Errorf("datasets: write %s: %w", b.name, err)
				b.failed.Store(true)
			}
		}
		rec.Release()
	}
}

// write queues rec (taking over the caller's reference); it blocks while
// another batch waits. After a failed write it returns that error.
func (b *batchWriter) write(rec arrow.Record) error {
	if b.failed.Load() {
		rec.Release()
		return b.wait()
	}
	b.in <- rec
	return nil
}

// wait lets the queued batches be written and returns the first write
// error; the file writer is the caller's again afterwards.
func (b *batchWriter) wait() error {
	if !b.closed {
		b.closed = true
		close(b.in)
	}
	<-b.done
	return b.err
}

// discard drops the queued batches and waits for the goroutine to end.
func (b *batchWriter) discard() {
	b.abort.Store(true)
	b.wait()
}

// countWriter is the io.WriteSeeker the IPC writer needs over a buffered
// file: it only ever asks for the current position.
type countWriter struct {
	w       io.Writer
	n       int64
	capture *bytes.Buffer // when set, writes go here instead of w (the footer, to seal it)
}

func (c *countWriter) Write(p []byte) (int, error) {
	if c.capture != nil {
		c.capture.Write(p)
		c.n += int64(len(p))
		return len(p), nil
	}
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
	f, err := os.OpenFile(w.tmp, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
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
	w.bg = newBatchWriter(fw, w.tmp)
	w.rows = 0
	return nil
}

// finishShard flushes the open shard, writes its footer, syncs it, renames it
// to its final name and syncs the directory.
func (w *Writer) finishShard() error {
	if err := w.flush(); err != nil {
		return err
	}
	if err := w.bg.wait(); err != nil {
		return err
	}
	// The footer arrow writes is kept in memory and written sealed with
	// the checksums of the messages already in the file (see sealFooter).
	w.cw.capture = &bytes.Buffer{}
	if err := w.fw.Close(); err != nil {
		return fmt.Errorf("datasets: finish %s: %w", w.tmp, err)
	}
	if err := w.buf.Flush(); err != nil {
		return fmt.Errorf("datasets: write %s: %w", w.tmp, err)
	}
	if err := w.writeSealed(w.cw.capture.Bytes()); err != nil {
		return fmt.Errorf("datasets: finish %s: %w", w.tmp, err)
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
	w.stats.Bytes += w.size
	w.fw, w.bg, w.buf, w.cw, w.tmp = nil, nil, nil, nil, ""
	w.rows = 0
	return nil
}

// writeSealed writes the tail arrow's Close produced (anything before the
// footer, the footer, its length and the magic) with the footer sealed:
// the messages' checksums added (sealFooter reads them back from the
// file, which is flushed up to there).
func (w *Writer) writeSealed(tail []byte) error {
	m := len(arrowMagic)
	if len(tail) < m+4 {
		return fmt.Errorf("footer of %d bytes", len(tail))
	}
	flen := int(binary.LittleEndian.Uint32(tail[len(tail)-m-4:]))
	pre := len(tail) - m - 4 - flen
	if flen <= 0 || pre < 0 {
		return fmt.Errorf("footer length %d in a %d-byte tail", flen, len(tail))
	}
	footer, err := sealFooter(w.f, tail[pre:pre+flen])
	if err != nil {
		return err
	}
	out := append(tail[:pre:pre], footer...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(footer)))
	out = append(out, arrowMagic...)
	n, err := w.f.Write(out)
	w.size = w.cw.n - int64(len(tail)) + int64(n)
	if err != nil {
		return fmt.Errorf("write: %w", err)
	}
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
	if w.bg != nil {
		w.bg.discard()
	}
	if w.f != nil {
		w.f.Close()
		w.f = nil
	}
	if w.tmp != "" {
		os.Remove(w.tmp)
	}
	w.fw, w.bg, w.buf, w.cw, w.tmp = nil, nil, nil, nil, ""
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
	w.cur.releaseBufs()
	w.gameDict.Release()
	w.runDict.Release()
	w.agentDict.Release()
	w.zeros.Release()
}
