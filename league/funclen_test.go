package league

import (
	"testing"

	"github.com/gridgym/gridgym/internal/funclen"
)

// No function or method in this package's non-test files is over 80
// lines, as in package train: a league step reads top to bottom in
// functions of a screen or so.
func TestFunctionsAreShort(t *testing.T) { funclen.Check(t, ".", 80, 30) }
