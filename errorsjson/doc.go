// Package errorsjson holds the uniform error payloads of registry-sidecar:
// the structs a failed, refused or fallen-back tool call answers with,
// written by pyjson exactly as Python's json.dumps writes them. A typical
// call:
//
//	p := errorsjson.Execution("write_cells", err)
//	text, _ := pyjson.MarshalString(p)
//
// Payload constructors cover every row of the error-code table (Execution,
// NotFound, NotAllowed, Timeout, Cancelled, Internal, Unavailable), the
// argument-validation shape (Validation) and the fallback shape (Fallback).
// The Python exception name comes from the error itself (Exception,
// ExceptionFrom, PythonExceptioner) or from errors.Is/As on well-known Go
// errors; "cause" is errors.Unwrap's text, only when present and different.
//
// The encoder names this package still exports (Marshal, Object, Field,
// ...) forward to pyjson and are deprecated.
//
// ARCHITECTURE.md at the repository root draws the package map and the path
// of one call through it.
package errorsjson
