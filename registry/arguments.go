package registry

import (
	"bytes"
	"fmt"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/registry-sidecar/registry-sidecar/errorsjson"
	"github.com/registry-sidecar/registry-sidecar/pyjson"
)

// checkArguments decodes args and checks them against the tool's schema.
// It returns nil when they are valid, else the validation payload worded
// in profile p. Whether arguments are valid is the full validator's
// decision alone (the same in every profile); the profile only words it.
func (r *Registry) checkArguments(e *entry, args []byte, p Profile) *errorsjson.ValidationPayload {
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(args))
	if err != nil {
		return r.validationPayload(e, p, []string{notJSON(p, err)}, nil, nil)
	}
	obj, ok := inst.(map[string]any)
	if !ok {
		return r.validationPayload(e, p, []string{notObject(p, inst)}, nil, nil)
	}
	verr := e.schema.Validate(obj)
	if verr == nil {
		return nil
	}
	var violations []string
	var nested pyjson.Object
	if p == ProfileEnglish {
		violations, nested = englishViolations(e.doc, verr, obj)
	} else {
		// excelmanus walks the arguments as json.loads gives them: in
		// argument order, ints apart from floats.
		ordered, derr := pyjson.DecodeOrdered(args)
		if derr != nil {
			// Python's json.loads would refuse it too (say, nested
			// deeper than 1000 levels).
			violations = []string{"$: 参数无法按 JSON 解析（" + derr.Error() + "）"}
		} else {
			violations, nested = excelmanusViolations(e.doc, verr, ordered)
		}
	}
	for i, v := range violations {
		violations[i] = clipViolation(v)
	}
	return r.validationPayload(e, p, violations, sortedKeys(obj), nested)
}

func (r *Registry) validationPayload(e *entry, p Profile, violations, provided []string, nested pyjson.Object) *errorsjson.ValidationPayload {
	v := errorsjson.Validation(e.tool.Name, violations, e.required, e.accepted, provided)
	v.Message = p.texts().validationMessage
	v.NestedAcceptedFields = nested
	return &v
}

// notJSON words arguments that are not JSON at all.
func notJSON(p Profile, err error) string {
	if p == ProfileEnglish {
		return "$: arguments are not valid JSON: " + err.Error()
	}
	return "$: 参数不是合法的 JSON（" + err.Error() + "）"
}

// notObject words arguments that are JSON but not an object.
func notObject(p Profile, inst any) string {
	if p == ProfileEnglish {
		return fmt.Sprintf("$: arguments must be a JSON object, got %s", jsonKind(inst))
	}
	return "$: 类型不匹配，期望 'object'，实际 " + pyTypeName(inst)
}
