package errorsjson

import (
	"context"
	"errors"
	"io/fs"
	"strconv"
)

// PythonExceptioner is implemented by errors that name the Python exception
// class an agent should see for them.
type PythonExceptioner interface {
	PythonException() string
}

// pyError is an error that carries its Python exception name.
type pyError struct {
	name string
	msg  string
	err  error
}

// Error returns the message, as str(exc) does in Python.
func (e *pyError) Error() string { return e.msg }

// PythonException returns the exception class name.
func (e *pyError) PythonException() string { return e.name }

// Unwrap returns the cause given to ExceptionFrom, or nil.
func (e *pyError) Unwrap() error { return e.err }

// Exception returns an error whose Python exception name is name and whose
// text is msg, like raising name(msg) in Python.
func Exception(name, msg string) error {
	return &pyError{name: name, msg: msg}
}

// ExceptionFrom is Exception with a cause, like `raise name(msg) from cause`.
func ExceptionFrom(name, msg string, cause error) error {
	return &pyError{name: name, msg: msg, err: cause}
}

// ErrInvalidArgument marks errors caused by an argument of the wrong value;
// it maps to ValueError.
var ErrInvalidArgument = errors.New("invalid argument")

// ExceptionName returns the Python exception class name for err: the name
// err (or an error it wraps) gives itself, else a mapping of well-known Go
// errors, else "Exception".
func ExceptionName(err error) string {
	var named PythonExceptioner
	if errors.As(err, &named) {
		return named.PythonException()
	}
	var numErr *strconv.NumError
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "FileNotFoundError"
	case errors.Is(err, fs.ErrPermission):
		return "PermissionError"
	case errors.Is(err, fs.ErrExist):
		return "FileExistsError"
	case errors.Is(err, context.DeadlineExceeded):
		return "TimeoutError"
	case errors.Is(err, context.Canceled):
		return "CancelledError"
	case errors.As(err, &numErr), errors.Is(err, ErrInvalidArgument):
		return "ValueError"
	}
	return "Exception"
}

// fatalError marks a tool error as non-recoverable.
type fatalError struct{ err error }

// Error returns the marked error's text unchanged.
func (e *fatalError) Error() string { return e.err.Error() }

// Unwrap returns the marked error.
func (e *fatalError) Unwrap() error { return e.err }

// Fatal marks err as non-recoverable: the registry reports it as
// TOOL_FATAL_ERROR and the agent ends the job. Fatal(nil) is nil.
func Fatal(err error) error {
	if err == nil {
		return nil
	}
	return &fatalError{err: err}
}

// IsFatal reports whether err (or an error it wraps) was marked with Fatal.
func IsFatal(err error) bool {
	var f *fatalError
	return errors.As(err, &f)
}
