package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/registry-sidecar/registry-sidecar/mcpdoor"
)

// runMCP serves the tools over MCP stdio: protocol messages on stdout
// only, logs on stderr. It returns when the client closes stdin, or after a
// graceful drain when ctx is done (SIGTERM).
func runMCP(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	var o options
	fs := flag.NewFlagSet("registry-sidecar mcp", flag.ContinueOnError)
	o.registryFlags(fs)
	fs.DurationVar(&o.grace, "grace", defaultGrace, "on SIGTERM, or when stdin closes, how long the calls received may take to finish and answer")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `Usage: registry-sidecar mcp [flags]

Serves the tools over MCP stdio (newline-delimited JSON-RPC): stdin carries
the client's messages, stdout only the server's, logs go to stderr. A
malformed line is answered with a JSON-RPC error and the session goes on;
when stdin closes, the calls already received finish (within --grace) and
their answers are written before the process exits.

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
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: unexpected argument %q", errUsage, fs.Arg(0))
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
	door := mcpdoor.New(reg, mcpdoor.Config{Version: version, Log: log, Grace: o.grace})
	log.WithFields(map[string]any{"workspace": o.workspace, "doors": []string{mcpdoor.DoorStdio}, "tools": len(reg.Tools())}).Info("listening")
	done := make(chan error, 1)
	go func() {
		done <- door.ServeStdio(context.WithoutCancel(ctx), io.NopCloser(stdin), nopWriteCloser{stdout})
	}()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), o.grace)
	defer cancel()
	if err := door.Shutdown(sctx); errors.Is(err, mcpdoor.ErrGraceExpired) {
		log.Warn("grace period expired: remaining calls were cancelled")
	}
	err = <-done
	log.Info("stopped")
	return err
}

// nopWriteCloser is stdout as the io.WriteCloser the transport wants;
// closing it leaves the process's stdout open.
type nopWriteCloser struct{ io.Writer }

// Close does nothing.
func (nopWriteCloser) Close() error { return nil }
