package excelops

import "github.com/registry-sidecar/registry-sidecar/third_party/excelize"

// The book's rules on ranges of a sheet: conditional formats and data
// validations.

// conditionalFormats are the conditional formats of sheet by range.
func (b *book) conditionalFormats(sheet string) (map[string][]excelize.ConditionalFormatOptions, error) {
	return b.f.GetConditionalFormats(sheet)
}

// setConditionalFormat adds the conditional formats opts to the range rng
// of sheet.
func (b *book) setConditionalFormat(sheet, rng string, opts []excelize.ConditionalFormatOptions) error {
	return b.f.SetConditionalFormat(sheet, rng, opts)
}

// dataValidations are the data validations of sheet.
func (b *book) dataValidations(sheet string) ([]*excelize.DataValidation, error) {
	return b.f.GetDataValidations(sheet)
}

// addDataValidation adds the data validation dv to sheet.
func (b *book) addDataValidation(sheet string, dv *excelize.DataValidation) error {
	return b.f.AddDataValidation(sheet, dv)
}
