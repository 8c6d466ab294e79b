package tools

// withoutSplice sends cell edits down the excelize path (tests of the
// parsed-workbook cache, and the splice-versus-excelize comparisons).
func withoutSplice() Option { return WithSplice(false) }
