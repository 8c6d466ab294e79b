package errorsjson

import (
	"errors"
	"fmt"

	"github.com/registry-sidecar/registry-sidecar/pyjson"
)

// StatusError is the "status" value of every error payload.
const StatusError = "error"

// ErrorPayload is the execution-family error payload. Field order is the
// wire order.
type ErrorPayload struct {
	Status    string `json:"status"`
	ErrorCode Code   `json:"error_code"`
	Tool      string `json:"tool"`
	Exception string `json:"exception"`
	Message   string `json:"message"`
	// Cause is the wrapped error's text (Python's __cause__); nil when
	// there is no wrapped error or its text equals Message. An empty text
	// is kept, as Python keeps str(KeyError()) == "".
	Cause *string `json:"cause,omitempty"`
}

// newError builds an error payload of code for tool from err.
func newError(code Code, tool, exception string, err error) ErrorPayload {
	p := ErrorPayload{Status: StatusError, ErrorCode: code, Tool: tool, Exception: exception}
	if err == nil {
		return p
	}
	p.Message = err.Error()
	p.Cause = causeOf(err)
	return p
}

// causeOf follows Python's __cause__ rule: the text of the wrapped error when
// there is one and it differs from the error's own text. Marker wrappers that
// add no text (Fatal) are looked through.
func causeOf(err error) *string {
	for {
		var f *fatalError
		if errors.As(err, &f) && f == err {
			err = f.err
			continue
		}
		break
	}
	inner := errors.Unwrap(err)
	if inner == nil {
		return nil
	}
	if c := inner.Error(); c != err.Error() {
		return &c
	}
	return nil
}

// Execution is the payload for an error a tool returned: TOOL_EXECUTION_ERROR,
// or TOOL_FATAL_ERROR when the error was marked with Fatal.
func Execution(tool string, err error) ErrorPayload {
	code := CodeExecution
	if IsFatal(err) {
		code = CodeFatal
	}
	return newError(code, tool, ExceptionName(err), err)
}

// NotFound is the payload for a call to a tool that is not registered.
func NotFound(tool string) ErrorPayload {
	//lint:ignore ST1005 the message is the Python exception's text, quoted verbatim
	return newError(CodeNotFound, tool, "ToolNotFoundError", fmt.Errorf("Tool '%s' not found.", tool))
}

// NotAllowed is the payload for a call outside the caller's tool scope.
func NotAllowed(tool string) ErrorPayload {
	//lint:ignore ST1005 the message is the Python exception's text, quoted verbatim
	return newError(CodeNotAllowed, tool, "ToolNotAllowedError", fmt.Errorf("Tool '%s' is not in the allowed tool scope.", tool))
}

// Timeout is the payload for a call whose deadline passed. Like Python's
// bare TimeoutError() its message is empty unless err has text.
func Timeout(tool string, err error) ErrorPayload {
	return newError(CodeTimeout, tool, "TimeoutError", err)
}

// Cancelled is the payload for a call the caller cancelled.
func Cancelled(tool string) ErrorPayload {
	return newError(CodeCancelled, tool, "CancelledError", nil)
}

// Internal is the payload for a tool that panicked. The panic value is
// summarised; the stack is logged by the caller, never sent.
func Internal(tool string, recovered any) ErrorPayload {
	return newError(CodeInternal, tool, "RuntimeError", fmt.Errorf("tool panicked: %v", recovered))
}

// Unavailable is the payload for a sidecar that cannot be reached.
func Unavailable(tool string, err error) ErrorPayload {
	return newError(CodeUnavailable, tool, "ConnectionError", err)
}

// ValidationMessage is the message Validation puts in argument-validation
// payloads: excelmanus's text for a schema mismatch. The registry sets the
// message of its payloads from its message profile.
const ValidationMessage = "工具参数与 schema 不匹配，请修正后重试。"

// ValidationPayload is the argument-validation error payload.
type ValidationPayload struct {
	Status         string   `json:"status"`
	ErrorCode      Code     `json:"error_code"`
	Tool           string   `json:"tool"`
	Message        string   `json:"message"`
	Detail         string   `json:"detail"`
	Violations     []string `json:"violations"`
	RequiredFields []string `json:"required_fields"`
	AcceptedFields []string `json:"accepted_fields"`
	ProvidedFields []string `json:"provided_fields"`
	// NestedAcceptedFields maps the path of each nested object holding
	// keys its schema does not declare to the keys it accepts (sorted), so
	// a model that guessed a nested key learns the right ones. It is an
	// extension of excelmanus's shape, present only in that case (absent
	// otherwise, so every other payload stays byte-identical).
	NestedAcceptedFields pyjson.Object `json:"nested_accepted_fields,omitempty"`
}

// FallbackPayload asks the agent to route the call elsewhere: to its legacy
// handler (fallback_to CHAT_SERVICE) or its tool router (TOOL_ROUTER).
type FallbackPayload struct {
	Status      string `json:"status"`
	Error       string `json:"error"`
	Tool        string `json:"tool"`
	UseFallback bool   `json:"use_fallback"`
	FallbackTo  string `json:"fallback_to"`
	Reason      string `json:"reason"`
}

// FallbackRequest is an error a tool returns to ask for fallback routing
// instead of failing.
type FallbackRequest struct {
	To     string
	Reason string
}

// Error implements error.
func (f *FallbackRequest) Error() string {
	return "fallback to " + f.To + " required: " + f.Reason
}

// Fallback builds the fallback payload for tool from a request.
func Fallback(tool string, req *FallbackRequest) FallbackPayload {
	return FallbackPayload{Status: "fallback", Error: FallbackRequired, Tool: tool, UseFallback: true, FallbackTo: req.To, Reason: req.Reason}
}

// Limits of the validation payload: how many violations the detail line
// quotes, and how many the violations list carries.
const (
	maxDetailViolations = 5
	maxViolations       = 20
)

// Validation builds the argument-validation payload. violations are
// "<instance path>: <problem>" lines; required keeps schema order, accepted
// and provided are sorted by the caller.
func Validation(tool string, violations, required, accepted, provided []string) ValidationPayload {
	detail := violations
	if len(detail) > maxDetailViolations {
		detail = detail[:maxDetailViolations]
	}
	listed := violations
	if len(listed) > maxViolations {
		listed = listed[:maxViolations]
	}
	return ValidationPayload{
		Status:         StatusError,
		ErrorCode:      CodeArgumentValidation,
		Tool:           tool,
		Message:        ValidationMessage,
		Detail:         joinSemicolon(detail),
		Violations:     nonNil(listed),
		RequiredFields: nonNil(required),
		AcceptedFields: nonNil(accepted),
		ProvidedFields: nonNil(provided),
	}
}

func joinSemicolon(items []string) string {
	out := ""
	for i, s := range items {
		if i > 0 {
			out += "; "
		}
		out += s
	}
	return out
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
