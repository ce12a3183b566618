package league

import (
	"github.com/gridgym/gridgym/agents/neural"
	"github.com/gridgym/gridgym/eval"
)

// CurvePlot is the learning curve drawn (curve.png in the league folder):
// the main agent's margin over each eval bot by round, with its 95%
// interval, and the zero line it has to clear.
const CurvePlot = "curve.png"

// curvePlot draws points as CurvePlot's PNG (eval.PlotCurve): one line
// with error bars per eval bot, in the order of bots.
func curvePlot(points []CurvePoint, bots []string) ([]byte, error) {
	pts := make([]eval.CurvePoint, len(points))
	for i, c := range points {
		pts[i] = eval.CurvePoint{X: c.Round, Series: c.Bot, Margin: eval.Margin{Score: c.ScoreName, Games: c.Games,
			MeanA: c.Main, MeanB: c.Opponent, Mean: c.Margin, Lo: c.MarginLo, Hi: c.MarginHi}}
	}
	return eval.PlotCurve("main agent − eval bot (95% interval)", "round", bots, pts)
}

// writeCurvePlot writes curve.png from the state (nothing without eval
// bots or points).
func (l *League) writeCurvePlot() error {
	st := l.State
	if len(st.Settings.Eval) == 0 || len(st.Curve) == 0 {
		return nil
	}
	b, err := curvePlot(st.Curve, st.Settings.Eval)
	if err != nil {
		return err
	}
	return neural.WriteFileAtomic(l.abs(CurvePlot), b)
}
