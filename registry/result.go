package registry

import (
	"time"

	"github.com/registry-sidecar/registry-sidecar/errorsjson"
)

// Result is the outcome of one CallTool.
type Result struct {
	// Text is the payload exactly as the agent receives it.
	Text string
	// IsError reports an error payload (status "error").
	IsError bool
	// Code is the error_code of an error payload, or "" on success and
	// for fallback requests.
	Code errorsjson.Code
	// Fallback reports a fallback request payload.
	Fallback bool
	// Elapsed is the wall time of the call.
	Elapsed time.Duration
}
