package excelops

import (
	"github.com/sirupsen/logrus"

	"github.com/registry-sidecar/registry-sidecar/registry"
)

// Service holds the spreadsheet tools over one workspace root.
type Service struct {
	root string
	log  logrus.FieldLogger
}

// Option configures a Service.
type Option func(*Service)

// WithLogger sets the logger.
func WithLogger(l logrus.FieldLogger) Option { return func(s *Service) { s.log = l } }

// New returns the tools over the workspace folder root.
func New(root string, opts ...Option) (*Service, error) {
	s := &Service{root: root}
	for _, o := range opts {
		o(s)
	}
	return s, nil
}

// Register adds every spreadsheet tool to r.
func (s *Service) Register(r *registry.Registry) error { return nil }
