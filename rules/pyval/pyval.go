// Package pyval models the Python values a competition bot can return, so the
// game codecs can reproduce exactly how each official controller reads them
// (which types pass an isinstance check, what unpacking and int() accept).
//
// On the wire (between gridgym and the Python bot host) a value is tagged JSON:
//
//	null, true/false, 12 (int), 12.0 or 1e3 (float), "s" (str), [..] (list),
//	{"tuple":[..]}, {"np":"int64","v":8} (NumPy integer scalar),
//	{"np":"float64","v":8.5} (NumPy float scalar), {"type":"dict"} (anything else).
package pyval

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Kind is a Python type, as far as the codecs need to tell them apart.
type Kind uint8

// The kinds of Value.
const (
	None Kind = iota
	Bool
	Int
	Float
	Str
	List
	Tuple
	NumpyInt
	NumpyFloat
	Other
)

// Value is one Python value.
type Value struct {
	Kind  Kind
	Int   int64   // Bool (0/1), Int, NumpyInt
	Big   bool    // Int too large for int64 (Int holds its sign)
	Float float64 // Float, NumpyFloat
	Str   string  // Str; the type name for Other
	Items []Value // List, Tuple
}

// Constructors, mostly for tests.
func I(n int64) Value   { return Value{Kind: Int, Int: n} }
func F(f float64) Value { return Value{Kind: Float, Float: f} }
func S(s string) Value  { return Value{Kind: Str, Str: s} }
func B(b bool) Value {
	v := Value{Kind: Bool}
	if b {
		v.Int = 1
	}
	return v
}
func NpI(n int64) Value         { return Value{Kind: NumpyInt, Int: n} }
func T(items ...Value) Value    { return Value{Kind: Tuple, Items: items} }
func L(items ...Value) Value    { return Value{Kind: List, Items: items} }
func Obj(typeName string) Value { return Value{Kind: Other, Str: typeName} }

// Errors of Unpack and ToInt, named after the Python exceptions they stand for.
var (
	ErrType  = errors.New("TypeError")
	ErrValue = errors.New("ValueError")
)

// IsPyInt reports isinstance(v, int): true for int and bool, false for NumPy
// integers, floats and everything else.
func (v Value) IsPyInt() bool { return v.Kind == Int || v.Kind == Bool }

// Unpack does Python's `a, b, … = v` for n targets: sequences and strings of
// exactly n items unpack; a wrong length is ErrValue; a non-iterable is ErrType.
func (v Value) Unpack(n int) ([]Value, error) {
	switch v.Kind {
	case List, Tuple:
		if len(v.Items) != n {
			return nil, ErrValue
		}
		return v.Items, nil
	case Str:
		rs := []rune(v.Str)
		if len(rs) != n {
			return nil, ErrValue
		}
		out := make([]Value, n)
		for i, r := range rs {
			out[i] = S(string(r))
		}
		return out, nil
	case Other:
		return nil, ErrType // unknown objects: treated as not iterable
	default:
		return nil, ErrType
	}
}

// ToInt does Python's int(v): ints, bools and NumPy integers as they are,
// floats truncated toward zero, decimal strings parsed; anything else fails
// with ErrType (or ErrValue for a bad string, a NaN or an infinity).
func (v Value) ToInt() (int64, error) {
	switch v.Kind {
	case Int, Bool, NumpyInt:
		if v.Big {
			return 0, ErrValue
		}
		return v.Int, nil
	case Float, NumpyFloat:
		if math.IsNaN(v.Float) || math.IsInf(v.Float, 0) || math.Abs(v.Float) > 1e18 {
			return 0, ErrValue
		}
		return int64(v.Float), nil
	case Str:
		s := strings.ReplaceAll(strings.TrimSpace(v.Str), "_", "")
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return 0, ErrValue
		}
		return n, nil
	}
	return 0, ErrType
}

// Parse decodes tagged JSON into a Value.
func Parse(data []byte) (Value, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var raw any
	if err := dec.Decode(&raw); err != nil {
		return Value{}, fmt.Errorf("pyval: %w", err)
	}
	if dec.More() {
		return Value{}, errors.New("pyval: trailing data after value")
	}
	return fromJSON(raw, 0)
}

const maxDepth = 64

