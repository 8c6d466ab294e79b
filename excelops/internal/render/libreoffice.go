package render

import (
	"io"

	"github.com/sirupsen/logrus"
)

// DefaultMaxRenders is how many renders run LibreOffice at the same time
// unless Config.MaxRenders says otherwise: each soffice takes a core and a
// few hundred MB (about 570 MB measured on a small workbook), and a
// machine runs other calls too.
const DefaultMaxRenders = 2

// Config is what a LibreOffice needs.
type Config struct {
	// Soffice is the LibreOffice binary: a path, or a name looked up on
	// PATH ("" is "soffice").
	Soffice string
	// MaxRenders is how many renders run LibreOffice at once (<= 0 is
	// DefaultMaxRenders).
	MaxRenders int
	// TmpBase is the folder the network-namespace probe makes its
	// private folder under.
	TmpBase string
	// Log receives the isolation chosen and its changes (nil discards).
	Log logrus.FieldLogger
}

// LibreOffice runs soffice for renders: the binary, the slots that cap how
// many run at once and whether they get their own network namespace. It is
// safe for concurrent use.
type LibreOffice struct {
	soffice string
	tmpBase string
	log     logrus.FieldLogger
	// slots holds one token per LibreOffice running (slots.go).
	slots chan struct{}
	// isolation says whether soffice gets its own network namespace
	// (isolation.go).
	isolation isolation
}

// New returns the LibreOffice of cfg.
func New(cfg Config) *LibreOffice {
	if cfg.MaxRenders <= 0 {
		cfg.MaxRenders = DefaultMaxRenders
	}
	if cfg.Log == nil {
		l := logrus.New()
		l.SetOutput(io.Discard)
		cfg.Log = l
	}
	return &LibreOffice{
		soffice: cfg.Soffice,
		tmpBase: cfg.TmpBase,
		log:     cfg.Log,
		slots:   make(chan struct{}, cfg.MaxRenders),
	}
}
