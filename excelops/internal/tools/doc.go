// Package tools holds the spreadsheet tools behind excelops.Service: one
// typed module per tool (tool_*.go; the families in tools_*.go), each an
// argument struct whose tags give its schema, a toolSpec with its access
// declaration, and a plan that checks the arguments and returns the
// *engine.Call the engine runs. A tool reaches a workbook only through the
// engine's Book (internal/engine); it never locks, opens or saves by
// itself.
//
//	svc, err := tools.New(root, tools.WithLogger(log))
//	if err != nil { return err }
//	err = svc.Register(reg)
//
// tools.go lists the tools in registration order; declare.go binds a
// typed tool to the registry (the schema derived from its struct).
// ARCHITECTURE.md at the repository root draws the package map and the
// path of one call through it.
package tools
