package slime_test

import (
	"fmt"

	"github.com/gridgym/gridgym/rules/slime"
)

// The controller's reading of a bot's output (R15).
func ExampleParseOutput() {
	for _, out := range []string{"7 0 6 1\n", "7 0 6 1", "7 0 6 1 extra\n", "1 2 3 4.5", "7,0,6,1\n", "+1 2\t3 4\n"} {
		r1, c1, r2, c2, ok := slime.ParseOutput([]byte(out))
		fmt.Printf("%q: %d %d %d %d %v\n", out, r1, c1, r2, c2, ok)
	}
	// Output:
	// "7 0 6 1\n": 7 0 6 1 true
	// "7 0 6 1": 0 0 0 0 false
	// "7 0 6 1 extra\n": 7 0 6 1 true
	// "1 2 3 4.5": 1 2 3 4 true
	// "7,0,6,1\n": 0 0 0 0 false
	// "+1 2\t3 4\n": 1 2 3 4 true
}
