package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/access"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/engine"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/filelock"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/limits"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/pathlock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEveryToolDeclaresItsAccess: every registered tool has a declaration
// the entry point accepts, naming arguments its schema has; its MCP
// annotations and its docs line are the ones derived from it.
func TestEveryToolDeclaresItsAccess(t *testing.T) {
	e := newEnv(t)
	specs := e.svc.tools()
	require.Len(t, e.reg.Tools(), len(specs))
	for i, sp := range specs {
		t.Run(sp.name, func(t *testing.T) {
			require.NoError(t, sp.access.Check())
			var schema struct {
				Properties map[string]json.RawMessage `json:"properties"`
			}
			require.NoError(t, json.Unmarshal(specSchema(t, e.svc, sp), &schema))
			for _, f := range sp.access.Files {
				assert.Contains(t, schema.Properties, f.Arg, "the declared path argument is in the schema")
				if f.SheetArg != "" {
					assert.Contains(t, schema.Properties, f.SheetArg, "the declared sheet argument is in the schema")
				}
			}
			tool := e.reg.Tools()[i]
			require.Equal(t, sp.name, tool.Name)
			assert.Equal(t, sp.access.Annotations(sp.title), tool.Annotations)
			assert.Equal(t, sp.title, tool.Annotations.Title)
			assert.Equal(t, sp.access.Describe(), tool.Path)
			assert.Equal(t, sp.access.Edited() < 0 && sp.access.Output == "", tool.Annotations.ReadOnly)
			for _, arg := range []string{sp.access.Output, sp.access.Lists} {
				if arg != "" {
					assert.Contains(t, schema.Properties, arg, "the declared argument is in the schema")
				}
			}
		})
	}
}

// TestAccessCheckRefusesBadDeclarations: declarations the entry point
// cannot honour are caught at registration.
func TestAccessCheckRefusesBadDeclarations(t *testing.T) {
	fu := func(touch access.Touch, sheet access.SheetUse, edit bool) access.FileUse {
		f := access.FileUse{Arg: "file_path", Touch: touch, Sheet: sheet, Edit: edit}
		if sheet != access.SheetNone {
			f.SheetArg = "sheet_name"
		}
		return f
	}
	cases := []struct {
		name string
		acc  access.Access
		want string
	}{
		{"edited stream", access.Access{Files: []access.FileUse{fu(access.TouchStream, access.SheetRead, true)}}, "only read"},
		{"read of cells", access.Access{Files: []access.FileUse{fu(access.TouchCells, access.SheetEdit, false)}}, "structure read"},
		{"stream edits its sheet", access.Access{Files: []access.FileUse{fu(access.TouchStream, access.SheetEdit, false)}}, "only resolves"},
		{"read creates a sheet", access.Access{Files: []access.FileUse{fu(access.TouchStructure, access.SheetTarget, false)}}, "only an edit"},
		{"sheet use without argument", access.Access{Files: []access.FileUse{{Arg: "file_path", Touch: access.TouchStream, Sheet: access.SheetRead}}}, "sheet argument"},
		{"edit before read", access.Access{Files: []access.FileUse{fu(access.TouchStructure, access.SheetEdit, true), fu(access.TouchStream, access.SheetRead, false)}}, "last file"},
		{"read-only but destructive", access.Access{Files: []access.FileUse{fu(access.TouchStream, access.SheetRead, false)}, Destructive: true}, "read-only declaration sets destructive"},
		{"read-only but idempotent", access.Access{Files: []access.FileUse{fu(access.TouchStream, access.SheetRead, false)}, Idempotent: true}, "reads are idempotent anyway"},
		{"read but keeps values", access.Access{Files: []access.FileUse{fu(access.TouchStream, access.SheetRead, false)}, KeepsValues: true}, "edit options"},
		{"no touch", access.Access{Files: []access.FileUse{{Arg: "file_path"}}}, "unknown touch"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.acc.Check()
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.want)
		})
	}
	assert.NoError(t, access.ReadStream().Check())
	assert.NoError(t, copyRangeAccess().Check())
}

// sampleArgs are valid values of the arguments the read-only tools require.
func sampleArgs() map[string]any {
	return map[string]any{"file_path": "a.xlsx", "cell_range": "A1:B2", "range": "A1:B2", "sheet_name": "Sheet1", "query": "h1",
		"target": "Sheet1!A1", "file_a": "a.xlsx", "file_b": "a.xlsx"}
}

