package datasets

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
)

// The Arrow IPC file layout this file relies on (Arrow columnar format,
// "IPC File Format"):
//
//	ARROW1 \0\0 | schema message | dictionary and record batch messages | footer | int32 footer size | ARROW1
//
// The footer is a flatbuffer (File.fbs): Footer{version, schema,
// dictionaries: [Block], recordBatches: [Block], custom_metadata: [KeyValue]}
// with Block{offset int64, metaDataLength int32, pad, bodyLength int64}.
// Each block's message is a flatbuffer Message{version, header_type, header,
// bodyLength} whose RecordBatch header holds length (the row count), nodes
// and buffers (offset and length within the body); with body compression
// every buffer starts with its uncompressed length (int64, −1 = stored raw).
//
// Arrow's Go reader trusts every one of those numbers: it allocates what a
// block, a buffer prefix or a flatbuffer vector length says. scanLayout reads
// them first and bounds each by the file's size, so that a corrupt shard is
// an error and never a multi-gigabyte allocation (issue 25).

var arrowMagic = []byte("ARROW1")

// maxDecoded bounds the uncompressed bytes that the record batches and
// dictionaries of a file of size bytes may claim in all. Real shards stay
// far below it: BenchmarkExportParquet's random Nuggets play decodes to 92
// times its file size, a Nuggets run of passing bots (states that never
// change) to about 280 times; the columns that change every row (step,
// episode) keep any shard well under 4096.
func maxDecoded(size int64) int64 { return 64<<20 + 4096*size }

// maxBufferRatio bounds the uncompressed size a compressed buffer may
// claim by its compressed size: zstd's densest frame (a 128 KiB RLE block
// in 4 bytes) and lz4's (about 255:1) stay below it.
const maxBufferRatio = 1 << 15

// checkFraming tells an empty, foreign, truncated or unfinished file apart
// before the IPC reader sees it.
func checkFraming(r io.ReaderAt, size int64) error {
	if size == 0 {
		return errors.New("empty file")
	}
	head := make([]byte, len(arrowMagic))
	if size < int64(len(head)) {
		return fmt.Errorf("not an Arrow IPC file (%d bytes, no ARROW1 magic)", size)
	}
	if _, err := r.ReadAt(head, 0); err != nil {
		return err
	}
	if !bytes.Equal(head, arrowMagic) {
		return errors.New("not an Arrow IPC file (no ARROW1 magic at its start)")
	}
	tail := make([]byte, len(arrowMagic))
	if size < 2*int64(len(arrowMagic))+4 {
		return fmt.Errorf("truncated Arrow IPC file (%d bytes, no footer)", size)
	}
	if _, err := r.ReadAt(tail, size-int64(len(tail))); err != nil {
		return err
	}
	if !bytes.Equal(tail, arrowMagic) {
		return fmt.Errorf("truncated or unfinished Arrow IPC file (%d bytes, no ARROW1 magic at its end: the writer did not finish it)", size)
	}
	return nil
}

// block is one dictionary or record batch message as the footer places it.
type block struct {
	off     int64 // file offset of the message
	metaLen int64 // bytes of its metadata (prefix and flatbuffer)
	bodyLen int64 // bytes of its body
	rows    int64 // the RecordBatch length
	decoded int64 // bytes its buffers take once decompressed
}

// layout is what scanLayout found: every number in it is within the file.
type layout struct {
	size        int64
	footerStart int64  // file offset of the footer flatbuffer
	footer      []byte // the footer flatbuffer
	dicts       []block
	batches     []block
	custom      map[string]string // the footer's custom_metadata
}

