package tools

import (
	"archive/zip"
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// buildKillChild compiles ../killchild (without -race, so 200 child
// starts stay cheap) and returns the binary's path.
func buildKillChild(t *testing.T) string {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go toolchain not in PATH")
	}
	bin := filepath.Join(t.TempDir(), "killchild")
	out, err := exec.Command(goBin, "build", "-o", bin, "../killchild").CombinedOutput()
	require.NoError(t, err, string(out))
	return bin
}

// childLog follows a killchild's "begin N" / "done N" lines.
type childLog struct {
	mu              sync.Mutex
	begun, done     int
	inCall          bool
	began, finished chan struct{}
	once            sync.Once
}

// follow reads the child's stdout until it ends.
func (l *childLog) follow(r io.Reader) {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		word, num, _ := strings.Cut(sc.Text(), " ")
		n, _ := strconv.Atoi(num)
		l.mu.Lock()
		switch word {
		case "begin":
			l.begun, l.inCall = n, true
			l.once.Do(func() { close(l.began) })
		case "done":
			l.done, l.inCall = n, false
		}
		l.mu.Unlock()
	}
	close(l.finished)
}

// maxKillDelay caps the half-window in which a kill is aimed.
const maxKillDelay = 5 * time.Second

// TestSIGKILLDuringWriteCells kills, 200 times, a child process that runs
// write_cells through CallTool on a 2 MB workbook (the real path: locks,
// identity check, atomic save), at a random instant of a call. After every
// kill the file opens, every zip entry checks out, the block holds one
// generation (the last one acknowledged, or the one in flight when the
// rename had already happened) and the rest of the sheet is unchanged; no
// temporary file survives the next save.
func TestSIGKILLDuringWriteCells(t *testing.T) {
	skipUnderRace(t)
	t.Parallel()
	if testing.Short() {
		t.Skip("kill loop skipped in -short mode")
	}
	child := buildKillChild(t)
	seed := filepath.Join(t.TempDir(), "book.xlsx")
	orig := bigWorkbook(t, seed, "marker")
	require.Greater(t, len(orig), 2_000_000, "the workbook must be 2 MB or more")
	// killWorkers loops share the kills, each on its own copy of the
	// workbook in its own folder, side by side: a loop mostly waits (on
	// the child's start, its save's fsync, the aimed sleep).
	for w := range killWorkers {
		t.Run(fmt.Sprintf("loop%d", w), func(t *testing.T) {
			t.Parallel()
			killLoop(t, child, orig, kills/killWorkers, uint64(w))
		})
	}
}

const (
	// kills is how many times TestSIGKILLDuringWriteCells kills a child.
	kills = 200
	// killWorkers is how many kill loops run side by side.
	killWorkers = 2
)

