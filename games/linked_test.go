package games

import (
	"bytes"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// gamestest is the package that links the test game into a test binary.
const gamestest = module + "/games/gamestest"

// registryLoop matches a test's loop over the registered games.
var registryLoop = regexp.MustCompile(`range (rules\.Games|rules\.Names|export\.TargetGames|gamesWithEncoders)\(`)

// Every generic package whose tests loop over the registered games links
// the test game into them (a test file imports games/gamestest), so that
// each such loop runs on it too; the count of loops is logged.
func TestTestGameInEveryGenericSuite(t *testing.T) {
	games := gamePackages(t)
	loops := map[string]int{}   // package dir → loops over the registry
	linked := map[string]bool{} // package dir → a test file imports gamestest
	err := filepath.WalkDir("..", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); p != ".." && (strings.HasPrefix(n, ".") || n == "testdata" || n == "vendor") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, "_test.go") {
			return nil
		}
		rel, _ := filepath.Rel("..", p)
		dir := path.Dir(filepath.ToSlash(rel))
		if !generic(dir, games) {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), p, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		for _, im := range f.Imports {
			if s, _ := strconv.Unquote(im.Path.Value); s == gamestest {
				linked[dir] = true
			}
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		loops[dir] += len(registryLoop.FindAll(src, -1))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	total := 0
	for dir, n := range loops {
		if n == 0 {
			continue
		}
		dirs = append(dirs, dir)
		total += n
		if !linked[dir] {
			t.Errorf("%s: %d loops over the registered games, but no test file imports %s (add testgame_test.go as the other packages have)", dir, n, gamestest)
		}
	}
	sort.Strings(dirs)
	t.Logf("%d loops over the registered games in %d generic packages, each with the test game: %v", total, len(dirs), dirs)
}

// The test game stays out of the programs: no command's dependencies
// include games/gamestest or games/internal (only tests link them).
func TestTestGameNotLinked(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", module+"/cmd/...").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	for _, p := range strings.Fields(string(out)) {
		if p == gamestest || strings.HasPrefix(p, module+"/games/internal/") {
			t.Errorf("a program links %s", p)
		}
	}
	if !bytes.Contains(out, []byte(module+"/games\n")) {
		t.Fatalf("go list -deps names no games package:\n%s", out)
	}
}
