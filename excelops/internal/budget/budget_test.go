package budget

import (
	"bytes"
	"errors"
	"io"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/assert"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
)

// FuzzRunBound: the run bound fails exactly when some run of bytes
// without '<' is longer than the bound, and passes the bytes unchanged.
func FuzzRunBound(f *testing.F) {
	f.Add([]byte(`<row><c><v>123</v></c></row>`), uint8(3))
	f.Add([]byte(`aaaa<bbbbbbbb`), uint8(4))
	f.Add([]byte(`<<<<`), uint8(0))
	f.Fuzz(func(t *testing.T, data []byte, max uint8) {
		lim := Budget{MaxText: int64(max)}
		tooLong := false
		for _, run := range bytes.Split(data, []byte("<")) {
			tooLong = tooLong || len(run) > int(max)
		}
		// A reader that returns one byte at a time exercises runs that
		// cross reads; reads of a few bytes, reads shorter and longer than
		// the bound.
		for _, r := range []io.Reader{&oneByte{data}, iotest.HalfReader(bytes.NewReader(data)), bytes.NewReader(data)} {
			got, err := io.ReadAll(lim.RunBound(r, "x"))
			if tooLong != (err != nil) {
				t.Fatalf("max %d: error %v, want error %v", max, err, tooLong)
			}
			if err != nil && !errors.Is(err, ErrRunTooLong) {
				t.Fatalf("error %v is not the run bound's", err)
			}
			if err == nil && !bytes.Equal(got, data) {
				t.Fatal("bytes changed")
			}
		}
	})
}

// oneByte reads one byte per call.
type oneByte struct{ data []byte }

func (o *oneByte) Read(p []byte) (int, error) {
	if len(o.data) == 0 {
		return 0, io.EOF
	}
	if len(p) == 0 {
		return 0, nil
	}
	p[0], o.data = o.data[0], o.data[1:]
	return 1, nil
}

// TestBudgetErrors: past either bound is a KindLimit error that names what
// and how much; within the memory budget is no error.
func TestBudgetErrors(t *testing.T) {
	b := Budget{Memory: 1 << 20, MaxText: 1 << 10}
	assert.NoError(t, b.Within("x", 1<<20))
	for _, c := range []struct {
		name string
		err  error
		want string
	}{
		{"memory", b.Within("loading the shared strings", 3<<19), "workbook too large: loading the shared strings needs about 1.5 MiB, more than the per-call memory budget of 1.0 MiB (--call-memory-budget)"},
		{"text", b.CellText("shared string 17"), "workbook too large: shared string 17 holds more than 1.0 KiB of text"},
	} {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, failure.KindLimit, failure.KindOf(c.err))
			assert.Contains(t, c.err.Error(), c.want)
		})
	}
	_, err := io.ReadAll(b.RunBound(bytes.NewReader(bytes.Repeat([]byte("a"), 1025)), "the shared strings"))
	assert.True(t, errors.Is(err, ErrRunTooLong))
	assert.Equal(t, failure.KindLimit, failure.KindOf(err))
	assert.Contains(t, err.Error(), "a cell or string in the shared strings holds more than 1.0 KiB")
}
