// Command savechild replaces a file with two versions, alternately, until it
// is killed; the SIGKILL test of excelops runs it. Usage:
//
//	savechild TARGET VERSION_A VERSION_B
//
// It prints "ready" once both versions are loaded.
package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/atomicfile"
)

// chunk is the write size, small enough that a kill lands mid-file.
const chunk = 64 << 10

func main() {
	if len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: savechild TARGET VERSION_A VERSION_B")
		os.Exit(2)
	}
	var versions [2][]byte
	for i := range versions {
		b, err := os.ReadFile(os.Args[i+2])
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		versions[i] = b
	}
	fmt.Println("ready")
	for i := 0; ; i++ {
		v := versions[i%2]
		err := atomicfile.Replace(context.Background(), os.Args[1], 0o644, nil, func(w io.Writer) error {
			for off := 0; off < len(v); off += chunk {
				if _, err := w.Write(v[off:min(off+chunk, len(v))]); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(3)
		}
	}
}
