package train

import (
	"testing"

	"github.com/gridgym/gridgym/internal/funclen"
)

// maxFuncLines is the longest a function of this package may be, counted
// from its func keyword to its closing brace: the algorithm reads top to
// bottom in functions of a screen or so (issue 53).
const maxFuncLines = 80

// No function or method in this package's non-test files is over
// maxFuncLines lines (package graph, the gorgonia machinery, is not held to
// it).
func TestFunctionsAreShort(t *testing.T) { funclen.Check(t, ".", maxFuncLines, 100) }
