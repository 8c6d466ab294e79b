package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"

	"github.com/registry-sidecar/registry-sidecar/excelops"
	"github.com/registry-sidecar/registry-sidecar/mcpdoor"
	"github.com/registry-sidecar/registry-sidecar/metrics"
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
  registry-sidecar [serve] [flags]              serve the tools over WebSocket (and MCP HTTP with --mcp-listen)
  registry-sidecar mcp [flags]                  serve the tools over MCP stdio (see mcp --help)
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
	if err := parse(fs, args, stdout, stderr); err != nil {
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
	if err := checkAddr("--listen", o.listen); err != nil {
		return err
	}
	if o.mcpListen != "" {
		if err := checkAddr("--mcp-listen", o.mcpListen); err != nil {
			return err
		}
	}
	token, err := o.resolveToken()
	if err != nil {
		return err
	}
	for _, addr := range []string{o.listen, o.mcpListen} {
		if addr != "" && token == "" && !loopbackAddr(addr) {
			return fmt.Errorf("%w: listening on %s (not loopback) requires --token or --token-file", errUsage, addr)
		}
	}
	var origins []string
	for _, s := range strings.Split(o.allowOrigins, ",") {
		if s = strings.TrimSpace(s); s != "" {
			origins = append(origins, s)
		}
	}
	if len(origins) > 0 && token == "" {
		return fmt.Errorf("%w: --allow-origin requires --token or --token-file (without a token only loopback origins are served)", errUsage)
	}
	log, err := o.logger(stderr)
	if err != nil {
		return err
	}
	m := metrics.New()
	reg, svc, err := o.buildRegistry(log, m)
	if err != nil {
		return err
	}
	// Deferred: runs after Serve has drained every call (or on an early
	// return, when none ever started).
	defer closeService(svc, log)
	var door *mcpdoor.Door
	doors := []string{"ws"}
	if o.mcpListen != "" {
		door = mcpdoor.New(reg, mcpdoor.Config{Version: version, Log: log, MaxRequestBytes: o.readLimit})
		doors = append(doors, mcpdoor.DoorHTTP)
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
		MCP:                mcpDoor(door),
		Metrics:            m.Handler(),
	})
	if err := exportGauges(m, srv, door, svc); err != nil {
		return err
	}
	lns, err := listen(o.listen, o.mcpListen)
	if err != nil {
		return err
	}
	wsURL := "ws://" + advertisedAddr(lns[0].Addr()) + server.PathWS
	fields := map[string]any{"url": wsURL, "workspace": o.workspace, "doors": doors, "tools": len(reg.Tools()), "auth": token != ""}
	if door != nil {
		fields["mcp_url"] = "http://" + advertisedAddr(lns[len(lns)-1].Addr()) + server.PathMCP
	}
	log.WithFields(fields).Info("listening")
	if _, err := fmt.Fprintln(stdout, handshakeLine(wsURL)); err != nil {
		for _, ln := range lns {
			_ = ln.Close()
		}
		return fmt.Errorf("handshake: %w", err)
	}
	if f, ok := stdout.(interface{ Sync() error }); ok {
		_ = f.Sync()
	}
	err = srv.ServeListeners(ctx, o.grace, lns...)
	if errors.Is(err, server.ErrGraceExpired) {
		log.Warn("grace period expired: remaining calls were cancelled")
		err = nil
	}
	if err == nil {
		log.Info("stopped")
	}
	return err
}

// loopbackAddr reports whether host:port only listens on loopback: the
// same rule as the Host headers served without a token.
func loopbackAddr(addr string) bool {
	if _, _, err := net.SplitHostPort(addr); err != nil {
		return false
	}
	return server.LoopbackHost(addr)
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

// mcpDoor is door as the server's optional Door (a nil *Door must become
// a nil interface).
func mcpDoor(door *mcpdoor.Door) server.Door {
	if door == nil {
		return nil
	}
	return door
}

// listen opens the --listen address and, when given and different, the
// --mcp-listen address (last). Every listener serves every path.
func listen(addr, mcpAddr string) ([]net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w", addr, err)
	}
	lns := []net.Listener{ln}
	if mcpAddr != "" && mcpAddr != addr {
		mln, err := net.Listen("tcp", mcpAddr)
		if err != nil {
			_ = ln.Close()
			return nil, fmt.Errorf("listen on %s (--mcp-listen): %w", mcpAddr, err)
		}
		lns = append(lns, mln)
	}
	return lns, nil
}

// checkAddr refuses an address that is not host:port with a port number,
// before anything else is said about it (a token requirement, say).
func checkAddr(flagName, addr string) error {
	_, port, err := net.SplitHostPort(addr)
	if err == nil {
		if _, perr := strconv.ParseUint(port, 10, 16); perr != nil {
			err = fmt.Errorf("port %q is not a number from 0 to 65535", port)
		}
	}
	if err != nil {
		return fmt.Errorf("%w: %s %q is not a valid address (want host:port, e.g. 127.0.0.1:8765): %w", errUsage, flagName, addr, err)
	}
	return nil
}

// exportGauges has m read the open connections of every door served and
// the workbook cache at scrape time.
func exportGauges(m *metrics.Metrics, srv *server.Server, door *mcpdoor.Door, svc *excelops.Service) error {
	err := m.Connections("ws", func() float64 { return float64(srv.Connections()) })
	if err == nil && door != nil {
		err = m.Connections(mcpdoor.DoorHTTP, func() float64 { return float64(door.Connections(mcpdoor.DoorHTTP)) })
	}
	if err == nil {
		err = m.WorkbookCache(svc.CacheStats)
	}
	if err == nil {
		err = m.ReadCache(svc.ReadCacheStats)
	}
	if err != nil {
		return fmt.Errorf("metrics: %w", err)
	}
	return nil
}
