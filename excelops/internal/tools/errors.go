package tools

import "github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"

// newError builds a *failure.Error.
func newError(kind failure.Kind, msg string, cause error) *failure.Error {
	return failure.New(kind, msg, cause)
}

// kindOf returns the Kind of err, or "" when err is not a *failure.Error.
func kindOf(err error) failure.Kind { return failure.KindOf(err) }
