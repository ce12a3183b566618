package train

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// maxFuncLines is the longest a function of this package may be, counted
// from its func keyword to its closing brace: the algorithm reads top to
// bottom in functions of a screen or so (issue 53).
const maxFuncLines = 80

// No function or method in this package's non-test files is over
// maxFuncLines lines (package graph, the gorgonia machinery, is not held to
// it).
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
				t.Errorf("%s:%d: %s is %d lines, want at most %d", f, from.Line, funcName(fd), n, maxFuncLines)
			}
		}
	}
	if checked < 100 {
		t.Fatalf("%d functions checked: is the test reading this package's files?", checked)
	}
}

// funcName is a function's name, a method's with its receiver type.
func funcName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	typ := fd.Recv.List[0].Type
	if s, ok := typ.(*ast.StarExpr); ok {
		typ = s.X
	}
	if id, ok := typ.(*ast.Ident); ok {
		return id.Name + "." + fd.Name.Name
	}
	return fd.Name.Name
}
