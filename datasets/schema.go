package datasets

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/apache/arrow/go/v14/arrow"

	"github.com/gridgym/gridgym/rules"
)

// Column names of a trajectory shard, in schema order. ColActionHeads is
// present only when Meta.Heads > 1.
const (
	ColGame        = "game"         // dictionary<int32, utf8>: the game's registry name
	ColRunID       = "run_id"       // dictionary<int32, utf8>: Meta.RunID
	ColEpisodeID   = "episode_id"   // uint64: Row.EpisodeID
	ColStep        = "step"         // int32: Row.Step
	ColSeat        = "seat"         // uint8: Row.Seat
	ColState       = "state"        // fixed_size_list<uint64>[StateWords]: Row.State
	ColAction      = "action"       // int32: Row.Action[0]
	ColActionHeads = "action_heads" // fixed_size_list<int32>[Heads]: Row.Action (Heads > 1 only)
	ColMove        = "move"         // fixed_size_list<int16>[10]: kind, n, arg0..arg7
	ColLegal       = "legal"        // fixed_size_list<uint64>[MaskWords]: Row.Legal
	ColReward      = "reward"       // float32: Row.Reward
	ColDone        = "done"         // bool: Row.Done
	ColTruncated   = "truncated"    // bool: Row.Truncated
	ColPolicyLogP  = "policy_logp"  // float32, null unless Row.HasPolicy: Row.LogP
	ColValue       = "value"        // float32, null unless Row.HasPolicy: Row.Value
	ColAgent       = "agent"        // dictionary<int32, utf8>: Row.Agent
)

// MoveWidth is the length of the move column's lists: kind, n, then the
// eight Arg entries of rules.Move.
const MoveWidth = 10

// File metadata keys. Every value is a string; Agents is a JSON list, Seed
// and the widths are decimal, Created is RFC 3339 (with fractional seconds).
const (
	KeySchemaVersion = "gridgym.schema_version"
	KeyRunID         = "gridgym.run_id"
	KeyGame          = "gridgym.game"
	KeyParams        = "gridgym.params"
	KeySeed          = "gridgym.seed"
	KeyAgents        = "gridgym.agents"
	KeyCodeVersion   = "gridgym.code_version"
	KeyStateWords    = "gridgym.state_words"
	KeyMaskWords     = "gridgym.mask_words"
	KeyHeads         = "gridgym.heads"
	KeyReward        = "gridgym.reward"
	KeyCreated       = "gridgym.created"
)

// metaKeys lists the metadata keys in the order they are written.
var metaKeys = []string{
	KeySchemaVersion, KeyRunID, KeyGame, KeyParams, KeySeed, KeyAgents,
	KeyCodeVersion, KeyStateWords, KeyMaskWords, KeyHeads, KeyReward, KeyCreated,
}

// dictString is the type of the dictionary-encoded string columns.
var dictString = &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}

// check reports the first problem that makes m unusable for a shard.
func (m Meta) check() error {
	switch {
	case m.SchemaVersion != SchemaVersion:
		return fmt.Errorf("schema version %d, this code writes %d", m.SchemaVersion, SchemaVersion)
	case m.Game == "":
		return errors.New("no game")
	case m.RunID == "":
		return errors.New("no run ID")
	case m.StateWords < 1:
		return fmt.Errorf("StateWords = %d, want ≥ 1", m.StateWords)
	case m.MaskWords < 1:
		return fmt.Errorf("MaskWords = %d, want ≥ 1", m.MaskWords)
	case m.Heads < 1:
		return fmt.Errorf("Heads = %d, want ≥ 1", m.Heads)
	case len(m.Agents) == 0:
		return errors.New("no agents (Meta.Agents lists every agent name rows may carry)")
	}
	seen := map[string]bool{}
	for _, a := range m.Agents {
		if seen[a] {
			return fmt.Errorf("agent %q listed twice", a)
		}
		seen[a] = true
	}
	return nil
}

