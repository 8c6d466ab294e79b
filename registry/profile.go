package registry

import (
	"errors"
	"fmt"
	"strings"
)

// Profile names a message profile: the catalogue of texts the registry
// writes itself (validation violations and message, not-found and
// not-allowed messages, truncation notes). Tool results and tool errors are
// never reworded.
type Profile string

// The message profiles.
const (
	// ProfileExcelmanus writes excelmanus's exact Chinese texts: one
	// violation per field with excelmanus's paths, Python type names and
	// repr() quoting, its validation message, its not-found/not-allowed
	// messages and its truncation notes. It is the default, because agents
	// and prompts written for excelmanus expect these words.
	ProfileExcelmanus Profile = "excelmanus"
	// ProfileEnglish writes plain English: the JSON Schema validator's own
	// violation texts, "Tool 'x' not found." and English truncation notes.
	ProfileEnglish Profile = "en"
)

// DefaultProfile is the profile of a Registry without WithProfile.
const DefaultProfile = ProfileExcelmanus

// ErrUnknownProfile is returned by ParseProfile for a name that is not a
// profile.
var ErrUnknownProfile = errors.New("unknown message profile")

// Profiles lists the profile names, default first.
func Profiles() []Profile { return []Profile{ProfileExcelmanus, ProfileEnglish} }

// ParseProfile returns the profile called name (case-insensitive, spaces
// trimmed).
func ParseProfile(name string) (Profile, error) {
	p := Profile(strings.ToLower(strings.TrimSpace(name)))
	for _, known := range Profiles() {
		if p == known {
			return p, nil
		}
	}
	return "", fmt.Errorf("%w %q (want excelmanus or en)", ErrUnknownProfile, name)
}

// catalogue is the one home of the texts a profile writes. Violation texts
// are built by the profile's validation (walk.go for excelmanus, validate.go
// for en); everything else is here.
type catalogue struct {
	// validationMessage is the "message" of a validation payload.
	validationMessage string
	notFound          func(tool string) string
	notAllowed        func(tool string) string
	// listNote marks a list field cut to its first k of n items.
	listNote func(field string, k, n int) string
	// dictMarker is the "__truncated__" value of an object field cut to
	// its first k of n keys.
	dictMarker func(k, n int) string
	// stringNote marks a string field cut to its last k of n code points.
	stringNote func(field string, k, n int) string
	// plainNote follows a text cut to its first code points.
	plainNote func(n int) string
	// keepJSON: when no field can be shrunk enough, keep the leading
	// top-level fields (still a JSON object) instead of cutting the text
	// as plain text, which is what excelmanus does.
	keepJSON bool
	// respaceRaw: a json.RawMessage result in compact form is re-spaced to
	// json.dumps's ", " and ": " (what excelmanus's model sees for a dict).
	respaceRaw bool
}

// texts returns the catalogue of p; an unknown p gets the default's.
func (p Profile) texts() catalogue {
	if p == ProfileEnglish {
		return english
	}
	return excelmanus
}

var excelmanus = catalogue{
	validationMessage: "工具参数与 schema 不匹配，请修正后重试。",
	notFound:          func(tool string) string { return fmt.Sprintf("工具 '%s' 未注册。", tool) },
	notAllowed:        func(tool string) string { return fmt.Sprintf("工具 '%s' 不在授权范围内。", tool) },
	listNote: func(field string, k, n int) string {
		return fmt.Sprintf("⚠️ 完整数据有 %d 行，仅展示前 %d 行（字段: %s）。如需更多数据，可用 offset/max_rows 分页读取，或用 run_code 执行 pandas 操作全量数据。", n, k, field)
	},
	dictMarker: func(k, n int) string { return fmt.Sprintf("保留 %d/%d 项", k, n) },
	stringNote: func(_ string, k, n int) string {
		return fmt.Sprintf("⚠️ 原始输出 %d 字符，已截断前部，保留后 %d 字符。如需完整输出，可在 run_code 中将结果写入文件后用 read_text_file 查看。", n, k)
	},
	plainNote:  func(n int) string { return fmt.Sprintf("[结果已截断，原始长度: %d 字符]", n) },
	respaceRaw: true,
}

var english = catalogue{
	validationMessage: "The arguments do not match the tool's schema; fix them and retry.",
	notFound:          func(tool string) string { return fmt.Sprintf("Tool '%s' not found.", tool) },
	notAllowed:        func(tool string) string { return fmt.Sprintf("Tool '%s' is not in the allowed tool scope.", tool) },
	listNote: func(field string, k, n int) string {
		return fmt.Sprintf("Showing the first %d of %d rows (field: %s). Page with offset/max_rows to read more.", k, n, field)
	},
	dictMarker: func(k, n int) string { return fmt.Sprintf("kept %d/%d items", k, n) },
	stringNote: func(field string, k, n int) string {
		return fmt.Sprintf("Kept the last %d of %d characters of %s.", k, n, field)
	},
	plainNote: func(n int) string { return fmt.Sprintf("[result truncated, original length: %d characters]", n) },
	keepJSON:  true,
}
