//go:build ignore

// Gen writes the assembly headers of the package that go generate runs it
// in, as tablegen.Files returns them: internal/valid, internal/repair and
// internal/utf16 each hold the line
//
//	//go:generate go run ../tablegen/gen.go
package main

import (
	"log"
	"os"

	"github.com/utf8stream/utf8stream/internal/tablegen"
)

func main() {
	log.SetFlags(0)
	log.SetPrefix("tablegen: ")
	pkg := os.Getenv("GOPACKAGE")
	files := tablegen.Files(pkg)
	if files == nil {
		log.Fatalf("no tables for package %q (run by go generate in internal/valid, internal/repair or internal/utf16)", pkg)
	}
	for _, f := range files {
		if err := os.WriteFile(f.Name, f.Render(), 0o666); err != nil {
			log.Fatal(err)
		}
	}
}
