// Package workspace is the wall between the tools and the host's files: one
// folder, opened once as an *os.Root, inside which every user path is
// resolved and every file operation (open, stat, listing, atomic save, lock)
// is done. Paths that are hostile before the disk is touched (NUL, "..",
// percent-encoded or full-width dots and separators, Windows device names
// and streams) are refused by Resolve; links and folders swapped during a
// call make the operation fail, never leave the folder. A refusal is a
// failure.KindOutsideWorkspace error (PermissionError for the agent).
//
//	root, err := workspace.Open("/srv/books")
//	path, err := root.Resolve("q1/sales.xlsx")
//	fh, info, err := root.OpenRegular(path)
//
// ARCHITECTURE.md at the repository root places it in the package map;
// SECURITY.md says what the wall holds against.
package workspace
