package excelops

import "github.com/registry-sidecar/registry-sidecar/errorsjson"

// success is the header every successful result starts with, followed by
// the tool's own fields: "status": "success", then "file" (the workbook's
// file name) and "sheet" when they are not empty.
func success(file, sheet string, fields ...errorsjson.Field) errorsjson.Object {
	o := make(errorsjson.Object, 0, 3+len(fields))
	o = append(o, errorsjson.Field{Key: "status", Value: "success"})
	if file != "" {
		o = append(o, errorsjson.Field{Key: "file", Value: file})
	}
	if sheet != "" {
		o = append(o, errorsjson.Field{Key: "sheet", Value: sheet})
	}
	return append(o, fields...)
}

// field is one key and value of a result.
func field(key string, value any) errorsjson.Field { return errorsjson.Field{Key: key, Value: value} }
