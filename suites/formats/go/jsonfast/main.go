// Strategy: bytedance/sonic (JIT-compiled codecs per type, SIMD scanning; amd64 on Go 1.17 to 1.27): Marshal of the
// typed structs, Unmarshal into new ones, with sonic's default config (the usual sonic.Marshal / sonic.Unmarshal:
// map keys in Go's map order, not sorted as encoding/json sorts them; no HTML escaping; strings not UTF-8-checked).
package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/bytedance/sonic"
	"github.com/bytedance/sonic/decoder"

	"formats/common"
)

// oneLine: sonic's syntax and type errors quote the input around the fault with a caret over several lines
// (escaped, as a Go string literal): a refusal is one line, the offset and what went wrong. Other errors as they
// are, any line break a space.
func oneLine(err error) error {
	if err == nil {
		return nil
	}
	var syntax decoder.SyntaxError
	if errors.As(err, &syntax) {
		return lineError(fmt.Sprintf("syntax error at index %d: %s", syntax.Pos, syntax.Message()))
	}
	var mismatch *decoder.MismatchTypeError
	if errors.As(err, &mismatch) {
		return lineError(fmt.Sprintf("mismatched type at index %d: not a %s", mismatch.Pos, mismatch.Type))
	}
	return lineError(strings.Join(strings.Fields(err.Error()), " "))
}

type lineError string

func (e lineError) Error() string { return string(e) }

func main() {
	common.Main(
		func(c *common.Catalog) ([]byte, error) {
			b, err := sonic.Marshal(c)
			return b, oneLine(err)
		},
		func(b []byte) (*common.Catalog, error) {
			var c common.Catalog
			err := sonic.Unmarshal(b, &c)
			return &c, oneLine(err)
		},
	)
}
