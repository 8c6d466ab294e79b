// Package refgraph is the reference graph behind get_reference_map,
// trace_references and get_impact_analysis: every formula cell of a
// workbook (Node) with the references it holds (Use), each resolved to the
// cells it reads in this workbook (defined names to what they refer to,
// structured references to the table's cells) or to the external workbook
// it reads from. Dependents and Precedents walk it.
//
// The package reads no workbook: excelops gathers the sheets, defined
// names, tables and external links into a Workbook, builds the Graph with
// New and adds each formula cell with Add. What the tools report from the
// graph stays in excelops. The package map is in ARCHITECTURE.md at the
// root of the repository.
package refgraph
