package excelops_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/registry-sidecar/registry-sidecar/excelops"
	"github.com/registry-sidecar/registry-sidecar/registry"
)

// ExampleWithSoffice points render_range at a LibreOffice binary. Here the
// binary does not exist, so the call says how to install LibreOffice
// instead of rendering.
func ExampleWithSoffice() {
	dir, _ := os.MkdirTemp("", "excelops-example-")
	defer os.RemoveAll(dir)
	svc, err := excelops.New(dir, excelops.WithSoffice("/opt/missing/soffice"))
	if err != nil {
		panic(err)
	}
	defer svc.Close()
	reg := registry.New()
	if err := svc.Register(reg); err != nil {
		panic(err)
	}
	ctx := context.Background()
	reg.CallTool(ctx, "write_cells", []byte(`{"file_path": "plan.xlsx", "cell": "A1", "value": "total"}`))
	res := reg.CallTool(ctx, "render_range", []byte(`{"file_path": "plan.xlsx", "cell_range": "A1:B2"}`))
	var p struct{ Exception, Message string }
	_ = json.Unmarshal([]byte(res.Text), &p)
	fmt.Println(p.Exception, strings.Contains(p.Message, "apt-get install libreoffice-calc-nogui"))
	// Output: RuntimeError true
}
