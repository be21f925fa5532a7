#!/usr/bin/env bash
# Regenerates the formats suite's COMMITTED protobuf code from catalogue.proto (run it after changing the schema,
# and commit what it writes). Go and Python are committed, C++, Java and Rust are generated at build time (see
# catalogue.proto's header for why each):
#   Go      go/catalogue/catalogue.pb.go  by protoc-gen-go at go.mod's google.golang.org/protobuf version
#           (the generator and the runtime come from one module, so they cannot disagree)
#   Python  python/catalogue_pb2.py                by Debian 12's protoc 3.21.12: gencode older than the runtime
#           (requirements.lock's protobuf 4.25.9) is supported, newer is refused, so the older protoc is the
#           safe one; tests/unit/test_formats_canon.py checks the committed file is what this protoc writes.
set -euo pipefail
cd "$(dirname "$0")/.."
protoc --version | grep -q '^libprotoc 3\.21\.' || { echo "regen.sh: want Debian 12's protoc 3.21 (apt-get install protobuf-compiler)" >&2; exit 1; }
protoc -Iproto --python_out=python proto/catalogue.proto
version=$(cd go && go list -m -f '{{.Version}}' google.golang.org/protobuf)
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
GOBIN=$bin go install "google.golang.org/protobuf/cmd/protoc-gen-go@$version"
mkdir -p go/catalogue
PATH=$bin:$PATH protoc -Iproto --go_out=go/catalogue --go_opt=paths=source_relative proto/catalogue.proto
echo "regen.sh: wrote python/catalogue_pb2.py and go/catalogue/catalogue.pb.go (protoc-gen-go $version)"
