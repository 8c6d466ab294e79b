// Package excelops provides the spreadsheet tools of registry-sidecar on
// excelize, confined to a workspace folder, saved atomically.
//
//	svc, err := excelops.New("/srv/workspace", excelops.WithLogger(log))
//	if err != nil { return err }
//	if err := svc.Register(reg); err != nil { return err }
package excelops
