package games

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/gridgym/gridgym/rules"
)

const module = "github.com/gridgym/gridgym"

// importExceptions are the generic packages that may import a game package,
// with the reason.
var importExceptions = map[string]string{
	// Slime's stand-alone executable (rules.Export.Runner) links only its
	// game's bots package (the prior of a baked-in search, `gridgym export
	// --search`) and, through it, its rules, to stay small and start
	// within R16's 0.1 s.
	"cmd/slimebot": module + "/agents/slimebots",
	// A report's probe of one game (reports/bovine-borders/captures and
	// continue): a tournament whose network bot declines captures, which
	// it tells from the game's board, or switches bots at a round it reads
	// from the game's state; an experiment kept beside the figures it
	// made, not a part of gridgym.
	"reports/bovine-borders/captures/nocap": module + "/rules/bovine",
}

// gamePackages returns the game folders this package's tests link, as
// module-relative directories: the bots packages that games.go and
// testgame_test.go import (agents/<game>bots, the test game's under
// games/internal/), and each registered game's rules package
// (rules.Game.Package), which the bots package imports.
func gamePackages(t *testing.T) []string {
	t.Helper()
	dirs := linkedBots(t)
	for _, g := range rules.Games() {
		p := g.Package()
		if !strings.HasPrefix(p, module+"/") {
			t.Fatalf("%s: State type %s outside the module", g.Name, p)
		}
		dirs = append(dirs, strings.TrimPrefix(p, module+"/"))
	}
	return dirs
}

// linkedBots returns the game packages games.go and testgame_test.go import
// (module-relative): one bots package per game.
func linkedBots(t *testing.T) []string {
	t.Helper()
	var dirs []string
	for _, file := range []string{"games.go", "testgame_test.go"} {
		f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			rel := strings.TrimPrefix(p, module+"/")
			if strings.HasPrefix(rel, "rules/") || strings.HasPrefix(rel, "agents/") || strings.HasPrefix(rel, "games/internal/") {
				dirs = append(dirs, rel)
			}
		}
	}
	if len(dirs) == 0 {
		t.Fatal("games.go links no game")
	}
	return dirs
}

// inGame reports whether the module-relative directory dir is a game's
// folder or below one.
func inGame(dir string, games []string) bool {
	for _, g := range games {
		if dir == g || strings.HasPrefix(dir, g+"/") {
			return true
		}
	}
	return false
}

// generic reports whether the module-relative directory dir is a generic
// package: not a game's folder (or below it), not games/.
func generic(dir string, games []string) bool {
	return dir != "games" && !strings.HasPrefix(dir, "games/") && !inGame(dir, games)
}

// sourceFiles calls fn for every non-test Go file of the module, by
// module-relative slash path, skipping testdata and hidden folders. In a git
// work tree only the files git tracks count (a local, uncommitted probe is
// not the module's).
func sourceFiles(t *testing.T, fn func(rel string, f *ast.File)) {
	t.Helper()
	root := ".."
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("module root: %v", err)
	}
	var tracked map[string]bool
	if out, err := exec.Command("git", "-C", root, "ls-files", "--", "*.go").Output(); err == nil && len(out) > 0 {
		tracked = map[string]bool{}
		for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			tracked[l] = true
		}
	}
	fset := token.NewFileSet()
	n := 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != root && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata" || name == "vendor") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		if tracked != nil && !tracked[filepath.ToSlash(rel)] {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		n++
		fn(filepath.ToSlash(rel), f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 100 {
		t.Fatalf("read %d Go files: not the module", n)
	}
}

// No generic package imports a game package (issue 26): what the host, the
// exporter, the trainer and the CLI know of a game they read from the
// registry. Test files are not checked (a test may pick a game).
func TestGenericPackagesImportNoGame(t *testing.T) {
	games := gamePackages(t)
	var bad []string
	sourceFiles(t, func(rel string, f *ast.File) {
		dir := path.Dir(rel)
		if !generic(dir, games) {
			return
		}
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			if !strings.HasPrefix(p, module+"/") || !inGame(strings.TrimPrefix(p, module+"/"), games) {
				continue
			}
			if importExceptions[dir] == p {
				continue
			}
			bad = append(bad, rel+" imports "+p)
		}
	})
	sort.Strings(bad)
	for _, b := range bad {
		t.Error(b)
	}
}

// No generic package spells a registered game's name as a string literal
// (issue 26): the CLI's default --game values are DefaultTrainGame and
// DefaultPlayGame, here.
func TestGenericPackagesNameNoGame(t *testing.T) {
	games := gamePackages(t)
	names := map[string]bool{}
	for _, n := range rules.Names() {
		names[n] = true
	}
	var bad []string
	sourceFiles(t, func(rel string, f *ast.File) {
		if !generic(path.Dir(rel), games) {
			return
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			if s, err := strconv.Unquote(lit.Value); err == nil && names[s] {
				bad = append(bad, rel+": "+lit.Value)
			}
			return true
		})
	})
	sort.Strings(bad)
	for _, b := range bad {
		t.Error(b)
	}
}
