package splice

// oTmpfile is 0: macOS cannot open an unnamed file in a folder, so a spill
// file is created with a name and removed at once.
const oTmpfile = 0
