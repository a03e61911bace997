//go:build tools

// Package tools pins the FerretDB version that scripts/bootstrap.sh builds.
package tools

import _ "github.com/FerretDB/FerretDB/cmd/ferretdb"
