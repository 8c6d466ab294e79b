package excelops_test

import (
	"context"
	"fmt"
	"os"

	"github.com/registry-sidecar/registry-sidecar/excelops"
	"github.com/registry-sidecar/registry-sidecar/registry"
)

// Example registers the spreadsheet tools over a workspace and calls two of
// them the way an agent would.
func Example() {
	dir, _ := os.MkdirTemp("", "excelops-example-")
	defer os.RemoveAll(dir)

	svc, err := excelops.New(dir)
	if err != nil {
		panic(err)
	}
	reg := registry.New()
	if err := svc.Register(reg); err != nil {
		panic(err)
	}
	ctx := context.Background()
	res := reg.CallTool(ctx, "write_cells", []byte(`{"file_path": "sales.xlsx", "cell_range": "A1", "values": [["item", "qty"], ["pen", 3]]}`))
	fmt.Println(res.Text)
	res = reg.CallTool(ctx, "read_excel", []byte(`{"file_path": "sales.xlsx"}`))
	fmt.Println(res.Text)
	res = reg.CallTool(ctx, "read_excel", []byte(`{"file_path": "../etc/passwd.xlsx"}`))
	fmt.Println(res.Text)
	// Output:
	// {"status": "success", "file": "sales.xlsx", "sheet": "Sheet1", "range": "A1:B2", "rows_written": 2, "cells_written": 4, "created": true}
	// {"status": "success", "file": "sales.xlsx", "sheet": "Sheet1", "columns": ["item", "qty"], "offset": 0, "rows_returned": 1, "has_more": false, "rows": [["pen", 3]]}
	// {"status": "error", "error_code": "TOOL_EXECUTION_ERROR", "tool": "read_excel", "exception": "PermissionError", "message": "access denied: path \"../etc/passwd.xlsx\" is outside the workspace or not allowed (\"..\" is not allowed)"}
}

// ExampleNew shows the options: a logger, limits and a temporary folder.
func ExampleNew() {
	dir, _ := os.MkdirTemp("", "excelops-example-")
	defer os.RemoveAll(dir)
	svc, err := excelops.New(dir,
		excelops.WithLimits(excelops.Limits{MaxFileSize: 64 << 20}), // others keep their defaults
		excelops.WithTempDir(os.TempDir()))
	fmt.Println(err == nil, svc.Root() != "")
	// Output: true true
}

// ExampleDefaultLimits prints the defaults sized for a 24 GiB machine.
func ExampleDefaultLimits() {
	l := excelops.DefaultLimits()
	fmt.Printf("file %d MiB, unzip %d GiB, in-memory part %d MiB, rows %d, cells %d\n",
		l.MaxFileSize>>20, l.UnzipSizeLimit>>30, l.UnzipXMLSizeLimit>>20, l.MaxRows, l.MaxCells)
	// Output: file 512 MiB, unzip 4 GiB, in-memory part 16 MiB, rows 1048576, cells 20000000
}

// ExampleWithCacheBudget keeps parsed workbooks in memory between calls (up
// to an estimated 512 MiB here) and closes them on shutdown with Close.
func ExampleWithCacheBudget() {
	dir, _ := os.MkdirTemp("", "excelops-example-")
	defer os.RemoveAll(dir)
	svc, err := excelops.New(dir, excelops.WithCacheBudget(512<<20)) // 0 disables the cache
	if err != nil {
		panic(err)
	}
	defer svc.Close()
	reg := registry.New()
	if err := svc.Register(reg); err != nil {
		panic(err)
	}
	for i := 1; i <= 3; i++ { // the second and third edits reuse the parsed workbook
		res := reg.CallTool(context.Background(), "write_cells",
			[]byte(fmt.Sprintf(`{"file_path": "log.xlsx", "cell": "A%d", "value": %d}`, i, i)))
		fmt.Println(res.IsError)
	}
	// Output:
	// false
	// false
	// false
}
