package excelops

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestFileURL: LibreOffice's profile URL for a Unix and, where paths have
// drives, a Windows folder.
func TestFileURL(t *testing.T) {
	assert.Equal(t, "file:///tmp/a%20b/lo-profile-1", fileURL("/tmp/a b/lo-profile-1"))
	if filepath.Separator == '\\' {
		assert.Equal(t, "file:///C:/Users/me/AppData/Local/Temp/lo-profile-1", fileURL(`C:\Users\me\AppData\Local\Temp\lo-profile-1`))
	}
}