// scanLayout reads the footer and every message header of an Arrow IPC file
// of size bytes (framing already checked) and bounds each length and
// offset by the file: blocks lie between the leading magic and the footer,
// message metadata and bodies fit their blocks, buffers fit their bodies,
// flatbuffer vectors fit their buffers, and the uncompressed sizes the
// buffers claim add up to at most maxDecoded(size).
func scanLayout(r io.ReaderAt, size int64) (*layout, error) {
	var lenbuf [4]byte
	if _, err := r.ReadAt(lenbuf[:], size-int64(len(arrowMagic))-4); err != nil {
		return nil, err
	}
	flen := int64(binary.LittleEndian.Uint32(lenbuf[:]))
	start := size - int64(len(arrowMagic)) - 4 - flen
	if flen <= 0 || start < 8 {
		return nil, fmt.Errorf("footer size %d does not fit the file (%d bytes)", flen, size)
	}
	footer := make([]byte, flen)
	if _, err := r.ReadAt(footer, start); err != nil {
		return nil, err
	}
	l := &layout{size: size, footerStart: start, footer: footer}
	fb := fbuf(footer)
	root, err := fb.root()
	if err != nil {
		return nil, fmt.Errorf("footer: %w", err)
	}
	if err := fb.checkTable(root); err != nil {
		return nil, fmt.Errorf("footer: %w", err)
	}
	schema, err := fb.table(root, 1)
	if err != nil {
		return nil, fmt.Errorf("footer: schema: %w", err)
	}
	budget := 1 << 16 // flatbuffer tables a schema may have
	if err := fb.checkSchema(schema, &budget); err != nil {
		return nil, fmt.Errorf("footer: schema: %w", err)
	}
	if l.custom, err = fb.keyValues(root, 4); err != nil {
		return nil, fmt.Errorf("footer: custom metadata: %w", err)
	}
	var total int64
	for i, kind := range []string{"dictionary", "record batch"} {
		vec, n, err := fb.vector(root, 2+i, 24)
		if err != nil {
			return nil, fmt.Errorf("footer: %s list: %w", kind, err)
		}
		blocks := make([]block, n)
		for j := range blocks {
			p := vec + 24*j
			b := block{
				off:     int64(binary.LittleEndian.Uint64(fb[p:])),
				metaLen: int64(int32(binary.LittleEndian.Uint32(fb[p+8:]))),
				bodyLen: int64(binary.LittleEndian.Uint64(fb[p+16:])),
			}
			if b.off < 8 || b.off >= start || b.metaLen < 8 || b.metaLen > start-b.off ||
				b.bodyLen < 0 || b.bodyLen > start-b.off-b.metaLen {
				return nil, fmt.Errorf("footer: %s %d at offset %d (%d metadata + %d body bytes) is outside the file's %d bytes of messages",
					kind, j, b.off, b.metaLen, b.bodyLen, start)
			}
			if err := checkMessage(r, &b, i == 1); err != nil {
				return nil, fmt.Errorf("%s %d at offset %d: %w", kind, j, b.off, err)
			}
			total += b.decoded
			if total > maxDecoded(size) {
				return nil, fmt.Errorf("%s %d at offset %d: buffers claim %d uncompressed bytes in all, more than a %d-byte shard can hold (at most %d)",
					kind, j, b.off, total, size, maxDecoded(size))
			}
			blocks[j] = b
		}
		if i == 0 {
			l.dicts = blocks
		} else {
			l.batches = blocks
		}
	}
	return l, nil
}

// Message header types (MessageHeader union of Message.fbs).
const (
	headerDictionaryBatch = 2
	headerRecordBatch     = 3
)

