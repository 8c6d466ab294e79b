// Package defaults is the one way the project fills the fields of a
// settings struct left unset: each package keeps its Default* constants
// beside its struct and, in one withDefaults method, names every field
// with its default through these functions, so a reader finds a struct's
// defaults in one place and every struct treats "unset" alike (zero or
// negative numbers, empty text, no logger).
package defaults

import (
	"io"

	"github.com/sirupsen/logrus"
)

// Number is what Positive fills: counts, sizes and durations.
type Number interface {
	~int | ~int64 | ~float64
}

// Positive sets *field to def when *field is zero or negative.
func Positive[T Number](field *T, def T) {
	if *field <= 0 {
		*field = def
	}
}

// Text sets *field to def when *field is empty.
func Text(field *string, def string) {
	if *field == "" {
		*field = def
	}
}

// Logger sets *field, when nil, to a logger that writes and formats
// nothing.
func Logger(field *logrus.FieldLogger) {
	if *field == nil {
		*field = Discard()
	}
}

// Discard returns a logger that writes nothing and, its level below every
// call, formats nothing either.
func Discard() *logrus.Logger {
	l := logrus.New()
	l.Out = io.Discard
	l.Level = logrus.PanicLevel
	return l
}
