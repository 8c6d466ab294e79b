package registry

import (
	"context"
	"encoding/json"
	"time"
)

// Func is the body of a tool. args is the call's JSON object, already
// checked against the tool's schema. The returned value becomes the result
// text as Python's str() would make it: a string is the text itself, a
// json.RawMessage its own bytes (compact JSON re-spaced to json.dumps's
// separators in the excelmanus profile), anything else is encoded with
// errorsjson (use pyjson.Object or a struct to fix key order); a
// returned error becomes an error payload. Return *errorsjson.FallbackRequest to ask
// the agent for fallback routing, and wrap with errorsjson.Fatal to mark the
// failure non-recoverable. ctx carries the deadline, cancellation and a
// progress reporter (see ReportProgress).
type Func func(ctx context.Context, args json.RawMessage) (any, error)

// Tool is one registered tool.
type Tool struct {
	// Name is the tool's unique name, as the model calls it.
	Name string
	// Description is the one line the model reads.
	Description string
	// InputSchema is a JSON Schema (draft 2020-12) for the arguments
	// object. Empty means {"type": "object"}, which is what Registry.Tools
	// then reports.
	InputSchema json.RawMessage
	// Func runs the tool.
	Func Func
	// Timeout is this tool's default per-call deadline; zero means the
	// registry default.
	Timeout time.Duration
	// MaxResultChars caps the result text in code points; zero means the
	// registry default, negative means no cap.
	MaxResultChars int
	// Annotations declare whether the tool only reads, only adds, or may
	// delete; nil declares nothing (see Annotations).
	Annotations *Annotations
	// Legacy, when set, rewrites arguments in an older form the tool still
	// accepts (one its InputSchema no longer describes) into the current
	// form before they are checked; it returns other arguments unchanged.
	Legacy func(args []byte) []byte
	// Path, when set, is one line for the tool's documentation
	// (docs/TOOLS.md) saying how the tool reaches its data; clients are
	// not sent it.
	Path string
}
