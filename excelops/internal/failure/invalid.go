package failure

import (
	"fmt"
)

// Invalid builds a ValueError-class error.
func Invalid(format string, a ...any) error {
	return New(KindInvalidArgument, fmt.Sprintf(format, a...), nil)
}
