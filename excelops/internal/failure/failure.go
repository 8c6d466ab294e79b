// Package failure holds the kinds of failure a spreadsheet tool reports and
// the error value that carries one. The engine's internal packages and the
// tools build these errors; the excelops package re-exports the type and the
// kinds (excelops.Error, excelops.KindNotFound, ...), and the registry turns
// one into the uniform payload with the Python exception PythonException
// names (see ARCHITECTURE.md at the repository root).
//
//	return failure.New(failure.KindInvalidArgument, "cell \"ZZ0\" is not an A1 reference", nil)
package failure

import (
	"errors"
	"io/fs"
)

// Kind classifies a tool failure. A Kind is itself an error, so callers
// branch with errors.Is(err, failure.KindOutsideWorkspace).
type Kind string

// Error returns the kind's text.
func (k Kind) Error() string { return string(k) }

// The kinds of failure a tool reports, with the Python exception an agent sees.
const (
	// KindOutsideWorkspace: a path escapes the workspace or is refused by
	// the sandbox (PermissionError).
	KindOutsideWorkspace Kind = "path refused by the workspace sandbox"
	// KindNotFound: the workbook file does not exist (FileNotFoundError).
	KindNotFound Kind = "file not found"
	// KindSheetNotFound: no sheet of that name (KeyError, like openpyxl).
	KindSheetNotFound Kind = "sheet not found"
	// KindInvalidArgument: an argument has a wrong value (ValueError).
	KindInvalidArgument Kind = "invalid argument"
	// KindDamaged: the file is not a readable workbook (BadZipFile).
	KindDamaged Kind = "file is damaged"
	// KindLimit: the workbook exceeds a configured limit (MemoryError).
	KindLimit Kind = "limit exceeded"
	// KindIO: reading or saving failed at the operating-system level (OSError).
	KindIO Kind = "input/output error"
	// KindConflict: another program changed the workbook on disk while a
	// call was editing it, again after one retry; nothing was written
	// (InterruptedError: the agent may simply call again).
	KindConflict Kind = "workbook changed on disk"
	// KindUnavailable: a program the tool needs (LibreOffice for
	// render_range) is not installed (RuntimeError); the message says how
	// to install it.
	KindUnavailable Kind = "required program not installed"
	// KindTimeout: the call gave up waiting for a shared resource before
	// its deadline (a LibreOffice slot for render_range) (TimeoutError:
	// the agent may call again later).
	KindTimeout Kind = "timed out waiting"
	// KindEncrypted: the workbook is encrypted with a password the tool
	// does not have, or a write would have to save an encrypted workbook
	// (PermissionError).
	KindEncrypted Kind = "encrypted workbook"
)

// Error is the error every spreadsheet tool returns: a kind, a message for the
// model and, when there is one, the underlying cause (reported as Python's
// __cause__).
type Error struct {
	// Kind classifies the failure.
	Kind Kind
	// Msg is the full human-readable message.
	Msg string
	// Err is the underlying cause, or nil.
	Err error
}

// Error returns the message.
func (e *Error) Error() string { return e.Msg }

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Is reports whether target is e's Kind; a sandbox refusal also matches
// fs.ErrPermission and a missing file fs.ErrNotExist.
func (e *Error) Is(target error) bool {
	switch target {
	case e.Kind:
		return true
	case fs.ErrPermission:
		return e.Kind == KindOutsideWorkspace
	case fs.ErrNotExist:
		return e.Kind == KindNotFound
	}
	return false
}

// PythonException names the Python exception class for e.
func (e *Error) PythonException() string {
	switch e.Kind {
	case KindOutsideWorkspace:
		return "PermissionError"
	case KindNotFound:
		return "FileNotFoundError"
	case KindSheetNotFound:
		return "KeyError"
	case KindInvalidArgument:
		return "ValueError"
	case KindDamaged:
		return "BadZipFile"
	case KindLimit:
		return "MemoryError"
	case KindIO:
		return "OSError"
	case KindConflict:
		return "InterruptedError"
	case KindUnavailable:
		return "RuntimeError"
	case KindTimeout:
		return "TimeoutError"
	case KindEncrypted:
		return "PermissionError"
	}
	return "Exception"
}

// New builds an *Error.
func New(kind Kind, msg string, cause error) *Error {
	return &Error{Kind: kind, Msg: msg, Err: cause}
}

// KindOf returns the Kind of err, or "" when err is not an *Error.
func KindOf(err error) Kind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return ""
}