// TestReadDeclarationsNeverLockForWritingNorSave: every read-only tool
// runs while another holder keeps the file's cross-process lock file (an
// edit would wait for it) and, for stream and styles reads, its in-process
// shared lock (an exclusive lock would wait for it); none saves, and the
// file stays as it was. Stream and styles reads never parse the workbook
// with excelize nor fill the cache. (A structure read takes the in-process
// lock exclusively while the cache is on: excelize changes its model while
// it reads a sheet the first time.)
func TestReadDeclarationsNeverLockForWritingNorSave(t *testing.T) {
	obs := &saveCounter{}
	e := newEnv(t, WithObserver(obs))
	e.workbook("a.xlsx", [][]any{{"h1", "h2"}, {1, 2}})
	orig, err := os.ReadFile(e.path("a.xlsx"))
	require.NoError(t, err)
	id, _ := e.svc.engine.Box.StatID(e.path("a.xlsx"))
	reads := 0
	for _, sp := range e.svc.tools() {
		if sp.access.Edited() >= 0 || sp.access.Output != "" {
			continue
		}
		reads++
		t.Run(sp.name, func(t *testing.T) {
			var schema struct {
				Required []string `json:"required"`
			}
			require.NoError(t, json.Unmarshal(specSchema(t, e.svc, sp), &schema))
			args := map[string]any{}
			for _, r := range schema.Required {
				v, ok := sampleArgs()[r]
				require.True(t, ok, "add a sample value for %q to sampleArgs", r)
				args[r] = v
			}
			light := true
			for _, f := range sp.access.Files {
				light = light && (f.Touch == access.TouchStream || f.Touch == access.TouchStyles)
			}
			if light {
				unlock, err := e.svc.engine.Locks.LockAll(context.Background(), e.svc.engine.Box, pathlock.Spec{Path: e.path("a.xlsx")})
				require.NoError(t, err)
				defer unlock()
			}
			fl, err := filelock.Acquire(context.Background(), e.path("a.xlsx"))
			require.NoError(t, err)
			defer fl.Release()
			opens := e.svc.engine.Opens.Load()
			// A read that waited for a lock would end with this deadline.
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			raw, err := json.Marshal(args)
			require.NoError(t, err)
			res := e.reg.CallTool(ctx, sp.name, raw)
			require.False(t, res.IsError, res.Text)
			if light {
				assert.Equal(t, opens, e.svc.engine.Opens.Load(), "a stream or styles read never parses the workbook with excelize")
			}
		})
	}
	require.Positive(t, reads)
	saved, fails := obs.counts()
	assert.Zero(t, saved+fails, "reads never save")
	got, err := os.ReadFile(e.path("a.xlsx"))
	require.NoError(t, err)
	assert.True(t, bytes.Equal(orig, got))
	now, _ := e.svc.engine.Box.StatID(e.path("a.xlsx"))
	assert.Equal(t, id, now)
}

// TestDeclarationDrivesLocks: the same body waits for a held shared lock
// when it is declared an edit (cells or structure), and runs beside it
// when declared a stream or styles read.
func TestDeclarationDrivesLocks(t *testing.T) {
	e := newEnv(t)
	e.workbook("a.xlsx", [][]any{{1}})
	cases := []struct {
		name  string
		acc   access.Access
		waits bool
	}{
		{"stream", access.ReadStream(), false},
		{"styles", access.Access{Files: []access.FileUse{{Arg: "file_path", Touch: access.TouchStyles}}}, false},
		{"cells", access.EditCells(access.SheetEdit, access.Access{}), true},
		{"structure", access.EditStructure("sheet_name", access.SheetEdit, access.Access{}), true},
		{"structure every sheet", access.EditStructure("", access.SheetNone, access.Access{Guard: access.GuardEverySheet}), true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			unlock, err := e.svc.engine.Locks.LockAll(context.Background(), e.svc.engine.Box, pathlock.Spec{Path: e.path("a.xlsx")})
			require.NoError(t, err)
			ran := false
			done := make(chan error, 1)
			go func() {
				_, err := e.svc.engine.Run(context.Background(), c.acc, engine.OnBook("a.xlsx", "", func(*engine.Book, engine.SheetRef) (any, error) {
					ran = true
					return "ok", nil
				}))
				done <- err
			}()
			if c.waits {
				select {
				case err := <-done:
					unlock()
					t.Fatalf("an edit ran beside a held shared lock (%v)", err)
				case <-time.After(100 * time.Millisecond):
				}
				unlock()
				require.NoError(t, <-done)
				assert.True(t, ran, "it runs once the lock is free")
				return
			}
			select {
			case err := <-done:
				unlock()
				require.NoError(t, err)
				assert.True(t, ran)
			case <-time.After(time.Minute):
				unlock()
				<-done
				t.Fatal("a read waited for the exclusive lock")
			}
		})
	}
}

