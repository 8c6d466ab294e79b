package recalc

import (
	"fmt"
	"strings"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/formularef"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/formulatext"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/textdist"
	"github.com/xuri/efp"
)

// Formulas name what exists: a formula a tool writes may refer only to the
// sheets, defined names and tables the workbook has (or the call creates).
// A reference to anything else would be stored and evaluate to #REF! or
// #NAME?, so it is refused like an unknown function, with the near names.

// unknownRefError is a formula's reference to a sheet, defined name, table
// or table column the workbook does not have. It is the cause of the
// KindInvalidArgument error the tools return (errors.As finds it).
type unknownRefError struct {
	// What is "sheet", "name", "table" or "column".
	What string
	// Name is the name as the formula spells it.
	Name string
	// Table is the table of an unknown column ("" otherwise).
	Table string
	// Suggestions are the existing names closest to Name, best first.
	Suggestions []string
}

// Error says what is missing (the suggestions are left to the message
// of the tool's error, see formulaScope.check).
func (e *unknownRefError) Error() string {
	switch e.What {
	case "sheet":
		return fmt.Sprintf("the sheet %q, which the workbook does not have", e.Name)
	case "table":
		return fmt.Sprintf("the table %q, which the workbook does not have", e.Name)
	case "column":
		return fmt.Sprintf("the column %q of table %q, which the table does not have", e.Name, e.Table)
	}
	return fmt.Sprintf("the name %q, which is no defined name or table of the workbook, nor a function or cell", e.Name)
}

// FormulaScope is what the formulas of one call may refer to: the
// workbook's sheets, its defined names and (read only when a formula has a
// structured reference) its tables. It is built once per call.
type FormulaScope struct {
	sheets    []string
	sheetSet  map[string]bool            // lower-case sheet names
	global    map[string]bool            // lower-case workbook-scoped names
	local     map[string]map[string]bool // lower-case sheet -> its names
	names     []string                   // every defined name, for suggestions
	loadTable func() []TableInfo         // the tables, read on first need
	tables    []TableInfo
	tablesSet bool
}

// TableInfo is one table: its name and column names.
type TableInfo struct {
	Name    string
	Columns []string
}

// NewFormulaScope builds a scope from the sheet names, the defined names
// (scope is the sheet of a sheet-scoped name, "" for workbook scope) and a
// reader of the tables.
func NewFormulaScope(sheets []string, names []ScopedName, tables func() []TableInfo) *FormulaScope {
	sc := &FormulaScope{sheetSet: map[string]bool{}, global: map[string]bool{}, local: map[string]map[string]bool{}, loadTable: tables}
	for _, s := range sheets {
		sc.AddSheet(s)
	}
	for _, n := range names {
		sc.names = append(sc.names, n.Name)
		if n.Sheet == "" {
			sc.global[strings.ToLower(n.Name)] = true
			continue
		}
		key := strings.ToLower(n.Sheet)
		if sc.local[key] == nil {
			sc.local[key] = map[string]bool{}
		}
		sc.local[key][strings.ToLower(n.Name)] = true
	}
	return sc
}

// ScopedName is a defined name with the sheet it is local to ("" for the
// whole workbook).
type ScopedName struct {
	Name, Sheet string
}

// AddSheet counts name as existing (a sheet the call creates).
func (sc *FormulaScope) AddSheet(name string) {
	if !sc.sheetSet[strings.ToLower(name)] {
		sc.sheetSet[strings.ToLower(name)] = true
		sc.sheets = append(sc.sheets, name)
	}
}

// Check refuses a formula (without its "=") living on the sheet host that
// refers to a sheet, defined name, table or column the scope does not
// have, naming the cell ref and the near names. A missing sheet is
// KindSheetNotFound (a KeyError, as every missing sheet), anything else
// KindInvalidArgument. A formula the tokenizer cannot read whole is left
// to parseFormula.
func (sc *FormulaScope) Check(ref, host, formula string) error {
	ps := efp.ExcelParser()
	return sc.CheckRefs(ref, host, formula, FormulaRefsOf(ps.Parse("="+formula)))
}

// CheckRefs is check over the references FormulaRefsOf took from the
// formula's tokens (nil: none to check).
func (sc *FormulaScope) CheckRefs(ref, host, formula string, refs *FormulaRefs) error {
	u := sc.unknown(host, refs)
	if u == nil {
		return nil
	}
	kind, more := failure.KindInvalidArgument, ""
	if u.What == "sheet" {
		kind, more = failure.KindSheetNotFound, " Available sheets: "+textdist.ListNames(sc.sheets)+"."
	}
	return failure.New(kind, fmt.Sprintf("%s: formula %q refers to %s; nothing was written.%s%s",
		ref, "="+formula, u.Error(), textdist.DidYouMean(u.Suggestions), more), u)
}

// FormulaRefs are the references of one formula that name a sheet,
// defined name or table, with the names its LET and LAMBDA bind.
type FormulaRefs struct {
	ops    []formularef.Operand
	params map[string]bool
}

// FormulaRefsOf takes from a formula's tokens the references the scope
// must check; nil when there is none (plain cells and ranges of the
// formula's own sheet) or when the tokenizer could not read it whole.
func FormulaRefsOf(toks []efp.Token) *FormulaRefs {
	ops, ok := formularef.OperandsOf(toks)
	if !ok {
		return nil
	}
	var refs *FormulaRefs
	for _, o := range ops {
		if o.IsArea && o.Sheet == "" {
			continue
		}
		if refs == nil {
			refs = &FormulaRefs{}
		}
		refs.ops = append(refs.ops, o)
		if !o.IsArea && !o.IsStructured() && refs.params == nil {
			refs.params = formulatext.LambdaParams(toks)
		}
	}
	return refs
}

