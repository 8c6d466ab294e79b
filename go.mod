module github.com/registry-sidecar/registry-sidecar

go 1.26.8

require (
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3
	github.com/sirupsen/logrus v1.10.2
	golang.org/x/text v0.43.0
)

require golang.org/x/sys v0.49.0 // indirect

// excelize v2.11.1 pins a pseudo-version of efp that the module proxy refuses
// to serve; v0.0.2 is API-compatible. Drop this once excelize pins a release.
replace github.com/xuri/efp => github.com/xuri/efp v0.0.2
