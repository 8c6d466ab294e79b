package server

import (
	"context"
	"errors"
	"net"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"
	"github.com/sirupsen/logrus"

	"github.com/registry-sidecar/registry-sidecar/registry"
)

// Close codes and reasons the server sends.
const (
	// CloseSlowClient (1008, policy violation) drops a client whose
	// outbound queue stayed full for Config.WriteTimeout.
	CloseSlowClient = websocket.ClosePolicyViolation
	// CloseBinary (1003, unsupported data) answers a binary frame.
	CloseBinary = websocket.CloseUnsupportedData
	// CloseTooBig (1009) answers a frame over Config.ReadLimit.
	CloseTooBig = websocket.CloseMessageTooBig
	// CloseShutdown (1001, going away) ends connections on shutdown.
	CloseShutdown = websocket.CloseGoingAway

	reasonSlow         = "outbound queue full: client is not reading"
	reasonWriteTimeout = "write timed out: client is not reading"
	reasonBinary       = "binary frames are not supported: send JSON-RPC as text"
	reasonShutdown     = "server is shutting down"
)

// outMsg is one item of the outbound queue: a text frame, or a close frame
// sent after everything queued before it.
type outMsg struct {
	data      []byte
	close     bool
	closeCode int
	reason    string
}

// conn is one WebSocket connection: one reader (the handler goroutine),
// one writer, and at most 2*MaxConcurrentCalls call goroutines.
type conn struct {
	s      *Server
	ws     *websocket.Conn
	bc     *batchConn // the socket under ws: batches the writer's frames
	id     string
	log    logrus.FieldLogger
	opened time.Time

	out        chan outMsg
	closed     chan struct{} // closed on teardown: the writer stops, sends fail
	closeOnce  sync.Once
	readerDone chan struct{}

	ctx    context.Context // parent of every call context
	cancel context.CancelFunc

	admit chan struct{} // calls admitted: running or waiting for a slot
	slots chan struct{} // calls running
	calls sync.WaitGroup

	mu       sync.Mutex
	inflight map[string]*call // by the request id's raw JSON
	profile  registry.Profile // chosen in initialize; "" means the registry's
	active   int              // admitted calls whose answer is not queued yet
	draining bool
	idle     chan struct{} // closed once draining and nothing is in flight
	idleDone bool

	reasonMu sync.Mutex
	reason   string

	nCalls atomic.Int64
}

func newConn(s *Server, ws *websocket.Conn, bc *batchConn, id, remote string) *conn {
	c := newConnState(s, id, s.log.WithFields(logrus.Fields{"conn": id, "remote": remote}))
	c.ws, c.bc = ws, bc
	ws.SetReadLimit(s.cfg.ReadLimit)
	ws.SetPongHandler(func(string) error { return ws.SetReadDeadline(time.Now().Add(s.cfg.PongWait)) })
	return c
}

// newConnState is a connection's state without its socket: what the
// JSON-RPC side (handle) needs.
func newConnState(s *Server, id string, log logrus.FieldLogger) *conn {
	ctx, cancel := context.WithCancel(context.Background())
	return &conn{
		s:          s,
		id:         id,
		log:        log,
		opened:     time.Now(),
		out:        make(chan outMsg, s.cfg.OutboundQueue),
		closed:     make(chan struct{}),
		readerDone: make(chan struct{}),
		ctx:        ctx,
		cancel:     cancel,
		admit:      make(chan struct{}, 2*s.cfg.MaxConcurrentCalls),
		slots:      make(chan struct{}, s.cfg.MaxConcurrentCalls),
		inflight:   map[string]*call{},
		idle:       make(chan struct{}),
	}
}

// serve runs the connection until it ends and cleans up after it.
func (c *conn) serve() {
	c.log.WithField("subprotocol", c.ws.Subprotocol()).Info("connection opened")
	writerDone := make(chan struct{})
	go func() {
		defer close(writerDone)
		c.writeLoop()
	}()
	c.setReason(c.readLoop())
	close(c.readerDone)
	c.shutdown()
	c.cancel()
	c.calls.Wait()
	<-writerDone
	_ = c.ws.Close()
	c.log.WithFields(logrus.Fields{
		"calls":       c.nCalls.Load(),
		"duration_ms": float64(time.Since(c.opened).Microseconds()) / 1000,
		"reason":      c.closeReason(),
	}).Info("connection closed")
}

// shutdown stops the writer and makes every later send fail at once.
func (c *conn) shutdown() { c.closeOnce.Do(func() { close(c.closed) }) }

func (c *conn) setReason(r string) {
	c.reasonMu.Lock()
	defer c.reasonMu.Unlock()
	if c.reason == "" {
		c.reason = r
	}
}

func (c *conn) closeReason() string {
	c.reasonMu.Lock()
	defer c.reasonMu.Unlock()
	return c.reason
}

// readLoop reads frames until the connection fails and says why.
func (c *conn) readLoop() string {
	for {
		_ = c.ws.SetReadDeadline(time.Now().Add(c.s.cfg.PongWait))
		mt, data, err := c.ws.ReadMessage()
		if err != nil {
			return describeReadError(err)
		}
		if mt != websocket.TextMessage {
			c.closeNow(CloseBinary, reasonBinary)
			return "binary frame"
		}
		c.handle(data)
	}
}

