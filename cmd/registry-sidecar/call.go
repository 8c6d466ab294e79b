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

// runCall runs one CallTool in-process and prints Result.Text. An error
// payload is errToolError (exit 3); success and fallback payloads exit 0.
func runCall(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var o options
	fs := flag.NewFlagSet("registry-sidecar call", flag.ContinueOnError)
	o.registryFlags(fs)
	fs.StringVar(&o.scope, "scope", "", "comma-separated tool scope (empty: no restriction)")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), "Usage: registry-sidecar call [flags] TOOL [JSON-ARGS]\n\nFlags:\n")
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
	log, err := o.logger(stderr)
	if err != nil {
		return err
	}
	reg, svc, err := o.buildRegistry(log, nil)
	if err != nil {
		return err
	}
	defer closeService(svc, log)
	var callArgs []byte
	if fs.NArg() == 2 {
		callArgs = []byte(fs.Arg(1))
	}
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
