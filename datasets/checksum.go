package datasets

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"sort"
	"strconv"
	"strings"
)

// Shards carry a CRC-32C (Castagnoli) of every dictionary and record batch
// message (metadata and compressed body as stored) and of the footer arrow
// wrote, so that a flipped bit anywhere in the data is found: zstd checks
// nothing of what it decodes, and a flip inside a compressed body used to
// change the rows silently (issue 25). CRC-32C comes from the standard
// library, runs at several GB/s with the SSE4.2/ARMv8 instructions Go uses,
// and finds every burst of up to 32 flipped bits, which is the fault
// being guarded against; a cryptographic hash would add nothing here.
//
// The checksums live in the custom_metadata of the Arrow IPC footer
// (File.fbs Footer.custom_metadata, part of the format), keys below, so
// other Arrow implementations read the file as before and ignore them.
// Shards written before them have no such keys: they read as unchecked.
const (
	// KeyChecksum names the algorithm: "crc32c".
	KeyChecksum = "gridgym.checksum"
	// KeyChecksumFooter is "<n>:<crc>": the CRC of the last n bytes of the
	// footer flatbuffer (the footer as arrow wrote it, schema and block
	// lists included).
	KeyChecksumFooter = "gridgym.checksum.footer"
	// KeyChecksumDictionaries and KeyChecksumBatches list the CRC of every
	// dictionary and record batch message in footer order, comma-separated,
	// 8 hex digits each.
	KeyChecksumDictionaries = "gridgym.checksum.dictionaries"
	KeyChecksumBatches      = "gridgym.checksum.batches"
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// checksums is a shard's parsed checksum metadata.
type checksums struct {
	footerLen int
	footer    uint32
	dicts     []uint32
	batches   []uint32
}

// parseChecksums reads the checksum keys of a footer's custom metadata; nil,
// nil when the shard has none (written before checksums).
func parseChecksums(m map[string]string, l *layout) (*checksums, error) {
	alg, ok := m[KeyChecksum]
	if !ok {
		return nil, nil
	}
	if alg != "crc32c" {
		return nil, fmt.Errorf("checksum algorithm %q, this reader knows crc32c", alg)
	}
	c := &checksums{}
	n, crc, ok := strings.Cut(m[KeyChecksumFooter], ":")
	fl, err1 := strconv.Atoi(n)
	fc, err2 := strconv.ParseUint(crc, 16, 32)
	if !ok || err1 != nil || err2 != nil || fl <= 0 || fl > len(l.footer) {
		return nil, fmt.Errorf("checksum metadata %s = %q is malformed", KeyChecksumFooter, m[KeyChecksumFooter])
	}
	c.footerLen, c.footer = fl, uint32(fc)
	var err error
	if c.dicts, err = parseCRCs(m, KeyChecksumDictionaries, len(l.dicts)); err != nil {
		return nil, err
	}
	if c.batches, err = parseCRCs(m, KeyChecksumBatches, len(l.batches)); err != nil {
		return nil, err
	}
	return c, nil
}

func parseCRCs(m map[string]string, key string, want int) ([]uint32, error) {
	v := m[key]
	var out []uint32
	if v != "" {
		for _, s := range strings.Split(v, ",") {
			c, err := strconv.ParseUint(s, 16, 32)
			if err != nil {
				return nil, fmt.Errorf("checksum metadata %s: %q is not a CRC", key, s)
			}
			out = append(out, uint32(c))
		}
	}
	if len(out) != want {
		return nil, fmt.Errorf("checksum metadata %s lists %d CRCs, the footer %d messages", key, len(out), want)
	}
	return out, nil
}

// blockCRC returns the CRC-32C of b's bytes in r, reading through buf
// (grown as needed, returned for reuse).
func blockCRC(r io.ReaderAt, b block, buf []byte) (uint32, []byte, error) {
	n := b.metaLen + b.bodyLen
	if int64(cap(buf)) < n {
		buf = make([]byte, n)
	}
	buf = buf[:n]
	if _, err := r.ReadAt(buf, b.off); err != nil {
		return 0, buf, err
	}
	return crc32.Checksum(buf, castagnoli), buf, nil
}

// checkFooterAndDicts checks the footer's and the dictionaries' checksums.
func (c *checksums) checkFooterAndDicts(r io.ReaderAt, l *layout) error {
	if got := crc32.Checksum(l.footer[len(l.footer)-c.footerLen:], castagnoli); got != c.footer {
		return fmt.Errorf("footer checksum mismatch (crc32c %08x, stored %08x): the footer is corrupt", got, c.footer)
	}
	var buf []byte
	for i, b := range l.dicts {
		var got uint32
		var err error
		if got, buf, err = blockCRC(r, b, buf); err != nil {
			return err
		}
		if got != c.dicts[i] {
			return fmt.Errorf("dictionary %d at offset %d: checksum mismatch (crc32c %08x, stored %08x): the data is corrupt", i, b.off, got, c.dicts[i])
		}
	}
	return nil
}

// sealFooter returns the footer flatbuffer old (as arrow wrote it) with the
// checksums of its blocks (read from r) added as custom metadata. The new
// flatbuffer is a new root table, vtable and metadata vector put in front
// of old, whose bytes are kept as they are (their offsets are relative, and
// the prefix keeps their 8-byte alignment): the new root points at old's
// schema and block lists.
func sealFooter(r io.ReaderAt, old []byte) ([]byte, error) {
	fb := fbuf(old)
	root, err := fb.root()
	if err == nil {
		err = fb.checkTable(root)
	}
	if err != nil {
		return nil, fmt.Errorf("footer: %w", err)
	}
	// The block lists, to checksum what they point at.
	kv := map[string]string{
		KeyChecksum:       "crc32c",
		KeyChecksumFooter: fmt.Sprintf("%d:%08x", len(old), crc32.Checksum(old, castagnoli)),
	}
	var buf []byte
	for i, key := range []string{KeyChecksumDictionaries, KeyChecksumBatches} {
		vec, n, err := fb.vector(root, 2+i, 24)
		if err != nil {
			return nil, fmt.Errorf("footer: %w", err)
		}
		crcs := make([]string, n)
		for j := range crcs {
			p := vec + 24*j
			b := block{
				off:     int64(binary.LittleEndian.Uint64(old[p:])),
				metaLen: int64(int32(binary.LittleEndian.Uint32(old[p+8:]))),
				bodyLen: int64(binary.LittleEndian.Uint64(old[p+16:])),
			}
			var c uint32
			if c, buf, err = blockCRC(r, b, buf); err != nil {
				return nil, fmt.Errorf("checksum of block %d: %w", j, err)
			}
			crcs[j] = fmt.Sprintf("%08x", c)
		}
		kv[key] = strings.Join(crcs, ",")
	}
	keys := make([]string, 0, len(kv))
	for k := range kv {
		keys = append(keys, k)
	}
	sort.Strings(keys)

	// Prefix layout: root offset | footer vtable | footer table |
	// metadata vector | KeyValue vtable | KeyValue tables | strings | pad.
	const (
		vt  = 4  // footer vtable: 5 fields, 14 bytes
		tab = 20 // footer table: soffset, 4 uoffsets, int16 version, pad
		vec = 44 // [KeyValue] vector
	)
	kvVT := vec + 4 + 4*len(keys)
	kvTab := kvVT + 8
	str := kvTab + 12*len(keys)
	var strs []byte
	strPos := func(s string) int {
		p := str + len(strs)
		strs = binary.LittleEndian.AppendUint32(strs, uint32(len(s)))
		strs = append(strs, s...)
		strs = append(strs, 0)
		for len(strs)%4 != 0 {
			strs = append(strs, 0)
		}
		return p
	}
	type kvPos struct{ k, v int }
	pos := make([]kvPos, len(keys))
	for i, k := range keys {
		pos[i] = kvPos{strPos(k), strPos(kv[k])}
	}
	p := str + len(strs)
	p = (p + 7) &^ 7
	out := make([]byte, p, p+len(old))
	le := binary.LittleEndian
	le.PutUint32(out[0:], tab)
	// vtable: size, table size, then field offsets (0 = absent).
	le.PutUint16(out[vt:], 14)
	le.PutUint16(out[vt+2:], 24)
	le.PutUint16(out[vt+4:], 20)  // version
	le.PutUint16(out[vt+12:], 16) // custom_metadata
	le.PutUint32(out[tab:], uint32(tab-vt))
	for i := 0; i < 3; i++ { // schema, dictionaries, recordBatches
		f, ok := fb.field(root, 1+i)
		if !ok {
			continue
		}
		target, err := fb.u32(f)
		if err != nil {
			return nil, fmt.Errorf("footer: %w", err)
		}
		at := tab + 4 + 4*i
		le.PutUint16(out[vt+6+2*i:], uint16(4+4*i))
		le.PutUint32(out[at:], uint32(p+f+target-at))
	}
	if f, ok := fb.field(root, 0); ok && f+2 <= len(old) {
		copy(out[tab+20:], old[f:f+2])
	}
	le.PutUint32(out[tab+16:], uint32(vec-(tab+16)))
	le.PutUint32(out[vec:], uint32(len(keys)))
	le.PutUint16(out[kvVT:], 8)
	le.PutUint16(out[kvVT+2:], 12)
	le.PutUint16(out[kvVT+4:], 4)
	le.PutUint16(out[kvVT+6:], 8)
	for i, kp := range pos {
		slot := vec + 4 + 4*i
		t := kvTab + 12*i
		le.PutUint32(out[slot:], uint32(t-slot))
		le.PutUint32(out[t:], uint32(t-kvVT))
		le.PutUint32(out[t+4:], uint32(kp.k-(t+4)))
		le.PutUint32(out[t+8:], uint32(kp.v-(t+8)))
	}
	copy(out[str:], strs)
	out = append(out, old...)
	return out, nil
}
