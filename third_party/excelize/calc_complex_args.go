// Copyright 2016 - 2025 The excelize Authors. All rights reserved. Use of
// this source code is governed by a BSD-style license that can be found in
// the LICENSE file.

package excelize

import "strings"

// registry-sidecar: the suffix of a complex result (IMDIV, IMPOWER, IMSECH,
// ...) is the one its argument was written with: "j" for "3+4j", else "i".
// Upstream took the argument's last character, so IMDIV(12,"1-i") read
// "2" from "12" and answered "6+62".

// imSuffix returns the imaginary unit inumber is written with.
func imSuffix(inumber string) string {
	if strings.HasSuffix(inumber, "j") {
		return "j"
	}
	return "i"
}
