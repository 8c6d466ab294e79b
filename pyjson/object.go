package pyjson

import "fmt"

// Field is one key/value pair of an ordered JSON object.
type Field struct {
	Key   string
	Value any
}

// Object is a JSON object whose keys are encoded in slice order, the way a
// Python dict keeps insertion order.
type Object []Field

// Get returns the value stored under key and whether it was present.
func (o Object) Get(key string) (any, bool) {
	for _, f := range o {
		if f.Key == key {
			return f.Value, true
		}
	}
	return nil, false
}

// Set replaces the value under key, or appends the pair when key is new,
// exactly as assigning to a Python dict does.
func (o Object) Set(key string, value any) Object {
	for i := range o {
		if o[i].Key == key {
			o[i].Value = value
			return o
		}
	}
	return append(o, Field{Key: key, Value: value})
}

// Delete removes key if present, keeping the order of the other keys.
func (o Object) Delete(key string) Object {
	for i := range o {
		if o[i].Key == key {
			return append(o[:i:i], o[i+1:]...)
		}
	}
	return o
}

// UnmarshalJSON decodes a JSON object keeping its key order, with the value
// types of DecodeOrdered, so a payload holding an Object (say,
// ValidationPayload) also decodes with encoding/json.
func (o *Object) UnmarshalJSON(data []byte) error {
	v, err := DecodeOrdered(data)
	if err != nil {
		return err
	}
	obj, ok := v.(Object)
	if !ok {
		return fmt.Errorf("%w: want a JSON object", ErrSyntax)
	}
	*o = obj
	return nil
}
