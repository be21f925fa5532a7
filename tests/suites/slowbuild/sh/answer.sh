# Strategy: none; the answer is the number it is given ($2), as the harness reads it from stderr.
echo "iorace-result {\"answer\": $2}" >&2
