package tools

import (
	"errors"
	"fmt"
	"strings"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
)

// An argument alias is a second, documented name of an argument: both
// are in the schema, either may be given, and both only with the same
// value. read_excel's cell_range is an alias of range (the name the other
// tools use) and rename_sheet's old_name (its shipped name) an alias of
// sheet_name.

// errAliasConflict marks an argument and its alias given with different
// values; the error's Kind is KindInvalidArgument.
var errAliasConflict = errors.New("an argument and its alias disagree")

// foldAlias returns the value of the argument named name, value, or of its
// alias when only that is given. same reports whether two given values
// mean the same; both given and not the same is an invalid argument.
func foldAlias(name, value, aliasName, alias string, same func(a, b string) bool) (string, error) {
	switch {
	case alias == "":
		return value, nil
	case value == "":
		return alias, nil
	case !same(value, alias):
		return "", failure.New(failure.KindInvalidArgument, fmt.Sprintf("%s %q and its alias %s %q disagree: give only one of them", name, value, aliasName, alias), errAliasConflict)
	}
	return value, nil
}

// sameRange reports whether two range arguments name the same cells, or
// are the same text when either is not a range (the parser then says why).
func sameRange(a, b string) bool {
	ra, errA := grid.ParseRange(a)
	rb, errB := grid.ParseRange(b)
	if errA != nil || errB != nil {
		return a == b
	}
	return ra == rb
}

// sameSheet reports whether two sheet names are the same, ignoring case
// as sheet names are matched.
func sameSheet(a, b string) bool {
	return strings.EqualFold(strings.TrimSpace(a), strings.TrimSpace(b))
}
