// Package access is the access model of the spreadsheet tools. Every tool
// declares in its spec what it touches of which workbooks (an Access: a
// FileUse per path argument, the sheet it targets, the guard); the one
// entry point, engine.Engine.Run, turns that declaration into resolve →
// lock → open → guard → body → formula refresh → save → cache. The MCP
// annotations and the "Path" line of docs/TOOLS.md are derived from the
// same declaration.
//
//	acc := access.EditCells(access.SheetEdit, access.Access{})
//	ann := acc.Annotations("Write cells") // read-only, idempotent, destructive hints
//
// ARCHITECTURE.md at the repository root draws the package map and the
// path of one call through it.
package access
