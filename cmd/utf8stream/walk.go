package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// expand returns files with each directory replaced by the regular files
// under it, as gofmt -l does: in lexical order, without following symbolic
// links, and skipping files and directories whose names start with a dot,
// such as .git. A directory named on the command line is walked even when
// its name starts with a dot or it is a symbolic link. The errors of the
// walk come back by path, which out holds in place of the files not read.
func expand(files []string) (out []string, errs map[string]error) {
	for _, name := range files {
		fi, err := os.Stat(name)
		if name == "-" || err != nil || !fi.IsDir() {
			out = append(out, name)
			continue
		}
		root := name
		if li, err := os.Lstat(name); err == nil && li.Mode()&fs.ModeSymlink != 0 {
			// The walk starts in the directory the link leads to.
			root += string(filepath.Separator)
		}
		filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			switch {
			case err != nil:
				if errs == nil {
					errs = make(map[string]error)
				}
				errs[path] = err
				out = append(out, path)
			case path != root && strings.HasPrefix(d.Name(), "."):
				if d.IsDir() {
					return filepath.SkipDir
				}
			case d.Type().IsRegular():
				if path == "-" {
					// A file named "-" in the directory ".": not
					// standard input.
					path = "." + string(filepath.Separator) + path
				}
				out = append(out, path)
			}
			return nil
		})
	}
	return out, errs
}
