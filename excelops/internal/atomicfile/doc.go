// Package atomicfile replaces a file's content so that a failure or a kill
// at any instant leaves either the old bytes or the complete new ones: the
// new content goes to a temporary file in the same folder, which is fsynced,
// given the wanted mode and renamed over the target; then the folder is
// fsynced so the rename survives a power loss.
package atomicfile
