package datasets

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/apache/arrow/go/v14/arrow"
)

// Summary describes a dataset: what Inspect found.
type Summary struct {
	Path   string
	Meta   Meta          // the first shard's metadata
	Schema *arrow.Schema // the first shard's schema
	Files  []FileSummary
	Stale  []string // writers' temporary files (a writer running, or killed)
	RunIDs []string // distinct runs, in file order

	Rows      int64
	Bytes     int64   // on disk, all shards
	Episodes  int64   // distinct (run, episode) pairs
	Steps     int64   // env steps: episode lengths added up
	MeanLen   float64 // mean episode length in env steps
	Done      int64   // episodes ended by the rules
	Truncated int64   // episodes cut (or with neither flag: incomplete)
	Agents    []AgentSummary
}

// FileSummary describes one shard.
type FileSummary struct {
	Path     string
	RunID    string
	Rows     int64
	Batches  int
	Bytes    int64
	Episodes int64
}

// AgentSummary is an agent's results over the (episode, seat) pairs it
// played.
type AgentSummary struct {
	Name       string
	Seats      int64   // (episode, seat) pairs played
	Rows       int64   // rows
	MeanReturn float64 // mean over its seats of the sum of rewards
	MeanFinal  float64 // mean over its seats of the last row's reward
}

// Inspect reads every shard under path (a shard or a directory) and
// summarises it: files, metadata, rows, episodes, mean episode length, and
// per agent the mean return and mean final reward. An unreadable shard is an
// error naming it (see Validate for a full check).
func Inspect(path string) (Summary, error) {
	s := Summary{Path: path, Stale: staleTemps(path)}
	files, err := Files(path)
	if err != nil {
		return s, err
	}
	if len(files) == 0 {
		return s, fmt.Errorf("datasets: no shards (*.arrow) in %s", path)
	}
	type acc struct {
		agent string
		sum   float64
		last  float32
		rows  int64
	}
	type agentAcc struct {
		seats, rows int64
		ret, final  float64
	}
	agents := map[string]*agentAcc{}
	runs := map[string]bool{}
	for i, file := range files {
		r, err := Open(file)
		if err != nil {
			return s, err
		}
		meta := r.Meta()
		if i == 0 {
			s.Meta, s.Schema = meta, r.Schema()
		}
		if !runs[meta.RunID] {
			runs[meta.RunID] = true
			s.RunIDs = append(s.RunIDs, meta.RunID)
		}
		fs := FileSummary{Path: file, RunID: meta.RunID, Rows: r.NumRows(), Batches: r.NumBatches(), Bytes: r.Size()}
		seats := map[epSeat]*acc{}
		type epAcc struct {
			steps       int32
			done, trunc bool
		}
		eps := map[uint64]*epAcc{}
		err = r.Each(func(row Row) error {
			k := epSeat{row.EpisodeID, row.Seat}
			a := seats[k]
			if a == nil {
				a = &acc{agent: row.Agent}
				seats[k] = a
			}
			a.sum += float64(row.Reward)
			a.last = row.Reward
			a.rows++
			e := eps[row.EpisodeID]
			if e == nil {
				e = &epAcc{}
				eps[row.EpisodeID] = e
			}
			e.steps = max(e.steps, row.Step+1)
			e.done = e.done || row.Done
			e.trunc = e.trunc || row.Truncated
			return nil
		})
		r.Close()
		if err != nil {
			return s, err
		}
		for _, a := range seats {
			g := agents[a.agent]
			if g == nil {
				g = &agentAcc{}
				agents[a.agent] = g
			}
			g.seats++
			g.rows += a.rows
			g.ret += a.sum
			g.final += float64(a.last)
		}
		for _, e := range eps {
			s.Steps += int64(e.steps)
			if e.done {
				s.Done++
			} else {
				s.Truncated++
			}
		}
		fs.Episodes = int64(len(eps))
		s.Episodes += fs.Episodes
		s.Rows += fs.Rows
		s.Bytes += fs.Bytes
		s.Files = append(s.Files, fs)
	}
	if s.Episodes > 0 {
		s.MeanLen = float64(s.Steps) / float64(s.Episodes)
	}
	for name, g := range agents {
		s.Agents = append(s.Agents, AgentSummary{Name: name, Seats: g.seats, Rows: g.rows,
			MeanReturn: g.ret / float64(g.seats), MeanFinal: g.final / float64(g.seats)})
	}
	sort.Slice(s.Agents, func(i, j int) bool { return s.Agents[i].Name < s.Agents[j].Name })
	return s, nil
}

// WriteText writes the summary for people (the `gridgym datasets inspect`
// output).
func (s *Summary) WriteText(w io.Writer) error {
	m := s.Meta
	b := &strings.Builder{}
	fmt.Fprintf(b, "path:        %s\n", s.Path)
	fmt.Fprintf(b, "game:        %s (%s)\n", m.Game, m.Params)
	fmt.Fprintf(b, "runs:        %s\n", strings.Join(s.RunIDs, ", "))
	fmt.Fprintf(b, "seed:        %d\n", m.Seed)
	fmt.Fprintf(b, "agents:      %s\n", strings.Join(m.Agents, ", "))
	fmt.Fprintf(b, "reward:      %s\n", m.Reward)
	fmt.Fprintf(b, "code:        %s\n", m.CodeVersion)
	fmt.Fprintf(b, "created:     %s\n", m.Created.Format("2006-01-02 15:04:05Z07:00"))
	fmt.Fprintf(b, "schema:      version %d, %d state words, %d mask words, %d heads\n", m.SchemaVersion, m.StateWords, m.MaskWords, m.Heads)
	if s.Schema != nil {
		for _, f := range s.Schema.Fields() {
			null := ""
			if f.Nullable {
				null = " (nullable)"
			}
			fmt.Fprintf(b, "  %-13s %s%s\n", f.Name, f.Type, null)
		}
	}
	perRow := 0.0
	if s.Rows > 0 {
		perRow = float64(s.Bytes) / float64(s.Rows)
	}
	fmt.Fprintf(b, "files:       %d (%d bytes, %.1f bytes/row)\n", len(s.Files), s.Bytes, perRow)
	tw := tabwriter.NewWriter(b, 2, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "  \tfile\trows\tepisodes\tbatches\tbytes\t\n")
	for _, f := range s.Files {
		fmt.Fprintf(tw, "  \t%s\t%d\t%d\t%d\t%d\t\n", f.Path, f.Rows, f.Episodes, f.Batches, f.Bytes)
	}
	tw.Flush()
	for _, t := range s.Stale {
		fmt.Fprintf(b, "  unfinished: %s\n", t)
	}
	fmt.Fprintf(b, "rows:        %d\n", s.Rows)
	fmt.Fprintf(b, "episodes:    %d (%d done, %d truncated), mean length %.1f steps\n", s.Episodes, s.Done, s.Truncated, s.MeanLen)
	tw = tabwriter.NewWriter(b, 2, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "  \tagent\tseats\trows\tmean return\tmean final reward\t\n")
	for _, a := range s.Agents {
		fmt.Fprintf(tw, "  \t%s\t%d\t%d\t%.4f\t%.4f\t\n", a.Name, a.Seats, a.Rows, a.MeanReturn, a.MeanFinal)
	}
	tw.Flush()
	_, err := io.WriteString(w, b.String())
	return err
}
