package render

import (
	"bytes"
	"encoding/xml"
	"os"
	"path/filepath"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
)

// loSetting is one LibreOffice configuration value a render's private
// profile starts with, and why.
type loSetting struct {
	path, name, value string
	why               string
}

// renderSettings forbid LibreOffice to load anything from outside the
// document it renders, whatever the network allows: they apply to every
// render, with or without a network namespace. The keys are LibreOffice's
// own (officecfg/registry/schema), checked against 7.4 and 25.2; 25.2's
// schema no longer has OfficeBasic and ExecutePlugins, which it ignores
// (DisableMacrosExecution still stops every macro, Basic included).
var renderSettings = []loSetting{
	{"/org.openoffice.Office.Common/Security/Scripting", "BlockUntrustedRefererLinks", "true",
		"links of a document outside the trusted locations (there are none) are not followed: alone it stops a linked image (r:link) from being read from a file or fetched over HTTP"},
	{"/org.openoffice.Office.Common/Security/Scripting", "MacroSecurityLevel", "3",
		"very high: only macros from trusted locations (none) may run"},
	{"/org.openoffice.Office.Common/Security/Scripting", "DisableMacrosExecution", "true",
		"and no macro runs at all"},
	{"/org.openoffice.Office.Common/Security/Scripting", "OfficeBasic", "0",
		"never run Basic code"},
	{"/org.openoffice.Office.Common/Security/Scripting", "ExecutePlugins", "false",
		"no plug-ins"},
	{"/org.openoffice.Office.Calc/Content/Update", "Link", "1",
		"never update links to other documents when loading (LM_NEVER; the default asks, which headless answers differently across versions)"},
	{"/org.openoffice.Office.Calc/Formula/Load", "OOXMLRecalcMode", "1",
		"never recalculate an xlsx on load: the cached values are drawn, and link functions (WEBSERVICE, DDE) are not run again"},
	{"/org.openoffice.Inet/Settings", "ooInetProxyType", "2",
		"a manual proxy that refuses every connection: HTTP, HTTPS and FTP requests to other hosts fail without a DNS lookup of the host"},
	{"/org.openoffice.Inet/Settings", "ooInetHTTPProxyName", "127.0.0.1", "the refusing proxy"},
	{"/org.openoffice.Inet/Settings", "ooInetHTTPProxyPort", "1", "a port nothing listens on"},
	{"/org.openoffice.Inet/Settings", "ooInetHTTPSProxyName", "127.0.0.1", "the refusing proxy"},
	{"/org.openoffice.Inet/Settings", "ooInetHTTPSProxyPort", "1", "a port nothing listens on"},
	{"/org.openoffice.Inet/Settings", "ooInetFTPProxyName", "127.0.0.1", "the refusing proxy"},
	{"/org.openoffice.Inet/Settings", "ooInetFTPProxyPort", "1", "a port nothing listens on"},
	{"/org.openoffice.Inet/Settings", "ooInetNoProxy", "", "with no exceptions"},
	{"/org.openoffice.Inet/Settings", "ConnectTimeout", "2", "seconds: a connection that somehow is attempted gives up quickly"},
	{"/org.openoffice.Inet/Settings", "ReadTimeout", "2", "seconds, likewise for a read"},
}

// ProfileSettingsXML is renderSettings as the registrymodifications.xcu a
// LibreOffice user profile keeps its changed settings in.
func ProfileSettingsXML() []byte {
	var b bytes.Buffer
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	b.WriteString(`<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">` + "\n")
	for _, s := range renderSettings {
		b.WriteString(`<item oor:path="`)
		_ = xml.EscapeText(&b, []byte(s.path))
		b.WriteString(`"><prop oor:name="`)
		_ = xml.EscapeText(&b, []byte(s.name))
		b.WriteString(`" oor:op="fuse"><value>`)
		_ = xml.EscapeText(&b, []byte(s.value))
		b.WriteString("</value></prop></item>\n")
	}
	b.WriteString("</oor:items>\n")
	return b.Bytes()
}

// WriteProfileSettings puts renderSettings into the fresh LibreOffice
// profile folder profile, before soffice first starts on it.
func WriteProfileSettings(profile string) error {
	dir := filepath.Join(profile, "user")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return failure.New(failure.KindIO, "cannot prepare the LibreOffice profile: "+err.Error(), err)
	}
	if err := os.WriteFile(filepath.Join(dir, "registrymodifications.xcu"), ProfileSettingsXML(), 0o600); err != nil {
		return failure.New(failure.KindIO, "cannot write the LibreOffice settings: "+err.Error(), err)
	}
	return nil
}
