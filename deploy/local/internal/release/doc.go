// Package release tests deploy/version.sh, which gives each program its
// own version from its own path's history: a script, because the image
// build (deploy/containers/images.sh) and the Makefile call it, with its
// rules checked here on repositories made for the test.
package release
