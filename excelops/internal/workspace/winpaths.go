package workspace

import "strings"

// windowsPathProblem says why the user path p (slash-separated: backslashes
// already turned into slashes) cannot name a workspace file on Windows, or
// returns "". The rules are checked on the text alone, before anything
// touches the disk (resolve's checks call Windows APIs by name), so that
// no path reaches the network, a device or a stream:
//
//   - "//server/share/..." and "//?/...", "//./..." (UNC and device
//     paths): looking one up contacts the server;
//   - "/x" without a drive (rooted in the current drive, not the workspace)
//     and "C:x" (relative to that drive's current folder);
//   - ":" after the drive ("book.xlsx:hidden" is an alternate data stream);
//   - a reserved device name, with or without an extension ("NUL",
//     "con.xlsx", "COM1", "CONIN$"): Windows opens the device;
//   - a name ending in a dot or a space, which Windows' name lookups strip
//     ("book.xlsx." is "book.xlsx" to the checks but not to os.Root);
//   - characters Windows file names cannot hold (<>"|?* and controls).
//
// It is portable code so its tests run everywhere; only Windows applies it
// (checkSystem).
func windowsPathProblem(p string) string {
	if strings.HasPrefix(p, "//") {
		return "network (UNC) and device paths are not allowed"
	}
	rest := p
	if len(p) >= 2 && p[1] == ':' && isASCIILetter(p[0]) {
		if len(p) == 2 || p[2] != '/' {
			return "a path relative to a drive's current folder (C:name) is not allowed: give the full path or one relative to the workspace"
		}
		rest = p[2:]
	} else if strings.HasPrefix(p, "/") {
		return "a path from the root of the current drive is not allowed: give the drive (C:/...) or a path relative to the workspace"
	}
	if strings.ContainsRune(rest, ':') {
		return `":" is not allowed in a file name (it would name an alternate data stream or a device)`
	}
	for _, part := range strings.Split(rest, "/") {
		if part == "" || part == "." {
			continue
		}
		if strings.ContainsAny(part, `<>"|?*`) || strings.IndexFunc(part, func(r rune) bool { return r < 0x20 }) >= 0 {
			return `a name holds a character Windows file names cannot (<>"|?* or a control character)`
		}
		if last := part[len(part)-1]; last == '.' || last == ' ' {
			return "a name ends in a dot or a space, which Windows drops"
		}
		if windowsReservedName(part) {
			return "it names a Windows device (" + strings.ToUpper(deviceBase(part)) + ")"
		}
	}
	return ""
}

// isASCIILetter reports whether c is A-Z or a-z.
func isASCIILetter(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }

// deviceBase is the part of a name Windows matches against its device
// names: up to the first dot, without trailing spaces.
func deviceBase(name string) string {
	if i := strings.IndexByte(name, '.'); i >= 0 {
		name = name[:i]
	}
	return strings.TrimRight(name, " ")
}

// windowsReservedName reports whether name is a reserved device name, with
// or without an extension (as Windows 10 treats them; Windows 11 frees
// some with an extension, refused here all the same).
func windowsReservedName(name string) bool {
	base := strings.ToUpper(deviceBase(name))
	switch base {
	case "CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$":
		return true
	}
	if len(base) >= 4 && (strings.HasPrefix(base, "COM") || strings.HasPrefix(base, "LPT")) {
		switch base[3:] {
		case "1", "2", "3", "4", "5", "6", "7", "8", "9", "\u00b9", "\u00b2", "\u00b3":
			return true
		}
	}
	return false
}
