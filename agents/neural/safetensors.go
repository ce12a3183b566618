package neural

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"

	"github.com/gridgym/gridgym/internal/atomicfile"
)

// Tensor is one named float32 tensor of a safetensors file.
type Tensor struct {
	Name  string
	Shape []int
	Data  []float32
}

// The safetensors format (public, huggingface/safetensors): an 8-byte
// little-endian header length N, N bytes of JSON header — for each tensor
// {"dtype", "shape", "data_offsets": [begin, end]} relative to the data
// section, plus an optional "__metadata__" map of strings — then the raw
// little-endian data. Written by hand: it is 60 lines, and the Go library
// candidates are unversioned pseudo-releases.
type stEntry struct {
	Dtype   string `json:"dtype"`
	Shape   []int  `json:"shape"`
	Offsets [2]int `json:"data_offsets"`
}

// maxHeader bounds the JSON header read from a file (the reference
// implementation's limit is 100 MB).
const maxHeader = 100 << 20

// EncodeSafetensors serialises tensors (in the given order) and string
// metadata as a safetensors file.
func EncodeSafetensors(tensors []Tensor, meta map[string]string) ([]byte, error) {
	header := map[string]any{}
	if len(meta) > 0 {
		header["__metadata__"] = meta
	}
	off := 0
	for _, t := range tensors {
		n := 1
		for _, d := range t.Shape {
			n *= d
		}
		if n != len(t.Data) {
			return nil, fmt.Errorf("tensor %s: shape %v holds %d values, have %d", t.Name, t.Shape, n, len(t.Data))
		}
		if _, dup := header[t.Name]; dup || t.Name == "__metadata__" {
			return nil, fmt.Errorf("tensor name %q used twice or reserved", t.Name)
		}
		header[t.Name] = stEntry{Dtype: "F32", Shape: append([]int{}, t.Shape...), Offsets: [2]int{off, off + 4*n}}
		off += 4 * n
	}
	h, err := json.Marshal(header)
	if err != nil {
		return nil, err
	}
	for len(h)%8 != 0 { // the format allows trailing spaces; aligned data is friendlier
		h = append(h, ' ')
	}
	out := make([]byte, 8, 8+len(h)+off)
	binary.LittleEndian.PutUint64(out, uint64(len(h)))
	out = append(out, h...)
	for _, t := range tensors {
		for _, v := range t.Data {
			out = binary.LittleEndian.AppendUint32(out, math.Float32bits(v))
		}
	}
	return out, nil
}

// CorruptError is a weights file that cannot be read as safetensors: cut
// short (an interrupted copy or download) or damaged. Detail says where the
// reading failed; File is the file's name where the reader knows it (Load).
// Commands treat it as bad input.
type CorruptError struct {
	File, Detail string
}

func (e *CorruptError) Error() string {
	if e.File == "" {
		return "truncated or corrupt safetensors: " + e.Detail
	}
	return e.File + " is truncated or corrupt: " + e.Detail
}

func corruptf(format string, a ...any) error {
	return &CorruptError{Detail: fmt.Sprintf(format, a...)}
}

// InFile returns err naming the file it came from: a CorruptError with its
// File set to path, else err itself.
func InFile(path string, err error) error {
	var ce *CorruptError
	if errors.As(err, &ce) && ce.File == "" {
		return &CorruptError{File: path, Detail: ce.Detail}
	}
	return err
}

