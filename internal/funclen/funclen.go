// Package funclen holds packages to short functions: a package whose
// algorithm should read top to bottom (train, league) checks in a test that
// none of its functions is longer than about a screen. Only test files
// import it.
package funclen

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// Check fails t for every function or method in the non-test Go files of
// dir longer than max lines, counted from its func keyword to its closing
// brace, and fails it outright when fewer than least functions were read
// (the test is not reading the package it means to).
func Check(t testing.TB, dir string, max, least int) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
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
			if n := to.Line - from.Line + 1; n > max {
				t.Errorf("%s:%d: %s is %d lines, want at most %d", f, from.Line, Name(fd), n, max)
			}
		}
	}
	if checked < least {
		t.Fatalf("%d functions checked in %s, want at least %d: is the test reading the package's files?", checked, dir, least)
	}
}

// Name is a function's name, a method's with its receiver type.
func Name(fd *ast.FuncDecl) string {
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
