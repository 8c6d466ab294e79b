package tools

import (
	"encoding/json"
	"testing"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
)

// FuzzConditionsAndQueries: any condition arguments and any search query
// either compile or are refused as invalid arguments; what compiles
// matches every kind of cell without panicking.
func FuzzConditionsAndQueries(f *testing.F) {
	f.Add(`{"column":"a","operator":"between","value":[1,"x"]}`, "电子一班 3", "fuzzy", false)
	f.Add(`{"column":"b","operator":"in","value":[true,null]}`, `^(a|b)*$`, "regex", true)
	f.Add(`{"column":"a","operator":"contains","value":""}`, "", "exact", false)
	cols := map[string]int{"a": 0, "b": 1}
	cells := [][]any{{nil, nil}, {int64(1), "x"}, {2.5, true}, {"#N/A", "2024-01-01T00:00:00"}, {}}
	f.Fuzz(func(t *testing.T, cond, query, mode string, cs bool) {
		d := json.NewDecoder(stringsReader(cond))
		d.UseNumber()
		var a condArg
		if d.Decode(&a) == nil {
			if c, err := compileCond(a, cols); err == nil {
				for _, row := range cells {
					c.match(row)
				}
			} else if failure.KindOf(err) != failure.KindInvalidArgument {
				t.Fatalf("condition refused with kind %q: %v", failure.KindOf(err), err)
			}
		}
		m, err := newTextMatcher(query, mode, cs)
		if err != nil {
			if failure.KindOf(err) != failure.KindInvalidArgument {
				t.Fatalf("query refused with kind %q: %v", failure.KindOf(err), err)
			}
			return
		}
		for _, row := range cells {
			for _, v := range row {
				m(cellText(v))
			}
		}
	})
}
