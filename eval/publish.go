package eval

import "io"

// ReportOptions configures Report: where the report goes, what the
// analysis uses, and which text tables follow the tournament table.
type ReportOptions struct {
	// Dir is the report folder (WriteReport's); "" writes no report, only
	// the text tables.
	Dir string
	// Analyze configures the ratings fit and its bootstrap.
	Analyze AnalyzeOptions
	// Pages, when set, writes the recorded games' replay pages into the
	// report folder dir before the report, which links them: it returns
	// each game's page path relative to dir by game index (Analysis.Pages)
	// and the paths it wrote, which Report returns after the report's. It
	// is a callback because the pages are package viewer's, which imports
	// eval (gridgym tournament passes viewer.WritePages).
	Pages func(dir string, r *Result) (pages map[int]string, paths []string, err error)
	// Saved, when set, is called with Dir set once the report is written
	// and before anything is printed: the place to upload it (a report
	// given as a URL), so that output nobody reads to the end (| head)
	// cannot cost the report.
	Saved func() error
	// PrintRatings prints the Plackett–Luce ratings and their gaps
	// (WriteRatings) after the tournament table.
	PrintRatings bool
	// PrintAnswerTimes prints each bot's answer times in this process
	// (WriteAnswerTimes) after the tables.
	PrintAnswerTimes bool
	// Margins are pairs of bot labels {A, B} whose per-game margin A − B
	// (PairMargin) is printed after the ratings (WriteMargins).
	Margins [][2]string
}

// Report analyses a finished tournament, writes its report into opt.Dir
// (with the replay pages of opt.Pages; none for a result without games) and
// then prints its text tables to w: the tournament table (WriteTable), the
// ratings with opt.PrintRatings, the margins of opt.Margins, the answer
// times with opt.PrintAnswerTimes.
// It returns the paths written, the report's first. Every command that runs
// or rebuilds a tournament ends with it (gridgym tournament, rate, pipeline),
// so they write the same report the same way. The report comes first, and
// opt.Saved after it, because a reader that stops early (| head) kills the
// process at its next write; the ratings are fitted only for a report or
// opt.PrintRatings (their bootstrap is the costly part).
func Report(w io.Writer, r *Result, opt ReportOptions) (paths []string, err error) {
	var a Analysis
	if opt.Dir != "" || opt.PrintRatings {
		a = Analyze(r, opt.Analyze)
	}
	if opt.Dir != "" {
		if len(r.Games) > 0 {
			var pagePaths []string
			if opt.Pages != nil {
				pages, pp, err := opt.Pages(opt.Dir, r)
				if err != nil {
					return nil, err
				}
				a.Pages, pagePaths = pages, pp
			}
			if paths, err = WriteReport(opt.Dir, r, a); err != nil {
				return nil, err
			}
			paths = append(paths, pagePaths...)
		}
		if opt.Saved != nil {
			if err := opt.Saved(); err != nil {
				return nil, err
			}
		}
	}
	if err := WriteTable(w, r); err != nil {
		return paths, err
	}
	if opt.PrintRatings {
		if err := WriteRatings(w, a.Ratings); err != nil {
			return paths, err
		}
	}
	if err := WriteMargins(w, r, opt.Margins); err != nil {
		return paths, err
	}
	if opt.PrintAnswerTimes {
		if err := WriteAnswerTimes(w, r); err != nil {
			return paths, err
		}
	}
	return paths, nil
}
