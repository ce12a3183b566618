package neural

// NewWorkspaceFor is NewWorkspace with its parts fitted to cores cores
// whatever GOMAXPROCS is: the workspace NewWorkspace makes on a machine
// where GOMAXPROCS is cores (or made there before GOMAXPROCS changed).
func NewWorkspaceFor(a Arch, batch, cores int) *Workspace { return newWorkspace(a, batch, cores) }

// ForwardParts and PartImages are the split of a batch over cores
// (forwardParts, partImages).
var (
	ForwardParts = forwardParts
	PartImages   = partImages
)

// FittedCores is the core count w's parts are fitted to.
func FittedCores(w *Workspace) int { return w.cores }