func fromJSON(x any, depth int) (Value, error) {
	if depth > maxDepth {
		return Value{}, errors.New("pyval: nested too deep")
	}
	switch t := x.(type) {
	case nil:
		return Value{Kind: None}, nil
	case bool:
		return B(t), nil
	case string:
		return S(t), nil
	case json.Number:
		s := string(t)
		if strings.ContainsAny(s, ".eE") {
			f, err := strconv.ParseFloat(s, 64)
			if err != nil {
				return Value{}, fmt.Errorf("pyval: float %s: %w", s, err)
			}
			return F(f), nil
		}
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			big := Value{Kind: Int, Big: true, Int: 1}
			if strings.HasPrefix(s, "-") {
				big.Int = -1
			}
			return big, nil
		}
		return I(n), nil
	case []any:
		return items(List, t, depth)
	case map[string]any:
		if tu, ok := t["tuple"]; ok && len(t) == 1 {
			arr, ok := tu.([]any)
			if !ok {
				return Value{}, errors.New("pyval: tuple must hold an array")
			}
			return items(Tuple, arr, depth)
		}
		if np, ok := t["np"].(string); ok {
			num, ok := t["v"].(json.Number)
			if !ok {
				return Value{}, errors.New("pyval: numpy scalar needs a numeric v")
			}
			inner, err := fromJSON(num, depth+1)
			if err != nil {
				return Value{}, err
			}
			if strings.Contains(np, "int") && inner.Kind == Int {
				inner.Kind = NumpyInt
				return inner, nil
			}
			if strings.Contains(np, "bool") && inner.Kind == Int {
				return Value{Kind: Other, Str: "numpy.bool_"}, nil
			}
			f, _ := strconv.ParseFloat(string(num), 64)
			return Value{Kind: NumpyFloat, Float: f}, nil
		}
		name, _ := t["type"].(string)
		if name == "" {
			name = "object"
		}
		return Obj(name), nil
	}
	return Value{}, fmt.Errorf("pyval: unexpected JSON %T", x)
}

func items(k Kind, arr []any, depth int) (Value, error) {
	v := Value{Kind: k, Items: make([]Value, len(arr))}
	for i, a := range arr {
		it, err := fromJSON(a, depth+1)
		if err != nil {
			return Value{}, err
		}
		v.Items[i] = it
	}
	return v, nil
}

// JSON encodes v as tagged JSON (the inverse of Parse).
func (v Value) JSON() []byte {
	var b bytes.Buffer
	v.write(&b)
	return b.Bytes()
}

func (v Value) write(b *bytes.Buffer) {
	switch v.Kind {
	case None:
		b.WriteString("null")
	case Bool:
		b.WriteString(strconv.FormatBool(v.Int != 0))
	case Int:
		b.WriteString(strconv.FormatInt(v.Int, 10))
	case Float:
		b.WriteString(formatFloat(v.Float))
	case Str:
		s, _ := json.Marshal(v.Str)
		b.Write(s)
	case List, Tuple:
		if v.Kind == Tuple {
			b.WriteString(`{"tuple":`)
		}
		b.WriteByte('[')
		for i, it := range v.Items {
			if i > 0 {
				b.WriteByte(',')
			}
			it.write(b)
		}
		b.WriteByte(']')
		if v.Kind == Tuple {
			b.WriteByte('}')
		}
	case NumpyInt:
		fmt.Fprintf(b, `{"np":"int64","v":%d}`, v.Int)
	case NumpyFloat:
		fmt.Fprintf(b, `{"np":"float64","v":%s}`, formatFloat(v.Float))
	default:
		s, _ := json.Marshal(v.Str)
		fmt.Fprintf(b, `{"type":%s}`, s)
	}
}

func formatFloat(f float64) string {
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if !strings.ContainsAny(s, ".eEn") { // keep floats distinguishable from ints
		s += ".0"
	}
	return s
}

// AppendGrid appends a rows×cols board as a JSON list of row lists of ints,
// the form in which the Python competitions pass their boards; at(r, c)
// gives each value.
func AppendGrid(dst []byte, rows, cols int, at func(r, c int) int) []byte {
	dst = append(dst, '[')
	for r := 0; r < rows; r++ {
		if r > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, '[')
		for c := 0; c < cols; c++ {
			if c > 0 {
				dst = append(dst, ',')
			}
			dst = strconv.AppendInt(dst, int64(at(r, c)), 10)
		}
		dst = append(dst, ']')
	}
	return append(dst, ']')
}