// unknown returns the first reference of refs the scope does not have.
func (sc *FormulaScope) unknown(host string, refs *FormulaRefs) *unknownRefError {
	if sc == nil || refs == nil {
		return nil
	}
	params := refs.params
	for _, o := range refs.ops {
		if o.Book != "" || strings.ContainsAny(o.Sheet+o.Sheet2, "[]!") {
			continue // another workbook ('C:\dir\[b.xlsx]S'!A1 included)
		}
		for _, s := range []string{o.Sheet, o.Sheet2} {
			if s != "" && !sc.sheetSet[strings.ToLower(s)] {
				return &unknownRefError{What: "sheet", Name: s, Suggestions: textdist.CloseMatches(s, sc.sheets)}
			}
		}
		if o.IsArea {
			continue
		}
		if o.IsStructured() {
			if err := sc.structured(o.Rest); err != nil {
				return err
			}
			continue
		}
		if err := sc.name(host, o, params); err != nil {
			return err
		}
	}
	return nil
}

// name checks an operand that is neither a cell area nor a structured
// reference: a defined name, unless it is something Excel reads otherwise.
func (sc *FormulaScope) name(host string, o formularef.Operand, params map[string]bool) *unknownRefError {
	n := o.Rest
	up := strings.ToUpper(n)
	switch {
	case n == "" || strings.ContainsAny(n, "#:") || strings.HasPrefix(n, "@"):
		return nil // errors, spills, implicit intersections, odd ranges: not a name
	case up == "TRUE" || up == "FALSE" || params[up]:
		return nil
	case strings.HasPrefix(up, "_XLFN.") || strings.HasPrefix(up, "_XLWS.") || strings.HasPrefix(up, "_XLPM.") || strings.HasPrefix(up, "_XLNM.") ||
		strings.HasPrefix(up, "_XLETA."):
		return nil
	}
	if _, ok := ExcelFunctions()[up]; ok {
		return nil // a function passed by name, as in BYROW(A1:B2,SUM)
	}
	key := strings.ToLower(n)
	sheet := o.Sheet
	if sheet == "" {
		sheet = host
	}
	if sc.global[key] || sc.local[strings.ToLower(sheet)][key] {
		return nil
	}
	if o.Sheet == "" && sc.table(n) != nil {
		return nil // a table name alone stands for its data
	}
	return &unknownRefError{What: "name", Name: n, Suggestions: textdist.CloseMatches(n, sc.names)}
}

// structured checks a structured reference such as Sales[Amount],
// Sales[#All] or Sales[[#This Row],[Qty]]: the table exists and so does
// every column it names. [@Qty], without a table, is left alone.
func (sc *FormulaScope) structured(rest string) *unknownRefError {
	i := strings.IndexByte(rest, '[')
	name := rest[:i]
	if name == "" {
		return nil
	}
	t := sc.table(name)
	if t == nil {
		var names []string
		for _, t := range sc.tableList() {
			names = append(names, t.Name)
		}
		return &unknownRefError{What: "table", Name: name, Suggestions: textdist.CloseMatches(name, names)}
	}
	if t.Columns == nil {
		return nil
	}
	for _, col := range specifierItems(rest[i:]) {
		if !containsFold(t.Columns, col) {
			return &unknownRefError{What: "column", Name: col, Table: t.Name, Suggestions: textdist.CloseMatches(col, t.Columns)}
		}
	}
	return nil
}

// table returns the table called name (ignoring case), nil when none.
func (sc *FormulaScope) table(name string) *TableInfo {
	list := sc.tableList()
	for i := range list {
		if strings.EqualFold(list[i].Name, name) {
			return &list[i]
		}
	}
	return nil
}

// tableList reads the tables once.
func (sc *FormulaScope) tableList() []TableInfo {
	if !sc.tablesSet && sc.loadTable != nil {
		sc.tables, sc.tablesSet = sc.loadTable(), true
	}
	return sc.tables
}

// specifierItems returns the column names inside the brackets of a
// structured reference ([Qty], [@[Unit Price]], [[#Headers],[A]:[B]]),
// leaving out the special items (#All, #Data, #Headers, #Totals, #This Row)
// and undoing the ' escapes.
func specifierItems(spec string) []string {
	var out []string
	var buf []byte
	open := false
	for i := 0; i < len(spec); i++ {
		c := spec[i]
		switch {
		case c == '\'' && open && i+1 < len(spec):
			i++
			buf = append(buf, spec[i])
		case c == '[':
			buf, open = buf[:0], true
		case c == ']':
			if open {
				item := strings.TrimSpace(strings.TrimPrefix(string(buf), "@"))
				if item != "" && !strings.HasPrefix(item, "#") {
					out = append(out, item)
				}
			}
			open = false
		case open:
			buf = append(buf, c)
		}
	}
	return out
}

// containsFold reports whether list holds s, ignoring case.
func containsFold(list []string, s string) bool {
	for _, v := range list {
		if strings.EqualFold(v, s) {
			return true
		}
	}
	return false
}
