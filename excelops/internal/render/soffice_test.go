package render

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

// TestSofficeEnvKeepsSecretsOut: LibreOffice never inherits the sidecar's
// token or other settings, nor proxy settings, and gets a private HOME.
func TestSofficeEnvKeepsSecretsOut(t *testing.T) {
	got := sofficeEnv([]string{"PATH=/bin", "REGISTRY_SIDECAR_TOKEN=s3cret", "registry_sidecar_x=1", "HTTP_PROXY=http://p", "https_proxy=x", "HOME=/root", "LANG=C"}, "/tmp/w")
	assert.Equal(t, []string{"PATH=/bin", "LANG=C", "HOME=/tmp/w"}, got)
}
