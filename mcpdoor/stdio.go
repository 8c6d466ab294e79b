package mcpdoor

import (
	"context"
	"errors"
	"io"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ServeStdio serves one MCP session over in (client to server) and out
// (server to client, protocol messages only) until the client closes in
// or Shutdown closes the session. A client that hangs up is a normal end.
// A malformed line is answered (-32700 or -32600) and the session goes on;
// when the client closes in, the calls it already sent finish and their
// answers are written first, for at most Config.Grace (see lineGuard).
func (d *Door) ServeStdio(ctx context.Context, in io.ReadCloser, out io.WriteCloser) error {
	start := time.Now()
	owed := newAnswers()
	tw := &tapWriter{WriteCloser: out, tap: lineTap{each: owed.outbound}, broken: owed.abandon}
	guard := newLineGuard(in, tw, owed, d.cfg.MaxLineBytes, d.cfg.Grace, d.log)
	// The guard passes on lines of at most MaxLineBytes, plus the newline.
	ss, err := d.srv.Connect(ctx, &mcp.IOTransport{Reader: guard, Writer: tw, MaxLineLength: d.cfg.MaxLineBytes + 1}, nil)
	if err != nil {
		return err
	}
	d.open[0].Add(1)
	defer d.open[0].Add(-1)
	d.mu.Lock()
	d.stdio[ss] = owed
	d.mu.Unlock()
	if d.streamsCtx.Err() != nil {
		_ = ss.Close() // Shutdown ran before the session was listed
	}
	defer func() {
		d.mu.Lock()
		delete(d.stdio, ss)
		d.mu.Unlock()
	}()
	d.log.Info("stdio session opened")
	err = ss.Wait()
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrClosedPipe) {
		err = nil
	}
	d.log.WithField("duration_ms", time.Since(start).Milliseconds()).Info("stdio session closed")
	return err
}
