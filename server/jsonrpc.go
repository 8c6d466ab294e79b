package server

import (
	"strconv"

	"github.com/registry-sidecar/registry-sidecar/pyjson"
)

// JSON-RPC 2.0 error codes the server answers with.
const (
	// CodeParseError answers a frame that is not JSON (or not UTF-8).
	CodeParseError = -32700
	// CodeInvalidRequest answers JSON that is not a valid request object
	// (also batches, which MCP 2025-11-25 does not allow, and a duplicate
	// in-flight id).
	CodeInvalidRequest = -32600
	// CodeMethodNotFound answers an unknown method.
	CodeMethodNotFound = -32601
	// CodeInvalidParams answers params of the wrong shape.
	CodeInvalidParams = -32602
	// CodeShuttingDown answers a tools/call that arrived after shutdown
	// began.
	CodeShuttingDown = -32000
)

// ProtocolVersion is the MCP revision the server implements.
const ProtocolVersion = "2025-11-25"

// supportedVersions are the MCP revisions whose shapes the server's
// subset (tools only) is compatible with; initialize echoes the client's
// when it is one of them.
var supportedVersions = [...]string{ProtocolVersion, "2025-06-18", "2025-03-26", "2024-11-05"}

const nullID = "null"

// msgDuplicateID answers any request whose id is that of a call still in
// flight on the connection.
const msgDuplicateID = "Invalid Request: a request with this id is already in flight"

// appendResult appends a JSON-RPC response carrying result (raw JSON).
func appendResult(buf []byte, id string, result []byte) []byte {
	buf = append(buf, `{"jsonrpc":"2.0","id":`...)
	buf = append(buf, id...)
	buf = append(buf, `,"result":`...)
	buf = append(buf, result...)
	return append(buf, '}')
}

// appendError appends a JSON-RPC error response.
func appendError(buf []byte, id string, code int, msg string) []byte {
	buf = append(buf, `{"jsonrpc":"2.0","id":`...)
	buf = append(buf, id...)
	buf = append(buf, `,"error":{"code":`...)
	buf = strconv.AppendInt(buf, int64(code), 10)
	buf = append(buf, `,"message":`...)
	buf = pyjson.AppendString(buf, msg)
	return append(buf, "}}"...)
}

// appendCallResult appends the tools/call response for a registry result.
func appendCallResult(buf []byte, id, text string, isError bool) []byte {
	buf = append(buf, `{"jsonrpc":"2.0","id":`...)
	buf = append(buf, id...)
	buf = append(buf, `,"result":{"content":[{"type":"text","text":`...)
	buf = pyjson.AppendString(buf, text)
	buf = append(buf, `}],"isError":`...)
	buf = strconv.AppendBool(buf, isError)
	return append(buf, "}}"...)
}

// appendProgress appends a notifications/progress message; total and
// message are left out when zero.
func appendProgress(buf []byte, token string, progress, total float64, message string) []byte {
	buf = append(buf, `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":`...)
	buf = append(buf, token...)
	buf = append(buf, `,"progress":`...)
	buf = strconv.AppendFloat(buf, progress, 'g', -1, 64)
	if total > 0 {
		buf = append(buf, `,"total":`...)
		buf = strconv.AppendFloat(buf, total, 'g', -1, 64)
	}
	if message != "" {
		buf = append(buf, `,"message":`...)
		buf = pyjson.AppendString(buf, message)
	}
	return append(buf, "}}"...)
}
