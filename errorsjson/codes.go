package errorsjson

// Code is a stable error_code value. The table is append-only: agents
// classify failures by code alone.
type Code string

// The error codes every payload's error_code is one of (the same table as
// the Python adapter's payloads.py).
const (
	CodeExecution          Code = "TOOL_EXECUTION_ERROR"
	CodeFatal              Code = "TOOL_FATAL_ERROR"
	CodeArgumentValidation Code = "TOOL_ARGUMENT_VALIDATION_ERROR"
	CodeNotFound           Code = "TOOL_NOT_FOUND"
	CodeNotAllowed         Code = "TOOL_NOT_ALLOWED"
	CodeTimeout            Code = "TOOL_TIMEOUT"
	CodeCancelled          Code = "TOOL_CANCELLED"
	CodeInternal           Code = "TOOL_INTERNAL_ERROR"
	CodeUnavailable        Code = "TOOL_UNAVAILABLE"
)

// FallbackRequired is the "error" value of a fallback payload.
const FallbackRequired = "FALLBACK_REQUIRED"

// Fallback destinations a tool may ask for.
const (
	FallbackChatService = "CHAT_SERVICE"
	FallbackToolRouter  = "TOOL_ROUTER"
)
