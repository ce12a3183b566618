package datasets

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// The Arrow IPC file layout this file relies on (Arrow columnar format,
// "IPC File Format"):
//
//	ARROW1 \0\0 | schema message | dictionary and record batch messages | footer | int32 footer size | ARROW1
//
// The footer is a flatbuffer (File.fbs): Footer{version, schema,
// dictionaries: [Block], recordBatches: [Block]} with Block{offset int64,
// metaDataLength int32, pad, bodyLength int64}. Each block's message is a
// flatbuffer Message{version, header_type, header, bodyLength} whose
// RecordBatch header starts with length (the row count). Reading those
// headers gives the row count without decompressing any body.

var arrowMagic = []byte("ARROW1")

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

// batchRows reads the footer of an Arrow IPC file of size bytes and returns
// the row count of each record batch, from the message headers only.
func batchRows(r io.ReaderAt, size int64) ([]int64, error) {
	var lenbuf [4]byte
	if _, err := r.ReadAt(lenbuf[:], size-int64(len(arrowMagic))-4); err != nil {
		return nil, err
	}
	flen := int64(binary.LittleEndian.Uint32(lenbuf[:]))
	start := size - int64(len(arrowMagic)) - 4 - flen
	if flen <= 0 || start < 8 {
		return nil, fmt.Errorf("footer size %d does not fit the file", flen)
	}
	footer := make([]byte, flen)
	if _, err := r.ReadAt(footer, start); err != nil {
		return nil, err
	}
	fb := fbuf(footer)
	root, err := fb.root()
	if err != nil {
		return nil, fmt.Errorf("footer: %w", err)
	}
	vec, n, err := fb.vector(root, 3) // recordBatches
	if err != nil {
		return nil, fmt.Errorf("footer: %w", err)
	}
	out := make([]int64, n)
	for i := range out {
		b := vec + 24*i
		if b+24 > len(fb) {
			return nil, errors.New("footer: block list runs past its end")
		}
		off := int64(binary.LittleEndian.Uint64(fb[b:]))
		metaLen := int64(int32(binary.LittleEndian.Uint32(fb[b+8:])))
		if off < 8 || metaLen < 8 || off+metaLen > start {
			return nil, fmt.Errorf("footer: record batch %d at %d+%d is outside the file", i, off, metaLen)
		}
		rows, err := batchLength(r, off, metaLen)
		if err != nil {
			return nil, fmt.Errorf("record batch %d: %w", i, err)
		}
		out[i] = rows
	}
	return out, nil
}

// batchLength reads the RecordBatch message at off and returns its length.
func batchLength(r io.ReaderAt, off, metaLen int64) (int64, error) {
	meta := make([]byte, metaLen)
	if _, err := r.ReadAt(meta, off); err != nil {
		return 0, err
	}
	switch binary.LittleEndian.Uint32(meta) {
	case 0xFFFFFFFF: // continuation token, then int32 size
		meta = meta[8:]
	default: // pre-0.15 framing: int32 size only
		meta = meta[4:]
	}
	fb := fbuf(meta)
	msg, err := fb.root()
	if err != nil {
		return 0, err
	}
	const recordBatchHeader = 3 // MessageHeader union: Schema=1, DictionaryBatch=2, RecordBatch=3
	if t, ok := fb.field(msg, 1); !ok || t >= len(fb) || fb[t] != recordBatchHeader {
		return 0, errors.New("message is not a record batch")
	}
	hdr, err := fb.table(msg, 2)
	if err != nil {
		return 0, err
	}
	p, ok := fb.field(hdr, 0)
	if !ok {
		return 0, nil // length absent = 0 rows
	}
	if p+8 > len(fb) {
		return 0, errors.New("record batch header runs past its end")
	}
	return int64(binary.LittleEndian.Uint64(fb[p:])), nil
}

// fbuf is a flatbuffer with just enough reading for the footer.
type fbuf []byte

func (b fbuf) u32(p int) (int, error) {
	if p < 0 || p+4 > len(b) {
		return 0, errors.New("flatbuffer offset out of range")
	}
	return int(binary.LittleEndian.Uint32(b[p:])), nil
}

// root returns the position of the root table.
func (b fbuf) root() (int, error) { return b.u32(0) }

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
	return p + o, nil
}

// vector follows field i of the table at t to a vector and returns the
// position of its first element and its length (0, 0 if absent).
func (b fbuf) vector(t, i int) (int, int, error) {
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
	return v + 4, n, nil
}
