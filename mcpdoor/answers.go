package mcpdoor

import (
	"bytes"
	"context"
	"io"
	"sync"
	"time"

	"github.com/tidwall/gjson"
)

// answerFlushTimeout bounds how long Shutdown waits, after the calls
// ended, for a stdio session's last answers to be written before it closes
// the session.
const answerFlushTimeout = 5 * time.Second

// answers follows, on a stdio session's two streams, the requests the
// client sent and the answers the server wrote: the SDK refuses to write
// once its connection is closing, so Shutdown closes a session only when
// nothing is owed. It only reads the newline-delimited messages as they
// pass; framing stays the SDK's.
type answers struct {
	mu      sync.Mutex
	pending map[string]struct{} // raw JSON ids of requests not yet answered
	idle    chan struct{}       // closed when pending becomes empty; nil while empty
}

func newAnswers() *answers { return &answers{pending: map[string]struct{}{}} }

// owe records a request; forget an answer (or a cancelled request, which
// the client no longer waits for).
func (a *answers) owe(id string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.pending[id] = struct{}{}
}

func (a *answers) forget(id string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	delete(a.pending, id)
	if len(a.pending) == 0 && a.idle != nil {
		close(a.idle)
		a.idle = nil
	}
}

// abandon forgets every request: the client can no longer be written to.
func (a *answers) abandon() {
	a.mu.Lock()
	defer a.mu.Unlock()
	clear(a.pending)
	if a.idle != nil {
		close(a.idle)
		a.idle = nil
	}
}

// count is the number of requests not yet answered.
func (a *answers) count() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.pending)
}

// wait returns once every request is answered, or when ctx ends.
func (a *answers) wait(ctx context.Context) {
	a.mu.Lock()
	if len(a.pending) == 0 {
		a.mu.Unlock()
		return
	}
	if a.idle == nil {
		a.idle = make(chan struct{})
	}
	idle := a.idle
	a.mu.Unlock()
	select {
	case <-idle:
	case <-ctx.Done():
	}
}

// inbound notes one message the client sent.
func (a *answers) inbound(msg gjson.Result) {
	id := msg.Get("id")
	switch method := msg.Get("method"); {
	case method.Str == "notifications/cancelled":
		if r := msg.Get("params.requestId"); r.Exists() {
			a.forget(r.Raw)
		}
	case method.Exists() && id.Exists():
		a.owe(id.Raw)
	}
}

// outbound notes one message the server wrote.
func (a *answers) outbound(msg gjson.Result) {
	if id := msg.Get("id"); id.Exists() && !msg.Get("method").Exists() {
		a.forget(id.Raw)
	}
}

// lineTap calls each for every complete line that passes through it
// (each element of a batch).
type lineTap struct {
	buf  []byte
	each func(gjson.Result)
}

func (t *lineTap) see(p []byte) {
	t.buf = append(t.buf, p...)
	for {
		i := bytes.IndexByte(t.buf, '\n')
		if i < 0 {
			break
		}
		msg := gjson.ParseBytes(t.buf[:i])
		if msg.IsArray() {
			msg.ForEach(func(_, m gjson.Result) bool { t.each(m); return true })
		} else {
			t.each(msg)
		}
		t.buf = t.buf[i+1:]
	}
	if len(t.buf) == 0 {
		t.buf = nil // do not keep a large line's buffer
	}
}

// tapWriter passes writes through a lineTap; broken, when set, is told
// of a failed write (the client is gone).
type tapWriter struct {
	io.WriteCloser
	mu     sync.Mutex
	tap    lineTap
	broken func()
}

// Write writes p whole before any other Write starts: the SDK's messages
// and the answers of the stdio guard never interleave.
func (w *tapWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	n, err := w.WriteCloser.Write(p)
	w.tap.see(p[:n])
	if err != nil && w.broken != nil {
		w.broken()
	}
	return n, err
}
