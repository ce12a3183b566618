package train

import (
	"strings"
	"testing"
)

// An unknown field is named with its section, its line and the section's
// valid fields, in the config's own terms, not Go's (issue 52, item 8a).
func TestUnknownFieldListsTheValidOnes(t *testing.T) {
	for _, tc := range []struct{ yaml, want string }{
		{"game: slime\nppo:\n  lr: 0.001\n  lrr: 0.1\n", `my.yaml: ppo: unknown field "lrr" on line 4 (valid: lr, lr_final, gamma, lambda, clip, `},
		{"game: slime\nppo: {lrr: 0.1, lr: 0.001}", `my.yaml: ppo: unknown field "lrr" on line 2 (valid: lr, `},
		{"game: slime\nnetwork: {filters: 8, widht: 3}", `network: unknown field "widht" on line 2 (valid: filters, layers, hidden, coords)`},
		{"game: slime\nitterations: 5", `my.yaml: unknown field "itterations" on line 2 (valid: game, params, seed, iterations, `},
		{"game: slime\nopponents:\n  pool: 3", `opponents: unknown field "pool" on line 3 (valid: scripted, self, past, pool_every, pool_size, `},
	} {
		_, err := ParseConfig([]byte(tc.yaml), "my.yaml")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: err = %v, want %s…", tc.yaml, err, tc.want)
			continue
		}
		if strings.Contains(err.Error(), "train.") || strings.Contains(err.Error(), "not found in type") {
			t.Errorf("%q: err = %v names a Go type", tc.yaml, err)
		}
	}
}
