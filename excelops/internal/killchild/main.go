// Command killchild writes a 100 x 10 block of one workbook through the
// registry's CallTool (write_cells, the real tool path: locks, identity
// check, atomic save), generation after generation, until it is killed; the
// SIGKILL test of excelops runs it. Usage:
//
//	killchild WORKSPACE FILE FIRST_GENERATION
//
// It prints "begin N" before and "done N" after each call, so the test
// knows whether a kill landed during a call and which generations the file
// may hold.
package main

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/registry-sidecar/registry-sidecar/excelops"
	"github.com/registry-sidecar/registry-sidecar/registry"
)

// Block is the range every generation overwrites.
const Block = "A11:J110"

func main() {
	if len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: killchild WORKSPACE FILE FIRST_GENERATION")
		os.Exit(2)
	}
	gen, err := strconv.Atoi(os.Args[3])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	svc, err := excelops.New(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	// write_cells alone: deriving every tool's schema would delay each of
	// the test's 200 child starts by about 100 ms for nothing.
	reg := registry.New()
	if err := svc.Register(reg, "write_cells"); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	for ; ; gen++ {
		row := `["g` + strconv.Itoa(gen) + `"` + strings.Repeat(`, "g`+strconv.Itoa(gen)+`"`, 9) + `]`
		rows := row + strings.Repeat(", "+row, 99)
		args := fmt.Sprintf(`{"file_path": %q, "cell_range": %q, "values": [%s]}`, os.Args[2], Block, rows)
		fmt.Printf("begin %d\n", gen)
		res := reg.CallTool(context.Background(), "write_cells", []byte(args))
		if res.IsError {
			fmt.Fprintln(os.Stderr, res.Text)
			os.Exit(3)
		}
		fmt.Printf("done %d\n", gen)
	}
}
