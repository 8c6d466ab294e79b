// Package xmlappend writes an edit that only added records to a list part
// of a workbook (the style table, the shared string table, a relationships
// part, the content types) as the original bytes with the new records
// appended, so every record a reader already had stays byte for byte.
//
// excelize re-serialises a part it changed whole. Merge compares that save
// with a save of the unchanged original through the same code (the
// baseline): when the edit's save equals the baseline except for records
// added at the end of lists, those records are spliced into the original
// bytes and the lists' count attributes updated; anything else is refused
// (ErrNotAppend) and the caller keeps the whole re-serialised part.
//
//	merged, err := xmlappend.Merge(original, baseline, edited)
//	if err != nil {
//		merged = edited // a change other than appended records
//	}
//
// ARCHITECTURE.md at the repository root draws the package map and the path
// of one call through it.
package xmlappend
