package mcpdoor

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/sirupsen/logrus"
	"github.com/tidwall/gjson"
)

// batchesEndVersion is the first MCP protocol revision without JSON-RPC
// batches; the SDK ends a session that sends one at that revision or later.
const batchesEndVersion = "2025-06-18"

// lineGuard is the client's stdin as the SDK's stdio transport reads it.
// The SDK ends the session on the first line it cannot decode; the guard
// answers such a line itself, as JSON-RPC 2.0 says (-32700 for a line that
// is not JSON, -32600 for JSON that is not a message), and passes the SDK
// only lines it decodes, so the session goes on. When the client closes
// stdin, the guard holds the end of input back until every request already
// passed on is answered (or the grace period ends, or the session closes):
// the SDK cancels the calls in flight the moment it reads the end.
// Framing and dispatch stay the SDK's: the guard only sorts lines.
type lineGuard struct {
	src    *bufio.Reader
	closer io.Closer
	max    int       // longest line accepted, in bytes
	out    io.Writer // where answers to malformed lines go (serialised with the SDK's writes)
	owed   *answers  // requests passed on and not yet answered
	grace  time.Duration
	log    logrus.FieldLogger
	proto  string // the protocol version the session negotiates ("" before initialize)

	pending []byte // a line passed on, not yet read by the SDK
	srcErr  error  // how stdin ended (io.EOF for a close)

	drainOnce sync.Once
	closeOnce sync.Once
	closed    chan struct{}
}

func newLineGuard(in io.ReadCloser, out io.Writer, owed *answers, maxLine int, grace time.Duration, log logrus.FieldLogger) *lineGuard {
	return &lineGuard{src: bufio.NewReader(in), closer: in, max: maxLine, out: out, owed: owed, grace: grace, log: log, closed: make(chan struct{})}
}

// Read gives the SDK the next well-formed line. At the end of stdin it
// first waits for the answers owed (see lineGuard): the SDK asks for more
// only once it has taken every message passed on.
func (g *lineGuard) Read(p []byte) (int, error) {
	for len(g.pending) == 0 {
		if g.srcErr != nil {
			g.drainOnce.Do(g.drain)
			return 0, g.srcErr
		}
		line, err := g.readLine()
		if line != nil {
			g.pending = g.check(line)
		}
		g.srcErr = err
	}
	n := copy(p, g.pending)
	g.pending = g.pending[n:]
	return n, nil
}

// Close ends a wait for owed answers and closes stdin.
func (g *lineGuard) Close() error {
	g.closeOnce.Do(func() { close(g.closed) })
	return g.closer.Close()
}

// drain waits, once stdin has ended, until the requests passed on are
// answered, the grace period ends, or the session closes.
func (g *lineGuard) drain() {
	ctx, cancel := context.WithTimeout(context.Background(), g.grace)
	defer cancel()
	go func() {
		select {
		case <-g.closed:
			cancel()
		case <-ctx.Done():
		}
	}()
	g.owed.wait(ctx)
	if n := g.owed.count(); n > 0 && !errors.Is(ctx.Err(), context.Canceled) {
		g.log.WithField("unanswered", n).Warn("stdin closed and the grace period expired: the calls still running are cancelled")
	}
}

// readLine returns the next line without its newline; a line longer than
// max is skipped and answered as an invalid request. At the end of stdin
// it returns the last, unterminated line (if any) with the error.
func (g *lineGuard) readLine() ([]byte, error) {
	var line []byte
	tooLong := false
	for {
		chunk, err := g.src.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > g.max+1 {
				tooLong, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case tooLong:
			g.answer(nil, jsonrpc.CodeInvalidRequest, fmt.Sprintf("Invalid Request: a message may not exceed %d bytes", g.max))
			return nil, err
		case err != nil:
			if len(line) == 0 {
				return nil, err
			}
			return line, err
		}
		return bytes.TrimSuffix(line, []byte("\n")), nil
	}
}

// check returns line, newline-terminated, when the SDK can decode it;
// otherwise it answers the line and returns nil. Blank lines are dropped.
func (g *lineGuard) check(line []byte) []byte {
	line = bytes.TrimSpace(line) // the SDK refuses trailing blanks
	switch {
	case len(line) == 0:
		return nil
	case !utf8.Valid(line):
		g.answer(nil, jsonrpc.CodeParseError, "Parse error: the message is not valid UTF-8")
		return nil
	case !gjson.ValidBytes(line):
		g.answer(nil, jsonrpc.CodeParseError, "Parse error: the message is not valid JSON")
		return nil
	case line[0] == '[':
		return g.checkBatch(line)
	}
	if id, reason := invalidMessage(line); reason != "" {
		g.answer(id, jsonrpc.CodeInvalidRequest, reason)
		return nil
	}
	msg := gjson.ParseBytes(line)
	if msg.Get("method").Str == "initialize" {
		g.proto = negotiated(msg.Get("params.protocolVersion").Str)
	}
	g.owed.inbound(msg)
	return append(line, '\n')
}