// Schema returns the Arrow schema of shards described by m, with m as the
// schema's metadata (keys Key…). It fails if m cannot describe a shard (no
// game, run ID or agents, a width below 1, another schema version).
func Schema(m Meta) (*arrow.Schema, error) {
	if err := m.check(); err != nil {
		return nil, fmt.Errorf("datasets: meta: %w", err)
	}
	agents, err := json.Marshal(m.Agents)
	if err != nil {
		return nil, fmt.Errorf("datasets: meta agents: %w", err)
	}
	vals := []string{
		strconv.Itoa(m.SchemaVersion), m.RunID, m.Game, m.Params,
		strconv.FormatUint(m.Seed, 10), string(agents), m.CodeVersion,
		strconv.Itoa(m.StateWords), strconv.Itoa(m.MaskWords), strconv.Itoa(m.Heads),
		m.Reward, m.Created.Format(time.RFC3339Nano),
	}
	md := arrow.NewMetadata(metaKeys, vals)
	return arrow.NewSchema(fields(m), &md), nil
}

// fields lists the columns of shards described by m.
func fields(m Meta) []arrow.Field {
	fs := []arrow.Field{
		{Name: ColGame, Type: dictString},
		{Name: ColRunID, Type: dictString},
		{Name: ColEpisodeID, Type: arrow.PrimitiveTypes.Uint64},
		{Name: ColStep, Type: arrow.PrimitiveTypes.Int32},
		{Name: ColSeat, Type: arrow.PrimitiveTypes.Uint8},
		{Name: ColState, Type: fixedList(m.StateWords, arrow.PrimitiveTypes.Uint64)},
		{Name: ColAction, Type: arrow.PrimitiveTypes.Int32},
	}
	if m.Heads > 1 {
		fs = append(fs, arrow.Field{Name: ColActionHeads, Type: fixedList(m.Heads, arrow.PrimitiveTypes.Int32)})
	}
	return append(fs,
		arrow.Field{Name: ColMove, Type: fixedList(MoveWidth, arrow.PrimitiveTypes.Int16)},
		arrow.Field{Name: ColLegal, Type: fixedList(m.MaskWords, arrow.PrimitiveTypes.Uint64)},
		arrow.Field{Name: ColReward, Type: arrow.PrimitiveTypes.Float32},
		arrow.Field{Name: ColDone, Type: arrow.FixedWidthTypes.Boolean},
		arrow.Field{Name: ColTruncated, Type: arrow.FixedWidthTypes.Boolean},
		arrow.Field{Name: ColPolicyLogP, Type: arrow.PrimitiveTypes.Float32, Nullable: true},
		arrow.Field{Name: ColValue, Type: arrow.PrimitiveTypes.Float32, Nullable: true},
		arrow.Field{Name: ColAgent, Type: dictString},
	)
}

// fixedList is fixed_size_list<elem>[n] with non-nullable items.
func fixedList(n int, elem arrow.DataType) arrow.DataType {
	return arrow.FixedSizeListOfNonNullable(int32(n), elem)
}

