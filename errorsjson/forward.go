package errorsjson

import "github.com/registry-sidecar/registry-sidecar/pyjson"

// Forwarders to pyjson, where the Python-compatible encoder lives now, so
// that call sites not yet converted still build. Convert a call site by
// writing pyjson.X for errorsjson.X; these go once none is left.

// Field is pyjson.Field.
//
// Deprecated: use pyjson.Field.
type Field = pyjson.Field

// Object is pyjson.Object.
//
// Deprecated: use pyjson.Object.
type Object = pyjson.Object

// SyntaxError is pyjson.SyntaxError.
//
// Deprecated: use pyjson.SyntaxError.
type SyntaxError = pyjson.SyntaxError

// UnsupportedValueError is pyjson.UnsupportedValueError.
//
// Deprecated: use pyjson.UnsupportedValueError.
type UnsupportedValueError = pyjson.UnsupportedValueError

var (
	// ErrSyntax is pyjson.ErrSyntax.
	//
	// Deprecated: use pyjson.ErrSyntax.
	ErrSyntax = pyjson.ErrSyntax
	// ErrRecursion is pyjson.ErrRecursion.
	//
	// Deprecated: use pyjson.ErrRecursion.
	ErrRecursion = pyjson.ErrRecursion
)

// Marshal is pyjson.Marshal.
//
// Deprecated: use pyjson.Marshal.
func Marshal(v any) ([]byte, error) { return pyjson.Marshal(v) }

// MarshalString is pyjson.MarshalString.
//
// Deprecated: use pyjson.MarshalString.
func MarshalString(v any) (string, error) { return pyjson.MarshalString(v) }

// Append is pyjson.Append.
//
// Deprecated: use pyjson.Append.
func Append(dst []byte, v any) ([]byte, error) { return pyjson.Append(dst, v) }

// AppendString is pyjson.AppendString.
//
// Deprecated: use pyjson.AppendString.
func AppendString(dst []byte, s string) []byte { return pyjson.AppendString(dst, s) }

// AppendFloat is pyjson.AppendFloat.
//
// Deprecated: use pyjson.AppendFloat.
func AppendFloat(dst []byte, f float64) []byte { return pyjson.AppendFloat(dst, f) }

// DecodeOrdered is pyjson.DecodeOrdered.
//
// Deprecated: use pyjson.DecodeOrdered.
func DecodeOrdered(data []byte) (any, error) { return pyjson.DecodeOrdered(data) }
