package atomicfile

// oTmpfile is 0: macOS cannot open an unnamed file in a folder, so every
// replacement writes a named temporary file (swept when left behind).
const oTmpfile = 0