// MetaFromSchema reads a shard's Meta from its schema's metadata. Errors
// name the missing or malformed key; a schema version newer than
// SchemaVersion is refused. It does not check the columns (see
// CheckSchema).
func MetaFromSchema(s *arrow.Schema) (Meta, error) {
	md := s.Metadata()
	get := func(key string) (string, error) {
		i := md.FindKey(key)
		if i < 0 {
			return "", fmt.Errorf("metadata key %s missing", key)
		}
		return md.Values()[i], nil
	}
	atoi := func(key string, min int) (int, error) {
		v, err := get(key)
		if err != nil {
			return 0, err
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < min {
			return 0, fmt.Errorf("metadata key %s = %q: want an integer ≥ %d", key, v, min)
		}
		return n, nil
	}
	var m Meta
	if md.FindKey(KeySchemaVersion) < 0 {
		return Meta{}, fmt.Errorf("not a gridgym trajectory shard: metadata key %s missing", KeySchemaVersion)
	}
	var err error
	if m.SchemaVersion, err = atoi(KeySchemaVersion, 1); err != nil {
		return Meta{}, err
	}
	if m.SchemaVersion > SchemaVersion {
		return Meta{}, fmt.Errorf("schema version %d is newer than this reader's %d: upgrade gridgym", m.SchemaVersion, SchemaVersion)
	}
	if m.RunID, err = get(KeyRunID); err != nil {
		return Meta{}, err
	}
	if m.Game, err = get(KeyGame); err != nil {
		return Meta{}, err
	}
	if m.Params, err = get(KeyParams); err != nil {
		return Meta{}, err
	}
	seed, err := get(KeySeed)
	if err != nil {
		return Meta{}, err
	}
	if m.Seed, err = strconv.ParseUint(seed, 10, 64); err != nil {
		return Meta{}, fmt.Errorf("metadata key %s = %q: want an unsigned integer", KeySeed, seed)
	}
	agents, err := get(KeyAgents)
	if err != nil {
		return Meta{}, err
	}
	if err := json.Unmarshal([]byte(agents), &m.Agents); err != nil {
		return Meta{}, fmt.Errorf("metadata key %s = %q: want a JSON list of strings: %v", KeyAgents, agents, err)
	}
	if m.CodeVersion, err = get(KeyCodeVersion); err != nil {
		return Meta{}, err
	}
	if m.StateWords, err = atoi(KeyStateWords, 1); err != nil {
		return Meta{}, err
	}
	if m.MaskWords, err = atoi(KeyMaskWords, 1); err != nil {
		return Meta{}, err
	}
	if m.Heads, err = atoi(KeyHeads, 1); err != nil {
		return Meta{}, err
	}
	if m.Reward, err = get(KeyReward); err != nil {
		return Meta{}, err
	}
	created, err := get(KeyCreated)
	if err != nil {
		return Meta{}, err
	}
	if m.Created, err = time.Parse(time.RFC3339Nano, created); err != nil {
		return Meta{}, fmt.Errorf("metadata key %s = %q: want an RFC 3339 time", KeyCreated, created)
	}
	if err := m.check(); err != nil {
		return Meta{}, fmt.Errorf("metadata: %w", err)
	}
	return m, nil
}

// CheckSchema reports whether s has exactly the columns of shards described
// by m (names, types, nullability, order); the error names the first column
// that differs.
func CheckSchema(s *arrow.Schema, m Meta) error {
	want := fields(m)
	got := s.Fields()
	for i, w := range want {
		if i >= len(got) {
			return fmt.Errorf("column %d (%s %s) missing", i, w.Name, w.Type)
		}
		g := got[i]
		if g.Name != w.Name || !arrow.TypeEqual(g.Type, w.Type) || g.Nullable != w.Nullable {
			return fmt.Errorf("column %d is %s %s (nullable %v), want %s %s (nullable %v)", i, g.Name, g.Type, g.Nullable, w.Name, w.Type, w.Nullable)
		}
	}
	if len(got) > len(want) {
		return fmt.Errorf("unexpected column %d (%s %s)", len(want), got[len(want)].Name, got[len(want)].Type)
	}
	return nil
}

// Config returns the game configuration the shard was written with: the
// registered game m.Game (its package must be linked in, e.g. by importing
// package games) configured from m.Params.
func (m Meta) Config() (rules.Config, error) {
	g, err := rules.Lookup(m.Game)
	if err != nil {
		return rules.Config{}, err
	}
	vals, err := ParseParams(g, m.Params)
	if err != nil {
		return rules.Config{}, err
	}
	return g.Configure(vals)
}

// ParseParams parses rules.Config.String()'s form for g
// (rules.Game.ParseConfigString).
func ParseParams(g *rules.Game, s string) (map[string]string, error) { return g.ParseConfigString(s) }
