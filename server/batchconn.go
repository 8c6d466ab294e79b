package server

import (
	"bufio"
	"errors"
	"net"
	"net/http"
	"sync"
)

// maxBatchBytes bounds the frames one batch holds before it is written.
const maxBatchBytes = 256 << 10

// batchConn is the hijacked socket under a WebSocket connection. While the
// writer holds a batch open, frames collect in memory and go out in one
// write: a writer draining a full queue makes one syscall, not one per
// frame. Outside a batch (the upgrade response, control frames sent from
// other goroutines) writes go straight through. It is safe for concurrent
// use.
type batchConn struct {
	net.Conn
	mu       sync.Mutex
	batching bool
	buf      []byte
}

// Write implements net.Conn.
func (b *batchConn) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.batching && len(b.buf)+len(p) <= maxBatchBytes {
		b.buf = append(b.buf, p...)
		return len(p), nil
	}
	if err := b.flushLocked(); err != nil {
		return 0, err
	}
	return b.Conn.Write(p)
}

// begin opens a batch.
func (b *batchConn) begin() {
	b.mu.Lock()
	b.batching = true
	b.mu.Unlock()
}

// end closes the batch and writes what it holds.
func (b *batchConn) end() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.batching = false
	return b.flushLocked()
}

func (b *batchConn) flushLocked() error {
	if len(b.buf) == 0 {
		return nil
	}
	_, err := b.Conn.Write(b.buf)
	if cap(b.buf) > maxBatchBytes/4 {
		b.buf = nil // do not pin a big buffer on an idle connection
	} else {
		b.buf = b.buf[:0]
	}
	return err
}

// batchingWriter hands gorilla's Upgrade a hijacked socket wrapped in a
// batchConn.
type batchingWriter struct {
	http.ResponseWriter
	conn *batchConn
}

var errNoHijack = errors.New("server: the response writer cannot be hijacked")

// Hijack implements http.Hijacker.
func (w *batchingWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	hj, ok := w.ResponseWriter.(http.Hijacker)
	if !ok {
		return nil, nil, errNoHijack
	}
	c, brw, err := hj.Hijack()
	if err != nil {
		return nil, nil, err
	}
	w.conn = &batchConn{Conn: c}
	return w.conn, brw, nil
}