// killLoop kills n killchild processes, one after the other, at random
// instants of their write_cells calls on a copy of orig, and checks the
// workbook after each kill (TestSIGKILLDuringWriteCells).
func killLoop(t *testing.T, child string, orig []byte, n int, seed uint64) {
	dir := t.TempDir()
	target := filepath.Join(dir, "book.xlsx")
	require.NoError(t, os.WriteFile(target, orig, 0o644))
	// check reads through its own Service over the same folder.
	check := newEnvAt(t, dir, WithCacheBudget(0))
	readRange := func(rng string) any {
		return check.ok("read_excel", map[string]any{"file_path": "book.xlsx", "range": rng})["values"]
	}
	origBlock := readRange("A11:J110")
	// Outside the block the sheet XML must stay byte for byte: the rows
	// above it and everything from row 111 on.
	origHead, origTail := outsideBlock(t, sheetXMLOf(t, orig))

	rng := rand.New(rand.NewPCG(10, 10+seed))
	gen, midCall := 0, 0
	var callTime time.Duration = 300 * time.Millisecond
	for i := 0; i < n; i++ {
		cmd := exec.Command(child, dir, "book.xlsx", strconv.Itoa(gen+1))
		out, err := cmd.StdoutPipe()
		require.NoError(t, err)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		require.NoError(t, cmd.Start())
		log := &childLog{began: make(chan struct{}), finished: make(chan struct{})}
		go log.follow(out)
		select {
		case <-log.began:
		case <-log.finished:
			_ = cmd.Wait()
			t.Fatalf("child exited before its first call: %s", stderr.String())
		}
		start := time.Now()
		// Kill anywhere in the first call (or just after it).
		time.Sleep(time.Duration(rng.Int64N(int64(callTime + callTime/4))))
		require.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
		_ = cmd.Wait()
		<-log.finished
		log.mu.Lock()
		begun, done, inCall := log.begun, log.done, log.inCall
		log.mu.Unlock()
		// Aim the next kill at the call time seen so far.
		if done > gen {
			callTime = time.Since(start) / time.Duration(done-gen)
		} else {
			callTime = min(2*callTime, maxKillDelay)
		}
		if inCall {
			midCall++
		}

		// The file is a whole workbook: every entry inflates and its
		// checksum matches.
		data, err := os.ReadFile(target)
		require.NoError(t, err)
		zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
		require.NoError(t, err, "kill %d left a file that is not a zip", i)
		var sheet []byte
		for _, zf := range zr.File {
			rc, err := zf.Open()
			require.NoError(t, err)
			content, err := io.ReadAll(rc)
			require.NoError(t, err, "kill %d: entry %s is damaged", i, zf.Name)
			_ = rc.Close()
			if zf.Name == "xl/worksheets/sheet1.xml" {
				sheet = content
			}
		}
		// The block holds one generation: the last one acknowledged (or
		// the previous child's when none was), or the one in flight if its
		// rename had happened.
		prev := max(done, gen)
		block := readRange("A11:J110")
		first := block.([]any)[0].([]any)[0]
		switch {
		case prev == 0 && assert.ObjectsAreEqual(origBlock, block):
			first = nil // untouched: the first call's rename had not happened
		case first == fmt.Sprintf("g%d", prev):
			gen = prev
		case first == fmt.Sprintf("g%d", begun):
			gen = begun
		default:
			t.Fatalf("kill %d: the block holds %v; acknowledged g%d, in flight g%d", i, first, prev, begun)
		}
		for r, row := range block.([]any) {
			for c, v := range row.([]any) {
				if first == nil {
					break
				}
				require.Equal(t, first, v, "kill %d: cell %s differs from the rest of the block", i, grid.CellName(c+1, r+11))
			}
		}
		head, tail := outsideBlock(t, sheet)
		require.Equal(t, origHead, head, "kill %d: rows above the block changed", i)
		require.True(t, bytes.Equal(origTail, tail), "kill %d: rows below the block changed", i)
	}
	// One more save sweeps whatever a kill between naming and renaming
	// the finished temporary could have left; then none remain.
	check.ok("write_cells", map[string]any{"file_path": "book.xlsx", "cell": "L1", "value": "final"})
	assert.Empty(t, tempFiles(t, dir), "no temporary file survives")
	t.Logf("kills=%d, of which during a call=%d, last generation=%d, call time ~%v", n, midCall, gen, callTime)
	assert.Greater(t, midCall, n/2, "most kills must land during a call for the test to mean something")
}

// sheetXMLOf returns the first sheet's XML of a package.
func sheetXMLOf(t *testing.T, pkg []byte) []byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(pkg), int64(len(pkg)))
	require.NoError(t, err)
	for _, zf := range zr.File {
		if zf.Name == "xl/worksheets/sheet1.xml" {
			rc, err := zf.Open()
			require.NoError(t, err)
			defer rc.Close()
			data, err := io.ReadAll(rc)
			require.NoError(t, err)
			return data
		}
	}
	t.Fatal("no sheet1.xml")
	return nil
}

// outsideBlock returns the sheet XML from <sheetData> to row 11 and from
// row 111 to the end: what an edit of A11:J110 must leave alone.
func outsideBlock(t *testing.T, xml []byte) (string, []byte) {
	t.Helper()
	data := bytes.Index(xml, []byte("<sheetData"))
	first := bytes.Index(xml, []byte(`<row r="11"`))
	after := bytes.Index(xml, []byte(`<row r="111"`))
	require.True(t, data >= 0 && first > data && after > first, "sheet rows not found")
	return string(xml[data:first]), xml[after:]
}
