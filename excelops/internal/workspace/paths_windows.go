package workspace

import "strings"

// slashed returns the user path p as Resolve checks it: on Windows a
// backslash is a separator, so it becomes a slash before the checks
// (checkLexical's ".." and encoding rules then see every component).
func slashed(p string) string { return strings.ReplaceAll(p, `\`, "/") }

// checkSystem refuses what Windows cannot hold in a workspace path, shown
// as shown: network and device paths, streams, device names... (see
// windowsPathProblem).
func checkSystem(p, shown string) error {
	if why := windowsPathProblem(p); why != "" {
		return Refuse(shown, why)
	}
	return nil
}
