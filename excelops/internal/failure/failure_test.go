package failure

import (
	"errors"
	"fmt"
	"io/fs"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestKindsMatchAndNameTheirException: an *Error matches its own kind
// through any wrapping, the file-system sentinels where the kind means the
// same thing, and nothing else; each kind names its Python exception.
func TestKindsMatchAndNameTheirException(t *testing.T) {
	cases := []struct {
		kind      Kind
		exception string
		sentinel  error // a stdlib error the kind also matches, or nil
	}{
		{KindOutsideWorkspace, "PermissionError", fs.ErrPermission},
		{KindNotFound, "FileNotFoundError", fs.ErrNotExist},
		{KindSheetNotFound, "KeyError", nil},
		{KindInvalidArgument, "ValueError", nil},
		{KindDamaged, "BadZipFile", nil},
		{KindLimit, "MemoryError", nil},
		{KindIO, "OSError", nil},
		{KindConflict, "InterruptedError", nil},
		{KindUnavailable, "RuntimeError", nil},
		{KindTimeout, "TimeoutError", nil},
		{KindEncrypted, "PermissionError", nil},
		{Kind("made up"), "Exception", nil},
	}
	cause := errors.New("the cause")
	for _, c := range cases {
		err := fmt.Errorf("wrapped: %w", New(c.kind, "message", cause))
		assert.ErrorIs(t, err, c.kind, c.kind)
		assert.ErrorIs(t, err, cause, "the cause stays reachable")
		assert.Equal(t, c.kind, KindOf(err))
		var e *Error
		assert.True(t, errors.As(err, &e))
		assert.Equal(t, c.exception, e.PythonException(), c.kind)
		assert.Equal(t, "message", e.Error())
		for _, s := range []error{fs.ErrPermission, fs.ErrNotExist} {
			assert.Equal(t, s == c.sentinel, errors.Is(err, s), "%s matches %v", c.kind, s)
		}
		other := KindIO
		if c.kind == KindIO {
			other = KindLimit
		}
		assert.NotErrorIs(t, err, other)
	}
	assert.Equal(t, Kind(""), KindOf(errors.New("plain")))
}
