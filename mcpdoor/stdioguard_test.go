package mcpdoor

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/sirupsen/logrus"
	"github.com/sirupsen/logrus/hooks/test"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"
)

// guardWait bounds every wait of the guard's tests.
const guardWait = 10 * time.Second

// guardOver is a lineGuard over input, answering into out.
func guardOver(input string, out *bytes.Buffer, maxLine int, grace time.Duration) (*lineGuard, *answers, *test.Hook) {
	log, hook := test.NewNullLogger()
	owed := newAnswers()
	return newLineGuard(io.NopCloser(strings.NewReader(input)), out, owed, maxLine, grace, log), owed, hook
}

// TestLineGuardSortsLines: what the SDK reads and what the guard answers
// itself, line by line.
func TestLineGuardSortsLines(t *testing.T) {
	ping := `{"jsonrpc":"2.0","id":1,"method":"ping"}`
	note := `{"jsonrpc":"2.0","method":"notifications/initialized"}`
	long := `{"jsonrpc":"2.0","id":2,"method":"ping","params":{"_meta":{"pad":"` + strings.Repeat("x", 200) + `"}}}`
	cases := []struct {
		name, input string
		passed      string // what the SDK reads
		answered    string // what the guard wrote
	}{
		{"well formed", ping + "\n" + note + "\n", ping + "\n" + note + "\n", ""},
		{"blank lines and blanks around", "\n  \n\t" + ping + "  \r\n", ping + "\n", ""},
		{"last line unterminated", ping + "\n" + note, ping + "\n" + note + "\n", ""},
		{"not json", "not json\n" + ping + "\n", ping + "\n", `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: the message is not valid JSON"}}` + "\n"},
		{"two values on a line", ping + ping + "\n", "", `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: the message is not valid JSON"}}` + "\n"},
		{"empty object", "{}\n", "", `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: jsonrpc must be \"2.0\""}}` + "\n"},
		{"a number", "42\n", "", `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: a message must be a JSON object"}}` + "\n"},
		{"id kept when readable", `{"jsonrpc":"1.0","id":"a","method":"ping"}` + "\n", "", `{"jsonrpc":"2.0","id":"a","error":{"code":-32600,"message":"Invalid Request: jsonrpc must be \"2.0\""}}` + "\n"},
		{"neither method nor id", `{"jsonrpc":"2.0","result":{}}` + "\n", "", `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: a message needs a method (request) or an id (response)"}}` + "\n"},
		{"too long, then more", long + "\n" + ping + "\n", ping + "\n", `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: a message may not exceed 100 bytes"}}` + "\n"},
		{"too long at the end", ping + "\n" + long, ping + "\n", `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: a message may not exceed 100 bytes"}}` + "\n"},
		{"batch, one bad element", "[" + ping + `,{"id":3}]` + "\n", "[" + ping + "]\n", `[{"jsonrpc":"2.0","id":3,"error":{"code":-32600,"message":"Invalid Request: jsonrpc must be \"2.0\""}}]` + "\n"},
		{"batch repeating an id", "[" + ping + "," + ping + "]\n", "[" + ping + "]\n", `[{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: the batch repeats a request id"}}]` + "\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out bytes.Buffer
			g, owed, _ := guardOver(c.input, &out, 100, time.Millisecond)
			owed.abandon() // nothing here is ever answered: do not wait at the end
			passed, err := io.ReadAll(readerFunc(func(p []byte) (int, error) {
				owed.abandon()
				return g.Read(p)
			}))
			require.NoError(t, err)
			assert.Equal(t, c.passed, string(passed))
			assert.Equal(t, c.answered, out.String())
		})
	}
}

// readerFunc is a func as an io.Reader.
type readerFunc func([]byte) (int, error)

func (f readerFunc) Read(p []byte) (int, error) { return f(p) }

// TestLineGuardHoldsTheEnd: at the end of stdin, Read waits for the
// answers owed; an answer, Close or the grace period ends the wait.
func TestLineGuardHoldsTheEnd(t *testing.T) {
	call := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"x"}}` + "\n"
	readAll := func(g *lineGuard) <-chan time.Time {
		done := make(chan time.Time, 1)
		go func() {
			_, _ = io.ReadAll(g)
			done <- time.Now()
		}()
		return done
	}
	t.Run("answered", func(t *testing.T) {
		var out bytes.Buffer
		g, owed, _ := guardOver(call, &out, 1<<10, guardWait)
		done := readAll(g)
		require.Never(t, func() bool { return len(done) > 0 }, 100*time.Millisecond, 10*time.Millisecond, "the end passed while a call was owed")
		owed.outbound(gjson.Parse(`{"jsonrpc":"2.0","id":7,"result":{}}`))
		select {
		case <-done:
		case <-time.After(guardWait):
			t.Fatal("the answer did not end the wait")
		}
	})
	t.Run("closed", func(t *testing.T) {
		var out bytes.Buffer
		g, _, _ := guardOver(call, &out, 1<<10, guardWait)
		done := readAll(g)
		time.Sleep(50 * time.Millisecond)
		require.NoError(t, g.Close())
		select {
		case <-done:
		case <-time.After(guardWait):
			t.Fatal("Close did not end the wait")
		}
	})
	t.Run("grace", func(t *testing.T) {
		var out bytes.Buffer
		g, _, hook := guardOver(call, &out, 1<<10, 100*time.Millisecond)
		start := time.Now()
		select {
		case end := <-readAll(g):
			assert.GreaterOrEqual(t, end.Sub(start), 100*time.Millisecond)
		case <-time.After(guardWait):
			t.Fatal("the grace period did not end the wait")
		}
		require.NotNil(t, hook.LastEntry())
		assert.Equal(t, logrus.WarnLevel, hook.LastEntry().Level)
		assert.Equal(t, 1, hook.LastEntry().Data["unanswered"])
	})
}
