package pyval

import (
	"errors"
	"reflect"
	"testing"
)

func TestParseTaggedJSON(t *testing.T) {
	cases := []struct {
		in   string
		want Value
	}{
		{`null`, Value{Kind: None}},
		{`true`, B(true)},
		{`8`, I(8)},
		{`-3`, I(-3)},
		{`8.0`, F(8)},
		{`1e3`, F(1000)},
		{`"ab"`, S("ab")},
		{`[[8,8],[8,9]]`, L(L(I(8), I(8)), L(I(8), I(9)))},
		{`{"tuple":[{"tuple":[8,8]},{"tuple":[8,9]}]}`, T(T(I(8), I(8)), T(I(8), I(9)))},
		{`{"np":"int64","v":8}`, NpI(8)},
		{`{"np":"float32","v":8.5}`, Value{Kind: NumpyFloat, Float: 8.5}},
		{`{"type":"dict"}`, Obj("dict")},
		{`123456789012345678901234567890`, Value{Kind: Int, Big: true, Int: 1}},
	}
	for _, c := range cases {
		got, err := Parse([]byte(c.in))
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("Parse(%s) = %+v, %v; want %+v", c.in, got, err, c.want)
		}
		if err == nil && !c.want.Big {
			back, err := Parse(got.JSON())
			if err != nil || !reflect.DeepEqual(back, got) {
				t.Errorf("round trip of %s via %s = %+v, %v", c.in, got.JSON(), back, err)
			}
		}
	}
	for _, bad := range []string{``, `{`, `[1,2`, `1 2`, `{"tuple":3}`, `{"np":"int64"}`, "\xff"} {
		if _, err := Parse([]byte(bad)); err == nil {
			t.Errorf("Parse(%q) accepted", bad)
		}
	}
}

func TestPythonSemantics(t *testing.T) {
	// isinstance(x, int): bool yes, NumPy ints and floats no (rising-tide R22).
	for v, want := range map[*Value]bool{ptr(I(1)): true, ptr(B(true)): true, ptr(NpI(1)): false, ptr(F(1)): false, ptr(S("1")): false} {
		if v.IsPyInt() != want {
			t.Errorf("IsPyInt(%+v) = %v", *v, !want)
		}
	}
	// Unpacking (bovine-borders R20): wrong length → ValueError, scalar → TypeError.
	if _, err := I(3).Unpack(2); !errors.Is(err, ErrType) {
		t.Errorf("unpacking an int: %v", err)
	}
	if _, err := T(I(1), I(2), I(3)).Unpack(2); !errors.Is(err, ErrValue) {
		t.Errorf("unpacking 3 items into 2: %v", err)
	}
	if items, err := S("ab").Unpack(2); err != nil || items[1].Str != "b" {
		t.Errorf("unpacking \"ab\": %v %v", items, err)
	}
	if _, err := S("a").Unpack(2); !errors.Is(err, ErrValue) {
		t.Errorf("unpacking \"a\": %v", err)
	}
	// int(): floats truncate toward zero (bovine-borders E12).
	for _, c := range []struct {
		v    Value
		want int64
		err  error
	}{
		{F(0.9), 0, nil}, {F(-1.7), -1, nil}, {F(1.7), 1, nil}, {NpI(5), 5, nil}, {B(true), 1, nil},
		{S(" 12 "), 12, nil}, {S("x"), 0, ErrValue}, {Value{Kind: None}, 0, ErrType}, {L(), 0, ErrType},
	} {
		got, err := c.v.ToInt()
		if got != c.want || !errors.Is(err, c.err) {
			t.Errorf("int(%+v) = %d, %v; want %d, %v", c.v, got, err, c.want, c.err)
		}
	}
}

func ptr(v Value) *Value { return &v }

func FuzzParse(f *testing.F) {
	for _, s := range []string{`null`, `[[1,2],[3,4]]`, `{"tuple":[1,{"np":"int64","v":2}]}`, `"NESW"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := Parse(data)
		if err != nil {
			return
		}
		v.Unpack(2)
		v.ToInt()
		if _, err := Parse(v.JSON()); err != nil && v.Kind != Float && v.Kind != NumpyFloat && !v.Big {
			t.Fatalf("re-parse of %s failed: %v", v.JSON(), err)
		}
	})
}
