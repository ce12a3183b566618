package export

import (
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gridgym/gridgym/agents"
	"github.com/gridgym/gridgym/agents/neural"
	"github.com/gridgym/gridgym/rules"
	"github.com/gridgym/gridgym/search"
)

// The metadata keys of the weights appended to an executable with a baked-in
// search (Options.Search): the search bot spec and the seed of its draws.
const (
	MetaSearch     = "search"
	MetaSearchSeed = "search_seed"
)

// SearchSpec returns the search bot spec s names: s itself if it starts
// with search.Prefix, else s with the prefix (greedy@2000:opp=prior is
// search:greedy@2000:opp=prior).
func SearchSpec(s string) string {
	if strings.HasPrefix(s, search.Prefix) {
		return s
	}
	return search.Prefix + s
}

// checkSearch refuses a search that target t cannot bake in: a game whose
// export has no executable runner, an export without the executable, a
// malformed spec, or a prior, rollout, alternative or value bot that is not
// one of the game's registered bots (a weights file or a hosted program is
// not in the executable).
func checkSearch(t Target, opt Options) error {
	if opt.Search == "" {
		return nil
	}
	if t.Executable == "" || t.Runner == "" {
		return fmt.Errorf("search %q: the %s export has no executable runner to search in (only its Python bot, which plays the network alone)", opt.Search, t.Game)
	}
	if opt.NoBinary {
		return fmt.Errorf("search %q: only the executable searches, and the export skips it (no-binary)", opt.Search)
	}
	p, _, err := search.ParseSpec(SearchSpec(opt.Search))
	if err != nil {
		return err
	}
	if _, err := p.Factory(t.Game); err != nil {
		return fmt.Errorf("search %q: %w", opt.Search, err)
	}
	names := agents.Names(t.Game)
	for _, bot := range p.Bots() {
		if bot != "random" && !slices.Contains(names, bot) {
			return fmt.Errorf("search %q: %s is not a registered bot of %s (%s): the executable carries no files or other programs, only the bots it links",
				opt.Search, bot, t.Game, strings.Join(names, ", "))
		}
	}
	return nil
}

// withSearch returns the safetensors weights w with the search spec and
// its seed added to their metadata.
func withSearch(w []byte, spec string, seed uint64) ([]byte, error) {
	return neural.SetMetadata(w, func(m map[string]string) {
		m[MetaSearch] = SearchSpec(spec)
		m[MetaSearchSeed] = strconv.FormatUint(seed, 10)
	})
}

// RequestSeed is the seed of the search's draws for one request: the baked
// seed mixed with an FNV-1a hash of the request (trimmed of surrounding
// space), so the executable answers the same request with the same move
// and the Go agent, reset with rules.NewRNG(RequestSeed(seed, req)), plays
// it too.
func RequestSeed(seed uint64, req string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(strings.TrimSpace(req)))
	return rules.Mix64(seed ^ rules.Mix64(h.Sum64()))
}

// searcher is a ProgramBot's baked-in search: its settings, seed, and when
// the process started (a wall-clock limit, Params.Limit, counts from then).
type searcher struct {
	p     search.Params
	seed  uint64
	start time.Time
	log   io.Writer // if set, gets one line of the search's work per answer
}

// SetSearch makes b answer with the search agent of spec (a search bot spec
// with or without its prefix, package search) instead of the network, its
// draws seeded by RequestSeed(seed, request). A wall-clock limit in spec
// (ms=M) counts from start, the process's start in the executable (zero:
// from each answer's start).
func (b *ProgramBot) SetSearch(spec string, seed uint64, start time.Time) error {
	p, _, err := search.ParseSpec(SearchSpec(spec))
	if err != nil {
		return err
	}
	if _, err := p.Factory(b.game.Name); err != nil {
		return fmt.Errorf("search %q: %w", spec, err)
	}
	b.search = &searcher{p: p, seed: seed, start: start}
	return nil
}

// move returns the search agent's move for seat at st, the position of
// request req.
func (s *searcher) move(game string, st rules.State, seat int, req string) (rules.Move, error) {
	p := s.p
	if p.Limit > 0 && !s.start.IsZero() {
		p.Limit = max(p.Limit-time.Since(s.start), time.Millisecond)
	}
	f, err := p.Factory(game)
	if err != nil {
		return rules.Move{}, err
	}
	ag := f()
	ag.Reset(st, seat, rules.NewRNG(RequestSeed(s.seed, req)))
	m := ag.Act(st)
	if a, ok := ag.(*search.Agent); ok && s.log != nil {
		w := a.Stats()
		fmt.Fprintf(s.log, "search: %d simulations of %d in %.1f ms (%.1f ms since start)\n",
			w.Simulations, p.Budget, w.Time.Seconds()*1e3, time.Since(s.start).Seconds()*1e3)
	}
	return m, nil
}

// searchMeta returns the baked-in search of an executable's weights
// metadata; spec is "" for none.
func searchMeta(meta map[string]string) (spec string, seed uint64, err error) {
	spec = meta[MetaSearch]
	if spec == "" {
		return "", 0, nil
	}
	seed, err = metaSeed(meta, MetaSearchSeed, "search")
	return spec, seed, err
}

// metaSeed parses the seed an executable's weights metadata stores under
// key (what names it in the error).
func metaSeed(meta map[string]string, key, what string) (uint64, error) {
	seed, err := strconv.ParseUint(meta[key], 10, 64)
	if err != nil {
		return 0, errors.New("corrupt " + what + " seed in the bot's metadata: " + strconv.Quote(meta[key]))
	}
	return seed, nil
}

// searchReadme says in README.txt how the executable with a search plays.
func searchReadme(t Target, opt Options) string {
	return fmt.Sprintf("%s does not play the network: it answers each request with the tree search %s\n"+
		"(seed %d mixed with a hash of the request, so the same request gets the same move; a limit ms=M\n"+
		"counts from the process's start). %s plays the network alone.\n",
		t.Executable, SearchSpec(opt.Search), opt.SearchSeed, t.File)
}
