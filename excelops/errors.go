package excelops

import "github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"

// Kind classifies an excelops failure. A Kind is itself an error, so callers
// branch with errors.Is(err, excelops.KindOutsideWorkspace).
type Kind = failure.Kind

// Error is the error every excelops tool returns: a kind, a message for the
// model and, when there is one, the underlying cause (reported as Python's
// __cause__). PythonException names the Python exception for its kind.
type Error = failure.Error

// The kinds of failure a tool reports, with the Python exception an agent sees.
const (
	// KindOutsideWorkspace: a path escapes the workspace or is refused by
	// the sandbox (PermissionError).
	KindOutsideWorkspace = failure.KindOutsideWorkspace
	// KindNotFound: the workbook file does not exist (FileNotFoundError).
	KindNotFound = failure.KindNotFound
	// KindSheetNotFound: no sheet of that name (KeyError, like openpyxl).
	KindSheetNotFound = failure.KindSheetNotFound
	// KindInvalidArgument: an argument has a wrong value (ValueError).
	KindInvalidArgument = failure.KindInvalidArgument
	// KindDamaged: the file is not a readable workbook (BadZipFile).
	KindDamaged = failure.KindDamaged
	// KindLimit: the workbook exceeds a configured limit (MemoryError).
	KindLimit = failure.KindLimit
	// KindIO: reading or saving failed at the operating-system level (OSError).
	KindIO = failure.KindIO
	// KindConflict: another program changed the workbook on disk while a
	// call was editing it, again after one retry; nothing was written
	// (InterruptedError: the agent may simply call again).
	KindConflict = failure.KindConflict
	// KindUnavailable: a program the tool needs (LibreOffice for
	// render_range) is not installed (RuntimeError); the message says how
	// to install it.
	KindUnavailable = failure.KindUnavailable
	// KindTimeout: the call gave up waiting for a shared resource before
	// its deadline (a LibreOffice slot for render_range) (TimeoutError:
	// the agent may call again later).
	KindTimeout = failure.KindTimeout
	// KindEncrypted: the workbook is encrypted with a password the tool
	// does not have, or a write would have to save an encrypted workbook
	// (PermissionError).
	KindEncrypted = failure.KindEncrypted
)
