package registry

import (
	"fmt"
	"unicode/utf8"
)

// truncate caps text at limit code points, following excelmanus's
// ToolDef.truncate_result. limit <= 0 disables the cap.
func truncate(text string, limit int) string {
	if limit <= 0 {
		return text
	}
	n := utf8.RuneCountInString(text)
	if n <= limit {
		return text
	}
	cut := 0
	for i := range text {
		if cut == limit {
			return fmt.Sprintf("%s\n[结果已截断，原始长度: %d 字符]", text[:i], n)
		}
		cut++
	}
	return text
}
