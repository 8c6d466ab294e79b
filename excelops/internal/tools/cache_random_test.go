package tools

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/stretchr/testify/require"
)

// TestCachedBooksEditLikeFreshOnes: random sequences of edits through the
// excelize path (values, formulas, row and column inserts and deletes,
// merges, formats, clears, new and renamed sheets) leave the same
// workbook, and answer the same, whether the parsed workbook is kept
// between calls (the cache) or opened afresh for every call.
func TestCachedBooksEditLikeFreshOnes(t *testing.T) {
	skipUnderRace(t)
	t.Parallel()
	seeds := 8
	if testing.Short() {
		seeds = 2
	}
	for seed := range seeds {
		rng := rand.New(rand.NewPCG(uint64(seed), 7))
		envs := map[bool]*env{
			true:  newEnv(t, WithSplice(false)),
			false: newEnv(t, WithSplice(false), WithCacheBudget(0)),
		}
		for _, e := range envs {
			e.workbook("c.xlsx", [][]any{{"a", 1, 2}, {"b", 3, "=B2*2"}, {"c", 5, 6}})
		}
		sheets := []string{"Sheet1"}
		for step := range 16 {
			sheet := sheets[rng.IntN(len(sheets))]
			cell := func() string { return grid.CellName(1+rng.IntN(6), 1+rng.IntN(8)) }
			var tool string
			args := map[string]any{"file_path": "c.xlsx", "sheet_name": sheet}
			switch rng.IntN(9) {
			case 0, 1:
				tool = "write_cells"
				args["cell_range"] = cell()
				args["values"] = [][]any{{rng.IntN(50), "t" + strconv.Itoa(rng.IntN(9))}, {"=A1&B1", nil}}
			case 2:
				tool = "insert_rows"
				args["row"], args["count"] = 1+rng.IntN(6), 1+rng.IntN(2)
			case 3:
				tool = "delete_rows"
				args["row"] = 1 + rng.IntN(6)
			case 4:
				tool = "insert_columns"
				args["column"] = 1 + rng.IntN(4)
			case 5:
				tool = "merge_cells"
				c1, r1 := 1+rng.IntN(5), 1+rng.IntN(7)
				args["cell_range"] = grid.CellName(c1, r1) + ":" + grid.CellName(c1+1, r1+rng.IntN(2))
				args["discard_values"] = true
			case 6:
				tool = "format_cells"
				args["cell_range"] = cell()
				args["font"] = map[string]any{"bold": true}
			case 7:
				tool = "clear_range"
				args["cell_range"] = cell()
				args["what"] = []string{"values", "formats", "both"}[rng.IntN(3)]
			case 8:
				tool = "create_sheet"
				name := "S" + strconv.Itoa(step)
				args = map[string]any{"file_path": "c.xlsx", "sheet_name": name}
				sheets = append(sheets, name)
			}
			raw, err := json.Marshal(args)
			require.NoError(t, err)
			answers := map[bool]string{}
			for on, e := range envs {
				answers[on] = e.reg.CallTool(t.Context(), tool, raw).Text
			}
			require.Equal(t, answers[false], answers[true], "seed %d step %d: %s %s answered alike", seed, step, tool, raw)
			a, b := envs[true].open("c.xlsx"), envs[false].open("c.xlsx")
			require.Equal(t, b.GetSheetList(), a.GetSheetList())
			for _, sh := range a.GetSheetList() {
				ma, _ := a.GetMergeCells(sh)
				mb, _ := b.GetMergeCells(sh)
				require.Equal(t, len(mb), len(ma), "seed %d step %d %s %s: %s merges", seed, step, tool, raw, sh)
				requireSameCells(t, a, b, []string{sh}, 12, 9, true, fmt.Sprintf("seed %d step %d %s %s", seed, step, tool, raw))
			}
		}
	}
}
