package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// Exit codes.
const (
	exitOK        = 0
	exitFailure   = 1
	exitUsage     = 2
	exitToolError = 3
)

// errUsage marks command-line mistakes (exit 2).
var errUsage = errors.New("usage")

// errToolError marks a `call` whose result is an error payload (exit 3).
var errToolError = errors.New("the tool returned an error payload")

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	go func() {
		// After the first signal starts the graceful shutdown, a second
		// one gets the default behaviour: the process dies at once.
		<-ctx.Done()
		stop()
	}()
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(exitCode(err, os.Stderr))
}

// exitCode maps run's error to the process exit status, printing it.
func exitCode(err error, stderr io.Writer) int {
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, errToolError):
		return exitToolError
	case errors.Is(err, errUsage):
		fmt.Fprintln(stderr, "registry-sidecar:", err)
		return exitUsage
	}
	fmt.Fprintln(stderr, "registry-sidecar:", err)
	return exitFailure
}

// run is the whole program: args without the program name. Subcommands:
// (none) or serve, mcp, call, tools, version. Only mcp and `call TOOL -`
// read stdin (the process's own: an MCP host writes the protocol there).
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	cmd := "serve"
	if len(args) > 0 {
		switch args[0] {
		case "serve", "mcp", "call", "tools", "version":
			cmd, args = args[0], args[1:]
		}
	}
	switch cmd {
	case "mcp":
		return runMCP(ctx, args, os.Stdin, stdout, stderr)
	case "call":
		return runCall(ctx, args, os.Stdin, stdout, stderr)
	case "tools":
		return runTools(args, stdout, stderr)
	case "version":
		_, err := fmt.Fprintln(stdout, versionLine())
		return err
	}
	return runServe(ctx, args, stdout, stderr)
}