// checkMessage reads the message of b and checks it against b: a record
// batch (or a dictionary batch when batch is false) whose body length is
// b's and whose nodes and buffers fit the body; it sets b.rows and
// b.decoded.
func checkMessage(r io.ReaderAt, b *block, batch bool) error {
	meta := make([]byte, b.metaLen)
	if _, err := r.ReadAt(meta, b.off); err != nil {
		return err
	}
	prefix := 4 // pre-0.15 framing: int32 size only
	if binary.LittleEndian.Uint32(meta) == 0xFFFFFFFF {
		prefix = 8 // continuation token, then int32 size
	}
	msgLen := int64(int32(binary.LittleEndian.Uint32(meta[prefix-4:])))
	if msgLen <= 0 || msgLen > b.metaLen-int64(prefix) {
		return fmt.Errorf("message metadata size %d does not fit its %d-byte block", msgLen, b.metaLen)
	}
	fb := fbuf(meta[prefix:])
	msg, err := fb.root()
	if err == nil {
		err = fb.checkTable(msg)
	}
	if err != nil {
		return fmt.Errorf("message metadata: %w", err)
	}
	if _, err := fb.keyValues(msg, 4); err != nil {
		return fmt.Errorf("message custom metadata: %w", err)
	}
	want := headerDictionaryBatch
	if batch {
		want = headerRecordBatch
	}
	if t, ok := fb.field(msg, 1); !ok || t >= len(fb) || int(fb[t]) != want {
		return fmt.Errorf("message is not a %s", map[bool]string{true: "record batch", false: "dictionary batch"}[batch])
	}
	bl, ok := fb.field(msg, 3)
	if !ok || bl+8 > len(fb) || int64(binary.LittleEndian.Uint64(fb[bl:])) != b.bodyLen {
		return fmt.Errorf("message body length differs from the footer's %d", b.bodyLen)
	}
	hdr, err := fb.table(msg, 2)
	if err == nil {
		err = fb.checkTable(hdr)
	}
	if err == nil && !batch {
		hdr, err = fb.table(hdr, 1) // DictionaryBatch.data
		if err == nil {
			err = fb.checkTable(hdr)
		}
	}
	if err != nil {
		return fmt.Errorf("message header: %w", err)
	}
	if p, ok := fb.field(hdr, 0); ok {
		if p+8 > len(fb) {
			return errors.New("record batch header runs past its end")
		}
		b.rows = int64(binary.LittleEndian.Uint64(fb[p:]))
	}
	if b.rows < 0 || b.rows > math.MaxInt32 {
		return fmt.Errorf("record batch length %d out of range", b.rows)
	}
	nodes, nn, err := fb.vector(hdr, 1, 16)
	if err != nil {
		return fmt.Errorf("record batch nodes: %w", err)
	}
	for i := 0; i < nn; i++ {
		p := nodes + 16*i
		length := int64(binary.LittleEndian.Uint64(fb[p:]))
		nulls := int64(binary.LittleEndian.Uint64(fb[p+8:]))
		if length < 0 || length > math.MaxInt32 || nulls < 0 || nulls > length {
			return fmt.Errorf("record batch node %d: length %d, null count %d out of range", i, length, nulls)
		}
	}
	bufs, nb, err := fb.vector(hdr, 2, 16)
	if err != nil {
		return fmt.Errorf("record batch buffers: %w", err)
	}
	_, compressed := fb.field(hdr, 3)
	var prefixBuf [8]byte
	for i := 0; i < nb; i++ {
		p := bufs + 16*i
		off := int64(binary.LittleEndian.Uint64(fb[p:]))
		n := int64(binary.LittleEndian.Uint64(fb[p+8:]))
		if off < 0 || n < 0 || off > b.bodyLen || n > b.bodyLen-off {
			return fmt.Errorf("record batch buffer %d (offset %d, %d bytes) is outside its %d-byte body", i, off, n, b.bodyLen)
		}
		if !compressed || n == 0 {
			b.decoded += n
			continue
		}
		if n < 8 {
			return fmt.Errorf("compressed buffer %d has %d bytes, fewer than its 8-byte length prefix", i, n)
		}
		if _, err := r.ReadAt(prefixBuf[:], b.off+b.metaLen+off); err != nil {
			return err
		}
		u := int64(binary.LittleEndian.Uint64(prefixBuf[:]))
		switch {
		case u == -1:
			b.decoded += n - 8
		case u < 0 || u > math.MaxInt32 || u > maxBufferRatio*(n-8)+1<<17:
			return fmt.Errorf("compressed buffer %d of %d bytes claims %d uncompressed bytes", i, n, u)
		default:
			b.decoded += u
		}
	}
	return nil
}

// fbuf is a flatbuffer with just enough reading, every access bounded, for
// the footer and message headers.
type fbuf []byte

func (b fbuf) u32(p int) (int, error) {
	if p < 0 || p+4 > len(b) {
		return 0, errors.New("flatbuffer offset out of range")
	}
	return int(binary.LittleEndian.Uint32(b[p:])), nil
}

// root returns the position of the root table.
func (b fbuf) root() (int, error) { return b.u32(0) }

// checkTable checks that the table at t and its vtable lie in the buffer.
func (b fbuf) checkTable(t int) error {
	so, err := b.u32(t)
	if err != nil {
		return err
	}
	vt := t - int(int32(so))
	if vt < 0 || vt+4 > len(b) {
		return errors.New("flatbuffer vtable out of range")
	}
	vsize := int(binary.LittleEndian.Uint16(b[vt:]))
	tsize := int(binary.LittleEndian.Uint16(b[vt+2:]))
	if vsize < 4 || vsize&1 != 0 || vt+vsize > len(b) || tsize < 4 || t+tsize > len(b) {
		return errors.New("flatbuffer table out of range")
	}
	for s := 4; s < vsize; s += 2 {
		if int(binary.LittleEndian.Uint16(b[vt+s:])) >= tsize {
			return errors.New("flatbuffer field out of its table")
		}
	}
	return nil
}

// field returns the position of field i of the table at t, if present.
func (b fbuf) field(t, i int) (int, bool) {
	so, err := b.u32(t)
	if err != nil {
		return 0, false
	}
	vt := t - int(int32(so))
	if vt < 0 || vt+4 > len(b) {
		return 0, false
	}
	vsize := int(binary.LittleEndian.Uint16(b[vt:]))
	slot := 4 + 2*i
	if slot+2 > vsize || vt+slot+2 > len(b) {
		return 0, false
	}
	off := int(binary.LittleEndian.Uint16(b[vt+slot:]))
	if off == 0 {
		return 0, false
	}
	return t + off, true
}