// DecodeSafetensors parses a safetensors file of F32 tensors. Tensors come
// back sorted by their offset in the file. A file it cannot parse gets a
// *CorruptError.
func DecodeSafetensors(b []byte) ([]Tensor, map[string]string, error) {
	if len(b) < 8 {
		return nil, nil, corruptf("%d bytes, shorter than its 8-byte header length", len(b))
	}
	n := binary.LittleEndian.Uint64(b)
	if n > maxHeader || n > uint64(len(b)-8) {
		return nil, nil, corruptf("header length %d exceeds the file (%d bytes)", n, len(b))
	}
	var raw map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(b[8 : 8+n]))
	if err := dec.Decode(&raw); err != nil {
		return nil, nil, corruptf("header: %v", err)
	}
	data := b[8+n:]
	var meta map[string]string
	var ts []Tensor
	var offs []int
	names := make([]string, 0, len(raw))
	for name := range raw {
		names = append(names, name)
	}
	sort.Strings(names) // the same file, the same error
	for _, name := range names {
		r := raw[name]
		if name == "__metadata__" {
			if err := json.Unmarshal(r, &meta); err != nil {
				return nil, nil, corruptf("metadata: %v", err)
			}
			continue
		}
		var e stEntry
		if err := json.Unmarshal(r, &e); err != nil {
			return nil, nil, corruptf("tensor %s: %v", name, err)
		}
		if e.Dtype != "F32" {
			return nil, nil, fmt.Errorf("safetensors tensor %s: dtype %s, want F32", name, e.Dtype)
		}
		size := 1
		for _, d := range e.Shape {
			if d < 0 || d > 1<<30 {
				return nil, nil, fmt.Errorf("safetensors tensor %s: bad shape %v", name, e.Shape)
			}
			size *= d
			if size > 1<<30 {
				return nil, nil, fmt.Errorf("safetensors tensor %s: shape %v too large", name, e.Shape)
			}
		}
		lo, hi := e.Offsets[0], e.Offsets[1]
		if lo < 0 || hi < lo || hi > len(data) || hi-lo != 4*size {
			return nil, nil, corruptf("tensor %s: offsets [%d, %d] do not fit shape %v in %d data bytes", name, lo, hi, e.Shape, len(data))
		}
		t := Tensor{Name: name, Shape: e.Shape, Data: make([]float32, size)}
		for i := range t.Data {
			t.Data[i] = math.Float32frombits(binary.LittleEndian.Uint32(data[lo+4*i:]))
		}
		ts = append(ts, t)
		offs = append(offs, lo)
	}
	idx := make([]int, len(ts))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool { return offs[idx[a]] < offs[idx[b]] })
	sorted := make([]Tensor, len(ts))
	for i, j := range idx {
		sorted[i] = ts[j]
	}
	return sorted, meta, nil
}

// WriteFileAtomic writes b to path through a temporary file in the same
// folder, synced and renamed, so a reader never sees a partial file.
func WriteFileAtomic(path string, b []byte) error {
	return atomicfile.Write(path, 0o644, func(w io.Writer) error { _, err := w.Write(b); return err })
}

// Tensors returns the network's parameters as named tensors (sharing memory).
func (n *Net) Tensors() []Tensor {
	ts := make([]Tensor, len(n.Params))
	for i, p := range n.Params {
		ts[i] = Tensor{Name: p.Name, Shape: p.Shape, Data: n.Values[i]}
	}
	return ts
}

// Save writes the network as a safetensors file: its tensors, the
// architecture as JSON under metadata "arch", and meta (game parameters,
// training run, …).
func (n *Net) Save(path string, meta map[string]string) error {
	m := map[string]string{}
	for k, v := range meta {
		m[k] = v
	}
	arch, _ := json.Marshal(n.Arch)
	m["arch"] = string(arch)
	m["game"] = n.Arch.Game
	m["encoding"] = fmt.Sprint(n.Arch.Encoding)
	m["format"] = "gridgym-policy-v1"
	b, err := EncodeSafetensors(n.Tensors(), m)
	if err != nil {
		return fmt.Errorf("save %s: %w", path, err)
	}
	return WriteFileAtomic(path, b)
}

// Load reads a network saved by Save, checking every tensor against the
// architecture it declares. A named pipe or other non-regular file is
// refused before it is opened (readWeights).
func Load(path string) (*Net, map[string]string, error) {
	b, err := readWeights(path)
	if err != nil {
		return nil, nil, err
	}
	net, meta, err := Decode(b)
	var ce *CorruptError
	if errors.As(err, &ce) {
		return nil, nil, InFile(path, err) // FILE is truncated or corrupt: …
	} else if err != nil {
		return nil, nil, fmt.Errorf("load %s: %w", path, err)
	}
	return net, meta, nil
}

// Decode is Load from bytes.
func Decode(b []byte) (*Net, map[string]string, error) {
	ts, meta, err := DecodeSafetensors(b)
	if err != nil {
		return nil, nil, err
	}
	var arch Arch
	if err := json.Unmarshal([]byte(meta["arch"]), &arch); err != nil {
		return nil, nil, fmt.Errorf("no gridgym network architecture in the metadata (%v)", err)
	}
	net, err := unfilled(arch)
	if err != nil {
		return nil, nil, err
	}
	byName := map[string]Tensor{}
	for _, t := range ts {
		byName[t.Name] = t
	}
	for i, p := range net.Params {
		t, ok := byName[p.Name]
		if !ok {
			return nil, nil, fmt.Errorf("tensor %s missing", p.Name)
		}
		if fmt.Sprint(t.Shape) != fmt.Sprint(p.Shape) {
			return nil, nil, fmt.Errorf("tensor %s has shape %v, the architecture needs %v", p.Name, t.Shape, p.Shape)
		}
		net.Values[i] = t.Data // DecodeSafetensors' own slice: no one else holds it
	}
	return net, meta, nil
}
