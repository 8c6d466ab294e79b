package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"strings"

	"github.com/registry-sidecar/registry-sidecar/server"
)

// runServe listens, prints the handshake line and serves until ctx is done
// (SIGTERM), then shuts down gracefully.
func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var o options
	fs := flag.NewFlagSet("registry-sidecar", flag.ContinueOnError)
	o.serveFlags(fs)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `Usage:
  registry-sidecar [flags]                      serve the tools over WebSocket
  registry-sidecar call [flags] TOOL [JSON]     run one call in-process, print the payload
  registry-sidecar tools [--format markdown|json] [--test-tools]
  registry-sidecar --version

Once listening, one line goes to stdout: REGISTRY-SIDECAR|1|ws://HOST:PORT/ws
Logs are JSON lines on stderr. Every flag can also be set by its environment
variable (shown in brackets); a flag on the command line wins.

Flags:
`)
		fs.PrintDefaults()
	}
	if err := parse(fs, args, stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	if o.showVersion {
		_, err := fmt.Fprintln(stdout, versionLine())
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: unexpected argument %q", errUsage, fs.Arg(0))
	}
	token, err := o.resolveToken()
	if err != nil {
		return err
	}
	if token == "" && !loopbackAddr(o.listen) {
		return fmt.Errorf("%w: listening on %s (not loopback) requires --token or --token-file", errUsage, o.listen)
	}
	log, err := o.logger(stderr)
	if err != nil {
		return err
	}
	reg, svc, err := o.buildRegistry(log)
	if err != nil {
		return err
	}
	// Deferred: runs after Serve has drained every call (or on an early
	// return, when none ever started).
	defer closeService(svc, log)
	var origins []string
	for _, s := range strings.Split(o.allowOrigins, ",") {
		if s = strings.TrimSpace(s); s != "" {
			origins = append(origins, s)
		}
	}
	srv := server.New(reg, server.Config{
		Token:              token,
		AllowedOrigins:     origins,
		ReadLimit:          o.readLimit,
		MaxConcurrentCalls: o.concurrency,
		OutboundQueue:      o.queue,
		WriteTimeout:       o.writeTimeout,
		MaxConnections:     o.maxConnections,
		Version:            version,
		Log:                log,
	})
	ln, err := net.Listen("tcp", o.listen)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	wsURL := "ws://" + advertisedAddr(ln.Addr()) + server.PathWS
	log.WithFields(map[string]any{"url": wsURL, "tools": len(reg.Tools()), "auth": token != ""}).Info("listening")
	if _, err := fmt.Fprintln(stdout, handshakeLine(wsURL)); err != nil {
		_ = ln.Close()
		return fmt.Errorf("handshake: %w", err)
	}
	if f, ok := stdout.(interface{ Sync() error }); ok {
		_ = f.Sync()
	}
	err = srv.Serve(ctx, ln, o.grace)
	if errors.Is(err, server.ErrGraceExpired) {
		log.Warn("grace period expired: remaining calls were cancelled")
		err = nil
	}
	if err == nil {
		log.Info("stopped")
	}
	return err
}

func (o *options) resolveToken() (string, error) {
	if o.token != "" && o.tokenFile != "" {
		return "", fmt.Errorf("%w: give --token or --token-file, not both", errUsage)
	}
	if o.tokenFile == "" {
		return o.token, nil
	}
	b, err := os.ReadFile(o.tokenFile)
	if err != nil {
		return "", fmt.Errorf("token file: %w", err)
	}
	t := strings.TrimSpace(string(b))
	if t == "" {
		return "", fmt.Errorf("%w: token file %s is empty", errUsage, o.tokenFile)
	}
	return t, nil
}

// loopbackAddr reports whether host:port only listens on loopback.
func loopbackAddr(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// advertisedAddr is the address clients should dial: an unspecified host
// (0.0.0.0, ::) is advertised as loopback.
func advertisedAddr(a net.Addr) string {
	tcp, ok := a.(*net.TCPAddr)
	if !ok {
		return a.String()
	}
	ip := tcp.IP
	if ip == nil || ip.IsUnspecified() {
		if ip != nil && ip.To4() == nil {
			ip = net.IPv6loopback
		} else {
			ip = net.IPv4(127, 0, 0, 1)
		}
	}
	return (&net.TCPAddr{IP: ip, Port: tcp.Port}).String()
}