// table follows field i of the table at t (a table or union offset).
func (b fbuf) table(t, i int) (int, error) {
	p, ok := b.field(t, i)
	if !ok {
		return 0, fmt.Errorf("flatbuffer field %d missing", i)
	}
	o, err := b.u32(p)
	if err != nil {
		return 0, err
	}
	if o == 0 || p+o >= len(b) {
		return 0, fmt.Errorf("flatbuffer field %d points outside the buffer", i)
	}
	return p + o, nil
}

// vector follows field i of the table at t to a vector of elem-byte
// elements and returns the position of its first element and its length
// (0, 0 if absent); the whole vector lies in the buffer.
func (b fbuf) vector(t, i, elem int) (int, int, error) {
	if _, ok := b.field(t, i); !ok {
		return 0, 0, nil
	}
	v, err := b.table(t, i)
	if err != nil {
		return 0, 0, err
	}
	n, err := b.u32(v)
	if err != nil {
		return 0, 0, err
	}
	if n < 0 || n > (len(b)-v-4)/elem {
		return 0, 0, fmt.Errorf("flatbuffer vector of %d elements runs past the buffer's %d bytes", n, len(b))
	}
	return v + 4, n, nil
}

// str reads the string field i of the table at t ("" if absent).
func (b fbuf) str(t, i int) (string, error) {
	v, n, err := b.vector(t, i, 1)
	if err != nil {
		return "", err
	}
	return string(b[v : v+n]), nil
}

// tables returns the positions of the tables in the vector field i of t.
func (b fbuf) tables(t, i int) ([]int, error) {
	v, n, err := b.vector(t, i, 4)
	if err != nil {
		return nil, err
	}
	out := make([]int, n)
	for k := range out {
		p := v + 4*k
		o, _ := b.u32(p)
		if o == 0 || p+o >= len(b) {
			return nil, errors.New("flatbuffer table offset out of range")
		}
		if err := b.checkTable(p + o); err != nil {
			return nil, err
		}
		out[k] = p + o
	}
	return out, nil
}

// keyValues reads the KeyValue vector field i of t.
func (b fbuf) keyValues(t, i int) (map[string]string, error) {
	kvs, err := b.tables(t, i)
	if err != nil || len(kvs) == 0 {
		return nil, err
	}
	m := make(map[string]string, len(kvs))
	for _, kv := range kvs {
		k, err := b.str(kv, 0)
		if err != nil {
			return nil, err
		}
		v, err := b.str(kv, 1)
		if err != nil {
			return nil, err
		}
		m[k] = v
	}
	return m, nil
}

// checkSchema checks a Schema table (Schema.fbs) and its fields, children
// included, so that every vector arrow's reader sizes an allocation by lies
// in the buffer; budget bounds the tables visited.
func (b fbuf) checkSchema(s int, budget *int) error {
	if err := b.checkTable(s); err != nil {
		return err
	}
	if _, err := b.keyValues(s, 2); err != nil {
		return err
	}
	if _, _, err := b.vector(s, 3, 8); err != nil { // features
		return err
	}
	fields, err := b.tables(s, 1)
	if err != nil {
		return err
	}
	return b.checkFields(fields, budget, 0)
}

func (b fbuf) checkFields(fields []int, budget *int, depth int) error {
	if depth > 64 {
		return errors.New("fields nested too deep")
	}
	for _, f := range fields {
		if *budget--; *budget < 0 {
			return errors.New("too many fields")
		}
		if _, err := b.str(f, 0); err != nil {
			return err
		}
		for _, sub := range []int{3, 4} { // type, dictionary
			if _, ok := b.field(f, sub); !ok {
				continue
			}
			t, err := b.table(f, sub)
			if err == nil {
				err = b.checkTable(t)
			}
			if err != nil {
				return err
			}
			if sub == 4 {
				if _, ok := b.field(t, 1); ok { // DictionaryEncoding.indexType
					it, err := b.table(t, 1)
					if err == nil {
						err = b.checkTable(it)
					}
					if err != nil {
						return err
					}
				}
			}
		}
		if _, err := b.keyValues(f, 6); err != nil {
			return err
		}
		children, err := b.tables(f, 5)
		if err != nil {
			return err
		}
		if err := b.checkFields(children, budget, depth+1); err != nil {
			return err
		}
	}
	return nil
}