// bombBook writes two.xlsx: Sheet1 holding one cell and Bomb, a sheet that
// expands to 200,000 cells (over the limit newBombEnv sets).
func bombBook(t *testing.T) *env {
	var bomb strings.Builder
	for r := 1; r <= 2000; r++ {
		fmt.Fprintf(&bomb, `<row r="%d"><c r="CV%d"><v>1</v></c></row>`, r, r)
	}
	e := newEnv(t, WithLimits(limits.Limits{MaxCells: 100_000}))
	e.workbook("two.xlsx", [][]any{{1}})
	f := e.open("two.xlsx")
	_, err := f.NewSheet("Bomb")
	require.NoError(t, err)
	require.NoError(t, f.Save())
	withPart(t, e.path("two.xlsx"), "xl/worksheets/sheet2.xml", sheetXML("A1:CV2000", bomb.String()))
	return e
}

// TestDeclaredGuardDecidesWhichSheetsAreChecked: the same body on the same
// workbook runs when its declaration guards the sheet it edits, and is
// refused before it runs when the declaration guards every sheet and
// another sheet is a bomb; the registered tools show the same split.
func TestDeclaredGuardDecidesWhichSheetsAreChecked(t *testing.T) {
	e := bombBook(t)
	ran := 0
	fn := func(b *engine.Book, sh engine.SheetRef) (any, error) {
		ran++
		return success(b.Name(), sh.Name), nil
	}
	one := access.EditStructure("sheet_name", access.SheetEdit, access.Access{KeepsValues: true})
	_, err := e.svc.engine.Run(context.Background(), one, engine.OnBook("two.xlsx", "Sheet1", fn))
	require.NoError(t, err)
	assert.Equal(t, 1, ran)

	every := access.EditStructure("sheet_name", access.SheetEdit, access.Access{KeepsValues: true, Guard: access.GuardEverySheet})
	_, err = e.svc.engine.Run(context.Background(), every, engine.OnBook("two.xlsx", "Sheet1", fn))
	require.Error(t, err)
	assert.Equal(t, failure.KindLimit, failure.KindOf(err), err)
	assert.Equal(t, 1, ran, "the body never ran")

	// A dropped sheet is never parsed, so it may be the bomb itself.
	drop := access.EditStructure("sheet_name", access.SheetDrop, access.Access{KeepsValues: true, Guard: access.GuardEverySheet})
	_, err = e.svc.engine.Run(context.Background(), drop, engine.OnBook("two.xlsx", "Bomb", fn))
	require.NoError(t, err)
	assert.Equal(t, 2, ran)

	// The registered tools: a row shift guards every sheet, a format one.
	p := e.fail("insert_rows", map[string]any{"file_path": "two.xlsx", "sheet_name": "Sheet1", "row": 1})
	assert.Equal(t, "MemoryError", p["exception"], p)
	e.ok("format_cells", map[string]any{"file_path": "two.xlsx", "sheet_name": "Sheet1", "cell_range": "A1", "font": map[string]any{"bold": true}})
	moves := map[string]bool{"insert_rows": true, "insert_columns": true, "delete_rows": true, "delete_columns": true,
		"create_sheet": true, "rename_sheet": true, "delete_sheet": true}
	for _, sp := range e.svc.tools() {
		if moves[sp.name] {
			assert.Equal(t, access.GuardEverySheet, sp.access.Guard, "%s: rows, columns or sheets move, so every sheet is guarded", sp.name)
		}
	}
}

// TestDeclaredKeepsValuesSkipsFormulaRefresh: an edit declared to keep
// values leaves cached formula results alone; one that is not recomputes
// them before the save.
func TestDeclaredKeepsValuesSkipsFormulaRefresh(t *testing.T) {
	for _, keeps := range []bool{true, false} {
		t.Run(fmt.Sprint("keepsValues=", keeps), func(t *testing.T) {
			e := newEnv(t)
			e.workbook("f.xlsx", [][]any{{2, "=A1*10"}})
			e.ok("write_cells", map[string]any{"file_path": "f.xlsx", "cell": "B1", "value": "=A1*10"})
			require.Equal(t, "20", e.value("f.xlsx", "Sheet1", "B1"))
			acc := access.EditStructure("sheet_name", access.SheetEdit, access.Access{KeepsValues: keeps})
			_, err := e.svc.engine.Run(context.Background(), acc, engine.OnBook("f.xlsx", "", func(b *engine.Book, sh engine.SheetRef) (any, error) {
				return nil, b.SetCellValue(sh.Name, "A1", 3)
			}))
			require.NoError(t, err)
			want := "30"
			if keeps {
				want = "20"
			}
			assert.Equal(t, want, e.value("f.xlsx", "Sheet1", "B1"))
		})
	}
}
