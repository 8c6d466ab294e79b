package tools

import (
	"github.com/registry-sidecar/registry-sidecar/pyjson"
)

// success is the header every successful result starts with, followed by
// the tool's own fields: "status": "success", then "file" (the workbook's
// file name) and "sheet" when they are not empty.
func success(file, sheet string, fields ...pyjson.Field) pyjson.Object {
	o := make(pyjson.Object, 0, 3+len(fields))
	o = append(o, pyjson.Field{Key: "status", Value: "success"})
	if file != "" {
		o = append(o, pyjson.Field{Key: "file", Value: file})
	}
	if sheet != "" {
		o = append(o, pyjson.Field{Key: "sheet", Value: sheet})
	}
	return append(o, fields...)
}

// field is one key and value of a result.
func field(key string, value any) pyjson.Field { return pyjson.Field{Key: key, Value: value} }
