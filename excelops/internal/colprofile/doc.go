// Package colprofile holds the column profiles of scan_excel_snapshot, with
// no workbook in sight: a tool feeds each column's values (Profile.Add),
// then encodes the column (Profile.Encode), its possible keys (KeyColumns)
// and its duplicate rows (RowKey), and shortens a sheet too large for the
// result (FitSheet). The tool itself (excelops/internal/tools/tool_snapshot.go) reads the
// rows; relate_columns shares ColumnKind.
//
//	var p colprofile.Profile
//	p.Name = "amount"
//	p.Add(int64(3), 2)
//	entry := p.Encode(1) // {"column": "A", "header": "amount", "type": "number", ...}
//
// ARCHITECTURE.md at the repository root places it in the package map.
package colprofile
