package export

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// pureLiterals returns the Python assignments a Pure module reads instead of
// parsing the safetensors header: _ARCH and _PARAMS (the metadata's arch and
// params JSON as Python literals) and _TENSORS (each float32 tensor's first
// and end index in the file's body, in floats).
func pureLiterals(w []byte, meta map[string]string) (string, error) {
	if len(w) < 8 {
		return "", fmt.Errorf("weights too short")
	}
	n := binary.LittleEndian.Uint64(w[:8])
	if n > uint64(len(w)-8) {
		return "", fmt.Errorf("weights header length %d past the end", n)
	}
	var header map[string]json.RawMessage
	if err := json.Unmarshal(w[8:8+n], &header); err != nil {
		return "", fmt.Errorf("weights header: %w", err)
	}
	type tensor struct {
		DType   string   `json:"dtype"`
		Offsets [2]int64 `json:"data_offsets"`
	}
	var names []string
	ts := map[string]tensor{}
	for name, raw := range header {
		if name == "__metadata__" {
			continue
		}
		var t tensor
		if err := json.Unmarshal(raw, &t); err != nil {
			return "", fmt.Errorf("tensor %s: %w", name, err)
		}
		if t.DType != "F32" || t.Offsets[0]%4 != 0 || t.Offsets[1]%4 != 0 {
			return "", fmt.Errorf("tensor %s: dtype %s at %v, want F32 at float offsets", name, t.DType, t.Offsets)
		}
		names = append(names, name)
		ts[name] = t
	}
	sort.Strings(names)
	var b strings.Builder
	for _, kv := range [][2]string{{"_ARCH", meta["arch"]}, {"_PARAMS", meta["params"]}} {
		src := kv[1]
		if src == "" {
			src = "{}"
		}
		var v any
		if err := json.Unmarshal([]byte(src), &v); err != nil {
			return "", fmt.Errorf("metadata %s: %w", strings.ToLower(kv[0][1:]), err)
		}
		if v == nil {
			v = map[string]any{}
		}
		fmt.Fprintf(&b, "%s = %s\n", kv[0], pyLiteral(v))
	}
	b.WriteString("_TENSORS = {\n")
	for _, name := range names {
		t := ts[name]
		fmt.Fprintf(&b, "    %s: (%d, %d),\n", strconv.Quote(name), t.Offsets[0]/4, t.Offsets[1]/4)
	}
	b.WriteString("}\n")
	return b.String(), nil
}

// pyLiteral writes a JSON value (as encoding/json decodes it into any) as a
// Python literal.
func pyLiteral(v any) string {
	switch x := v.(type) {
	case nil:
		return "None"
	case bool:
		if x {
			return "True"
		}
		return "False"
	case float64:
		if x == float64(int64(x)) {
			return strconv.FormatInt(int64(x), 10)
		}
		return strconv.FormatFloat(x, 'g', -1, 64)
	case string:
		return strconv.Quote(x) // Go's escapes are valid in Python strings for printable text
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = pyLiteral(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = strconv.Quote(k) + ": " + pyLiteral(x[k])
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return "None"
}
