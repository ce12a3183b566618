package league

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// maxFuncLines is the longest a function of this package may be, as in
// package train: a league step reads top to bottom in functions of a
// screen or so.
const maxFuncLines = 80

// No function or method in this package's non-test files is over
// maxFuncLines lines.
func TestFunctionsAreShort(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	checked := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range af.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			checked++
			from, to := fset.Position(fd.Type.Func), fset.Position(fd.Body.Rbrace)
			if n := to.Line - from.Line + 1; n > maxFuncLines {
				t.Errorf("%s:%d: %s is %d lines, want at most %d", f, from.Line, fd.Name.Name, n, maxFuncLines)
			}
		}
	}
	if checked < 30 {
		t.Fatalf("%d functions checked: is the test reading this package's files?", checked)
	}
}
