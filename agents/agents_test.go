package agents

import (
	"strings"
	"testing"
)

func TestGenericAgentsForEveryGame(t *testing.T) {
	for _, name := range []string{"random", "pass"} {
		e, err := Lookup("any-game", name)
		if err != nil || e.Name != name || e.Game != "any-game" || e.New() == nil {
			t.Errorf("Lookup(any-game, %s) = %+v, %v", name, e, err)
		}
	}
	if got := strings.Join(Names("any-game"), ","); got != "pass,random" {
		t.Errorf("Names = %s", got)
	}
	_, err := Lookup("any-game", "nobody")
	if err == nil || !strings.Contains(err.Error(), "valid: pass, random") {
		t.Errorf("unknown bot error %v should list the valid bots", err)
	}
}
