package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/registry-sidecar/registry-sidecar/registry"
)

// maxStdinArgs bounds the JSON arguments `call TOOL -` reads from stdin,
// as the WebSocket door's default read limit bounds a frame.
const maxStdinArgs = 64 << 20

// runCall runs one CallTool in-process and prints Result.Text. JSON-ARGS
// "-" reads the arguments from stdin. An error payload is errToolError
// (exit 3); success and fallback payloads exit 0.
func runCall(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	var o options
	fs := flag.NewFlagSet("registry-sidecar call", flag.ContinueOnError)
	o.registryFlags(fs)
	fs.StringVar(&o.scope, "scope", "", "comma-separated tool scope (empty: no restriction)")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `Usage: registry-sidecar call [flags] TOOL [JSON-ARGS | -]

Runs one tool in-process and prints its payload. JSON-ARGS is the arguments
object ({} when left out); - reads it from stdin. Exit status: 0 for a
success or fallback payload, 3 for an error payload, 2 for a usage mistake,
1 when the tools cannot start (e.g. the workspace cannot be created).

Flags:
`)
		fs.PrintDefaults()
	}
	if err := parse(fs, args, stdout, stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	if fs.NArg() < 1 || fs.NArg() > 2 {
		fs.Usage()
		return fmt.Errorf("%w: call needs TOOL and optional JSON-ARGS", errUsage)
	}
	var callArgs []byte
	if fs.NArg() == 2 {
		callArgs = []byte(fs.Arg(1))
	}
	if fs.Arg(1) == "-" {
		read, err := io.ReadAll(io.LimitReader(stdin, maxStdinArgs+1))
		if err != nil {
			return fmt.Errorf("reading the arguments from stdin: %w", err)
		}
		if len(read) > maxStdinArgs {
			return fmt.Errorf("%w: the arguments on stdin exceed %d bytes", errUsage, maxStdinArgs)
		}
		callArgs = read
	}
	log, err := o.logger(stderr)
	if err != nil {
		return err
	}
	// One call needs one tool: only its schema is derived and compiled.
	reg, svc, err := o.buildRegistry(log, nil, fs.Arg(0))
	if err != nil {
		return err
	}
	defer closeService(svc, log)
	var opts []registry.CallOption
	if o.scope != "" {
		opts = append(opts, registry.WithScope(strings.Split(o.scope, ",")))
	}
	res := reg.CallTool(ctx, fs.Arg(0), callArgs, opts...)
	if _, err := fmt.Fprintln(stdout, res.Text); err != nil {
		return err
	}
	if res.IsError {
		return fmt.Errorf("%w: %s", errToolError, res.Code)
	}
	return nil
}
