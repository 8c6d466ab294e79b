package engine

import (
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/vocab"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
)

// The book's rules on ranges of a sheet: conditional formats and data
// validations.

// ConditionalFormats are the conditional formats of sheet by range.
func (b *Book) ConditionalFormats(sheet string) (map[string][]excelize.ConditionalFormatOptions, error) {
	return b.f.GetConditionalFormats(sheet)
}

// SetConditionalFormat adds the conditional formats opts to the range rng
// of sheet.
func (b *Book) SetConditionalFormat(sheet, rng string, opts []excelize.ConditionalFormatOptions) error {
	return b.f.SetConditionalFormat(sheet, rng, opts)
}

// DataValidations are the data validations of sheet.
func (b *Book) DataValidations(sheet string) ([]*excelize.DataValidation, error) {
	return b.f.GetDataValidations(sheet)
}

// AddDataValidation adds the data validation dv to sheet.
func (b *Book) AddDataValidation(sheet string, dv *excelize.DataValidation) error {
	return b.f.AddDataValidation(sheet, dv)
}

// RuleFormat registers the differential style of a rule (Excel's light
// red format when f is nil).
func (b *Book) RuleFormat(opt *excelize.ConditionalFormatOptions, f *vocab.RuleFormat) error {
	if f == nil {
		f = vocab.DefaultRuleFormat()
	}
	st, err := f.Style()
	if err != nil {
		return err
	}
	id, err := b.f.NewConditionalStyle(st)
	if err != nil {
		return failure.New(failure.KindInvalidArgument, "invalid rule format: "+err.Error(), err)
	}
	opt.Format = &id
	return nil
}