// checkBatch passes on the decodable messages of a batch, as a batch, and
// answers the others in one array; a batch after the protocol dropped
// batches, or an empty one, is answered as one invalid request.
func (g *lineGuard) checkBatch(line []byte) []byte {
	if v := g.proto; v >= batchesEndVersion {
		g.answer(nil, jsonrpc.CodeInvalidRequest, "Invalid Request: batches are not supported in protocol "+v)
		return nil
	}
	elems := gjson.ParseBytes(line).Array()
	if len(elems) == 0 {
		g.answer(nil, jsonrpc.CodeInvalidRequest, "Invalid Request: empty batch")
		return nil
	}
	var keep [][]byte
	var refused []json.RawMessage
	ids := map[string]bool{}
	for _, e := range elems {
		raw := []byte(e.Raw)
		id, reason := invalidMessage(raw)
		if reason == "" && e.Get("method").Exists() && e.Get("id").Exists() {
			if ids[e.Get("id").Raw] {
				id, reason = nil, "Invalid Request: the batch repeats a request id"
			}
			ids[e.Get("id").Raw] = true
		}
		if reason != "" {
			refused = append(refused, rpcError(id, jsonrpc.CodeInvalidRequest, reason))
			continue
		}
		keep = append(keep, raw)
	}
	if len(refused) > 0 {
		all, _ := json.Marshal(refused)
		g.write(all)
		g.log.WithField("refused", len(refused)).Warn("stdio: malformed batch elements answered")
	}
	if len(keep) == 0 {
		return nil
	}
	for _, raw := range keep {
		g.owed.inbound(gjson.ParseBytes(raw))
	}
	return append(append([]byte{'['}, append(bytes.Join(keep, []byte{','}), ']')...), '\n')
}

// invalidMessage says why msg (valid JSON) is not a JSON-RPC 2.0 message
// the SDK decodes ("" when it is), with the id to answer it under (nil for
// null, when the id cannot be told).
func invalidMessage(msg []byte) (id []byte, reason string) {
	m := gjson.ParseBytes(msg)
	if !m.IsObject() {
		return nil, "Invalid Request: a message must be a JSON object"
	}
	if i := m.Get("id"); i.Type == gjson.String || i.Type == gjson.Number {
		id = []byte(i.Raw)
	} else if i.Exists() && i.Type != gjson.Null {
		return nil, "Invalid Request: id must be a string or a number"
	}
	switch v, meth := m.Get("jsonrpc"), m.Get("method"); {
	case v.Type != gjson.String || v.Str != "2.0":
		return id, `Invalid Request: jsonrpc must be "2.0"`
	case meth.Exists() && meth.Type != gjson.String:
		return id, "Invalid Request: method must be a string"
	case !meth.Exists() && id == nil:
		return nil, "Invalid Request: a message needs a method (request) or an id (response)"
	}
	if _, err := jsonrpc.DecodeMessage(msg); err != nil {
		return id, "Invalid Request: " + err.Error()
	}
	return id, ""
}

// answer writes one error answer to a malformed message.
func (g *lineGuard) answer(id []byte, code int64, message string) {
	g.log.WithFields(logrus.Fields{"code": code, "reason": message}).Warn("stdio: malformed message answered")
	g.write(rpcError(id, code, message))
}

func (g *lineGuard) write(msg []byte) {
	// A failed write means the client is gone: the SDK's next write ends
	// the session.
	_, _ = g.out.Write(append(msg, '\n'))
}

// rpcError is a JSON-RPC error response; a nil id is null.
func rpcError(id []byte, code int64, message string) json.RawMessage {
	if id == nil {
		id = []byte("null")
	}
	b, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   jsonrpc.Error   `json:"error"`
	}{"2.0", id, jsonrpc.Error{Code: code, Message: message}})
	return b
}

// negotiated is the protocol version the SDK settles on when a client
// asks for requested: that one when supported, else the newest.
func negotiated(requested string) string {
	supported := mcp.SupportedProtocolVersions()
	if slices.Contains(supported, requested) {
		return requested
	}
	return supported[0]
}