func describeReadError(err error) string {
	var ce *websocket.CloseError
	var ne net.Error
	switch {
	case errors.As(err, &ce):
		return "client closed: " + strconv.Itoa(ce.Code)
	case errors.Is(err, websocket.ErrReadLimit):
		return "frame over the read limit"
	case errors.As(err, &ne) && ne.Timeout():
		return "read timeout: no frame or pong"
	case errors.Is(err, net.ErrClosed):
		return "closed by server"
	}
	return "read error: " + err.Error()
}

// writeLoop is the only goroutine that writes data frames.
func (c *conn) writeLoop() {
	ping := time.NewTicker(c.s.cfg.PingInterval)
	defer ping.Stop()
	defer c.shutdown()
	for {
		select {
		case m := <-c.out:
			if !c.writeBatch(m) {
				return
			}
		case <-ping.C:
			if err := c.ws.WriteControl(websocket.PingMessage, nil, time.Now().Add(c.s.cfg.WriteTimeout)); err != nil {
				c.setReason("ping failed: " + err.Error())
				_ = c.ws.Close()
				return
			}
		case <-c.closed:
			return
		}
	}
}

// writeBatch writes m and whatever else is queued in one batch. It
// reports whether the writer should go on.
func (c *conn) writeBatch(m outMsg) bool {
	c.bc.begin()
	for {
		if m.close {
			if err := c.bc.end(); err != nil {
				return c.writeFailed(err)
			}
			c.writeClose(m.closeCode, m.reason)
			return false
		}
		_ = c.ws.SetWriteDeadline(time.Now().Add(c.s.cfg.WriteTimeout))
		if err := c.ws.WriteMessage(websocket.TextMessage, m.data); err != nil {
			_ = c.bc.end()
			return c.writeFailed(err)
		}
		select {
		case m = <-c.out:
			continue
		default:
		}
		if err := c.bc.end(); err != nil {
			return c.writeFailed(err)
		}
		return true
	}
}

// writeFailed drops the client after a failed write; a timeout means it
// is not reading.
func (c *conn) writeFailed(err error) bool {
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		c.dropSlow(reasonWriteTimeout)
		return false
	}
	c.setReason("write failed: " + err.Error())
	_ = c.ws.Close()
	return false
}

// writeClose sends a close frame after the queue was flushed, waits for
// the client's close reply (briefly), then closes the socket.
func (c *conn) writeClose(code int, reason string) {
	c.setReason(reason)
	_ = c.ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(code, reason), time.Now().Add(closeWriteTimeout))
	t := time.NewTimer(closeWriteTimeout)
	defer t.Stop()
	select {
	case <-c.readerDone:
	case <-t.C:
	}
	_ = c.ws.Close()
}

// closeNow sends a close frame at once (concurrently with the writer) and
// closes the socket.
func (c *conn) closeNow(code int, reason string) {
	c.setReason(reason)
	_ = c.ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(code, reason), time.Now().Add(closeWriteTimeout))
	_ = c.ws.Close()
}

// send queues a frame; it is dropped when the connection is closing. When
// the queue stays full for WriteTimeout the client is not reading: it is
// dropped with CloseSlowClient.
func (c *conn) send(data []byte) {
	m := outMsg{data: data}
	select {
	case c.out <- m:
		return
	case <-c.closed:
		return
	default:
	}
	t := time.NewTimer(c.s.cfg.WriteTimeout)
	defer t.Stop()
	select {
	case c.out <- m:
	case <-c.closed:
	case <-t.C:
		c.dropSlow(reasonSlow)
	}
}

// dropSlow drops a client that does not read: close 1008 (best effort, it
// is likely not reading that either) and the socket closed.
func (c *conn) dropSlow(reason string) {
	c.log.WithField("close_code", CloseSlowClient).Warn("dropping client: " + reason)
	c.closeNow(CloseSlowClient, reason)
	c.shutdown()
}

// notify queues an advisory frame (progress) only if there is room.
func (c *conn) notify(data []byte) {
	select {
	case c.out <- outMsg{data: data}:
	default:
	}
}

// drain stops taking calls, waits for the in-flight ones until ctx is done
// (then cancels them), and closes with 1001 after the queued answers. It
// reports whether everything finished within ctx.
func (c *conn) drain(ctx context.Context) bool {
	c.mu.Lock()
	c.draining = true
	c.markIdleLocked()
	c.mu.Unlock()
	ok := true
	select {
	case <-c.idle:
	case <-c.closed:
		return true
	case <-ctx.Done():
		ok = false
		c.cancel()
		t := time.NewTimer(closeWriteTimeout)
		select {
		case <-c.idle:
		case <-t.C:
		}
		t.Stop()
	}
	m := outMsg{close: true, closeCode: CloseShutdown, reason: reasonShutdown}
	t := time.NewTimer(c.s.cfg.WriteTimeout)
	defer t.Stop()
	select {
	case c.out <- m:
	case <-c.closed:
	case <-t.C:
		c.closeNow(CloseShutdown, reasonShutdown)
	}
	return ok
}

// markIdleLocked closes idle when draining and nothing is in flight.
func (c *conn) markIdleLocked() {
	if c.draining && c.active == 0 && !c.idleDone {
		c.idleDone = true
		close(c.idle)
	}
}
