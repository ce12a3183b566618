package rulestest

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gridgym/gridgym/rules"
)

// PolicyFile is the name of a game's network fixture in its testdata
// folder: a tiny network of the game (a few KB; docs/adding-a-game.md says
// how to make one), which the tests that need a network file load. The
// shipped, strong networks are in models/.
const PolicyFile = "policy.safetensors"

// Policy returns the path of game's network fixture,
// <its folder>/testdata/policy.safetensors (Fixture).
func Policy(t testing.TB, game string) string { return Fixture(t, game, PolicyFile) }

// PolicyCopy copies game's network fixture (Policy) into a temporary file
// with mode perm, which the test may rewrite, and returns its path and the
// fixture's bytes.
func PolicyCopy(t testing.TB, game string, perm os.FileMode) (string, []byte) {
	t.Helper()
	b, err := os.ReadFile(Policy(t, game))
	if err != nil {
		t.Fatal(err)
	}
	w := filepath.Join(t.TempDir(), game+".safetensors")
	if err := os.WriteFile(w, b, perm); err != nil {
		t.Fatal(err)
	}
	return w, b
}

// Fixture returns the absolute path of the file name in game's testdata
// folder: the folder of the package that declares the game
// (rules.Game.Package), found from the module root above the test's
// working directory. The file need not exist.
func Fixture(t testing.TB, game, name string) string {
	t.Helper()
	g, err := rules.Lookup(game)
	if err != nil {
		t.Fatal(err)
	}
	root, module := moduleRoot(t)
	pkg := g.Package()
	rel, ok := strings.CutPrefix(pkg, module+"/")
	if !ok {
		t.Fatalf("%s: package %s is outside module %s", game, pkg, module)
	}
	return filepath.Join(root, filepath.FromSlash(rel), "testdata", name)
}

// moduleRoot returns the directory of the go.mod above the working
// directory and the module path it declares.
func moduleRoot(t testing.TB) (dir, module string) {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		f, err := os.Open(filepath.Join(dir, "go.mod"))
		if err == nil {
			defer f.Close()
			sc := bufio.NewScanner(f)
			for sc.Scan() {
				if m, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "module "); ok {
					return dir, strings.Trim(strings.TrimSpace(m), `"`)
				}
			}
			t.Fatalf("%s: no module line", filepath.Join(dir, "go.mod"))
		}
		up := filepath.Dir(dir)
		if up == dir {
			t.Fatal("no go.mod above the working directory")
		}
		dir = up
	}
}
